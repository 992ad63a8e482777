"""Data flows one way: a layer imports only from the layers below it, and no modules import
each other, even by way of others (an import circle makes the import order matter and the
modules one piece)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import indicifeval

LAYERS = ["_version", "core", "records", "languages", "text", "checkers", "dataset", "scoring", "lmeval", "rewards",
          "runs", "testing", "builder", "reports", "results", "cli"]
# inside builder/, a step imports only what comes before it: the shared machinery, the pipelines
# that make rows, the review of those rows, then what reads a reviewed build (status, release)
BUILDER_STEPS = [("migrate", "project", "stages", "executors", "candidates", "licences"), ("trans", "ground"),
                 ("multiturn",), ("review",), ("status", "release")]
ROOT = Path(indicifeval.__file__).parent


def _modules() -> dict[str, Path]:
    """Every module by its dotted name; a package is its ``__init__``."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")) + sorted(ROOT.rglob("*.pyi")):  # a stub: a compiled module
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        out.setdefault(".".join(parts[:-1] if parts[-1] == "__init__" else parts), path)
    return out


def _graph() -> dict[str, set[str]]:
    """module -> the modules it imports, wherever in it (inside functions too); ``from a import b``
    imports the module ``a.b`` when there is one, else ``a``."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
                targets.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.add(member)
                    if member == node:
                        break
                if len(members) > 1:
                    found.append(frozenset(members))
    return found


def _path_in(circle: frozenset[str], graph: dict[str, set[str]]) -> str:
    """The shortest loop through the circle's first module, for the message (a -> b -> a), and
    the circle's other modules when there are more."""
    loop = _loop(circle, graph)
    rest = sorted(circle - set(loop.split(" -> ")))
    return loop + (f" (also in this circle: {', '.join(rest)})" if rest else "")


def _loop(circle: frozenset[str], graph: dict[str, set[str]]) -> str:
    start = min(circle)
    parents = {start: ""}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & circle):
            if child == start:
                loop = [node]
                while parents[loop[-1]]:
                    loop.append(parents[loop[-1]])
                return " -> ".join([*reversed(loop), start])
            if child not in parents:
                parents[child] = node
                queue.append(child)
    return ", ".join(sorted(circle))


def test_the_graph_sees_imports_anywhere():
    graph = _graph()
    assert "indicifeval.reports.heatmaps" in graph["indicifeval.reports.units.languages"]  # inside a function
    assert "indicifeval.reports.units" in graph["indicifeval.reports.api"]  # from a package import a submodule
    assert "indicifeval.languages.benchmark" in graph["indicifeval.languages.profile"]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]


def test_no_import_circles():
    graph = _graph()
    circles = _circles(graph)
    found = [_path_in(c, graph) for c in circles]
    assert not found, "import circles:\n" + "\n".join(found)


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_no_upward_imports():
    violations = []
    for module, targets in _graph().items():
        if module.count(".") == 0 or module == "indicifeval.__main__":
            continue  # the package root re-exports the public API
        layer = _layer(module)
        for target in targets:
            if layer is not None and (above := _layer(target)) is not None and above > layer:
                violations.append(f"{module} imports {target}")
    assert not violations, violations


def test_build_steps_import_only_earlier_ones():
    step = {name: i for i, names in enumerate(BUILDER_STEPS) for name in names}
    builder = {p.stem if p.is_file() else p.name for p in (ROOT / "builder").iterdir()
               if p.suffix == ".py" or (p / "__init__.py").exists()} - {"__init__"}
    assert builder == set(step), "give each module or package of builder/ its step in BUILDER_STEPS"

    def step_of(module: str) -> int | None:
        parts = module.split(".")
        return step[parts[2]] if len(parts) > 2 and parts[1] == "builder" else None

    violations = defaultdict(list)
    for module, targets in _graph().items():
        if (mine := step_of(module)) is None:
            continue
        for target in targets:
            if (theirs := step_of(target)) is not None and theirs > mine:
                violations[module].append(target)
    assert not violations, dict(violations)


def test_every_package_has_a_layer():
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - {"sample"} <= set(LAYERS)


def test_one_class_per_name():
    """A class name means one thing across the package, so a reader (or an import) never
    takes one for the other."""
    where = defaultdict(list)
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(str(path.relative_to(ROOT)))
    assert not {name: paths for name, paths in where.items() if len(paths) > 1}


def test_modules_stay_small():
    """Small modules whose names say what they hold: none over 400 lines."""
    long = {str(p.relative_to(ROOT)): n for p in ROOT.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert not long, long


def test_no_product_code_imports_the_test_fakes():
    """testing/ holds loopback servers for tests; the pipelines' demo answers are the mock
    backend's named scripts, so nothing outside testing/ reaches into it (by import or importlib)."""
    offenders = []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "testing":
            continue
        text = path.read_text(encoding="utf-8")
        if "indicifeval.testing" in text:
            offenders.append(str(rel))
    assert not offenders, offenders
