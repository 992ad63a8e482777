"""Data flows one way: a layer imports only from the layers below it."""

import ast
from pathlib import Path

import indicifeval

LAYERS = ["_version", "core", "records", "languages", "text", "checkers", "dataset", "scoring", "lmeval", "rewards",
          "runs", "testing", "builder", "reports", "cli"]
ROOT = Path(indicifeval.__file__).parent


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("indicifeval."):
            yield node.module.split(".")[1]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("indicifeval."):
                    yield alias.name.split(".")[1]


def test_no_upward_imports():
    violations = []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        if len(rel.parts) == 1:
            continue  # the package root re-exports the public API
        layer = rel.parts[0]
        for target in _imports(path):
            if target in LAYERS and LAYERS.index(target) > LAYERS.index(layer):
                violations.append(f"{rel} imports indicifeval.{target}")
    assert not violations, violations


def test_every_package_has_a_layer():
    packages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages - {"sample"} <= set(LAYERS)


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
