"""The first hour with indicifeval, as a new user has it: the README's commands run as written,
in order, in an empty folder, and what they write is ignored by git; a mistyped flag gets the
closest one; a missing extra is named (serve's own); outputs follow the umask (where validate
writes: test_validate_findings.py); errors name the command's own flags; batch imports are
reported per file and a waiting batch is `pending`; the stage table reads at 80 columns; a pipe
gets progress lines; closing lines say what next (test_next_steps.py runs them); the build
report and the dataset card name builds by folder."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
from rich.console import Console

from indicifeval.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MOCK = ["--backend", "mock", "--model", "fake"]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A new user's shell: this Python's scripts first on PATH, caches in the test's folder."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               XDG_CACHE_HOME=str(tmp_path / ".cache"), PYTHONPATH=str(ROOT / "src"))
    env.pop("COLUMNS", None)
    env.update(extra)
    return env


def _tested_blocks() -> list[str]:
    """The README's bash blocks marked ``<!-- tested: ... -->``, in the order they appear."""
    text = README.read_text(encoding="utf-8")
    return re.findall(r"<!-- tested:[^>]*-->\n```bash\n(.*?)```", text, flags=re.S)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- the README --------------------------------------------------------------------------------

def test_readme_begins_with_the_two_commands_then_the_build_extra():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert lines[:6] == ["# indicifeval", "", "```bash", "pip install . && indicifeval score --data sample --out "
                         "out/sample", "pip install '.[test]' && python -m pytest", "```"]
    following = next(line for line in lines[6:] if line.strip())
    assert "pip install 'indicifeval[build]'" in following and "pip install '.[build]'" in following


def test_readme_first_screen_shows_both_halves_and_a_table_of_contents():
    text = README.read_text(encoding="utf-8")
    first = "\n".join(text.splitlines()[:50])
    for verb in ("score", "run", "report", "build", "review", "release"):
        assert f"**{verb}**" in first, verb
    assert "fonts-noto-core" in first and "chromium" in first and "11 minutes" in first
    contents = re.search(r"\*\*Contents\*\*:(.*?)\n\n", text, flags=re.S).group(1)
    anchors = re.findall(r"\]\(#([a-z0-9-]+)\)", contents)
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, re.M)}
    assert len(anchors) >= 8 and not set(anchors) - headings, set(anchors) - headings
    for doc in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / doc).is_file(), doc
    assert "langid_accuracy.py --gettext" not in text  # the dense detail lives in docs/accuracy.md
    assert "--gettext" in (ROOT / "docs" / "accuracy.md").read_text(encoding="utf-8")


def test_readme_commands_run_as_written_in_order(tmp_path):
    """The first command (the score half of it), then every tested block, in one empty folder;
    only the fake server's port is changed, to one that is free."""
    setup = README.read_text(encoding="utf-8").splitlines()[3]
    blocks = [setup.split(" && ", 1)[1] + "\n", *_tested_blocks()]
    assert len(blocks) >= 3 and any("build finalize" in b for b in blocks) and any("fake_server" in b for b in blocks)
    port = str(_free_port())
    script = "set -euo pipefail\n" + "\n".join(b.replace("8000", port) for b in blocks)
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    for made in ("out/sample/summary.json", "runs/demo/summary.json", "runs/demo-http/summary.json",
                 "report/report.html", "release/hub/README.md", "build-report.html", "runs/echo/summary.json",
                 "build/hi-ground/validation.jsonl"):
        assert (tmp_path / made).is_file(), made
    summaries = [json.loads((tmp_path / f"runs/{r}/summary.json").read_text()) for r in ("demo", "demo-http")]
    assert summaries[0]["overall"]["prompts"] == summaries[1]["overall"]["prompts"] > 0  # two runs, not one refused
    loose = [s["overall"]["prompt_level_loose_acc"] for s in summaries]
    assert loose[1] < loose[0] - 0.05, loose  # the server cuts a share of its answers short: a Δ to show
    card = (tmp_path / "release/hub/README.md").read_text(encoding="utf-8")
    assert "in 1 language," in card and "indicifeval-ground" in card and "indicifeval-trans" in card
    assert "next: indicifeval build publish release" in done.stdout


def _written_by_the_docs() -> set[str]:
    """The first part of every path the README's and docs' commands write relative to the
    working directory (``--out release`` -> release, ``> annotators.yaml``); placeholders
    (DIR, RUN_DIR) and absolute paths left out."""
    texts = [README.read_text(encoding="utf-8")] + [p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md")]
    flags = r"(?:--out|--json|--markdown|--output_path|--annotators|(?<![-=])>|build (?:trans|ground))"
    found = set()
    for text in texts:
        for path in re.findall(rf"{flags}[ =]([A-Za-z0-9_.][\w./-]*)", text):
            first = path.split("/", 1)[0]
            if first.isupper() or first.replace("_", "").isupper() or not first.strip("."):
                continue
            found.add(first)
            if first.endswith(".yaml"):  # the review app keeps its tokens' hashes beside the annotator list
                found.add(first.removesuffix(".yaml") + ".auth.sqlite")
    return found


def test_what_the_docs_commands_write_is_ignored_by_git():
    patterns = [line.strip() for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
                if line.startswith("/")]
    written = _written_by_the_docs()
    assert {"out", "runs", "build", "release", "report", "build-report.html", "annotators.yaml"} <= written
    for name in written:  # anchored at the root: src/indicifeval/runs/ and reports/ stay tracked
        assert any(fnmatch.fnmatch(f"/{name}", p.rstrip("/")) for p in patterns), f"{name} is not in .gitignore"


# -- flags, extras, data flags -----------------------------------------------------------------

@pytest.mark.parametrize("argv, usage, hint", [
    (["score", "--data", "sample", "--outt", "x"], "usage: indicifeval score", "did you mean --out?"),
    (["build", "finalize", "b", "--outt", "r"], "usage: indicifeval build finalize", "did you mean --out?"),
    (["run", "--model", "m", "--backend", "mock", "--out", "r", "--limt", "2"], "usage: indicifeval run",
     "did you mean --limit?"),
    (["socre"], "usage: indicifeval ", "did you mean score?"),
])
def test_a_mistyped_flag_gets_the_commands_usage_and_the_closest_flag(argv, usage, hint, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and usage in err and hint in err, err


BLOCK = """
import sys
class Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {names!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Blocked())
from indicifeval.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_missing_extra_is_one_line_naming_it(tmp_path):
    (tmp_path / "annotators.yaml").write_text("asha: annotator\n", encoding="utf-8")
    assert main(["build", "trans", str(tmp_path / "b"), "--lang", "hi", "--source", "sample", *MOCK,
                 "--mock-answers", "fake:0", "--quiet"]) == 0
    done = subprocess.run([sys.executable, "-c", BLOCK.format(names={"jinja2"}), "build", "review", "serve",
                           str(tmp_path / "b"), "--annotators", str(tmp_path / "annotators.yaml")],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == ("error: indicifeval build review serve needs jinja2: "
                                   "pip install 'indicifeval[review]'"), done.stderr


@pytest.mark.parametrize("blocked", ["starlette", "uvicorn"])
def test_serve_without_its_packages_names_the_serve_extra(tmp_path, blocked):
    """`indicifeval serve` needs the server packages alone: `[serve]`, not the review app's extra."""
    done = subprocess.run([sys.executable, "-c", BLOCK.format(names={blocked}), "serve", "--port", "0"],
                          capture_output=True, text=True, env=_env(tmp_path), timeout=120)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == f"error: indicifeval serve needs {blocked}: pip install 'indicifeval[serve]'", \
        done.stderr
    from indicifeval.cli.common import missing_extra

    assert missing_extra("indicifeval build review serve", "starlette") == (
        "indicifeval build review serve needs starlette: pip install 'indicifeval[review]'")


def test_the_build_extra_installs_the_whole_build_half():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    build = extras["build"]
    named = {x for req in build if req.startswith("indicifeval[") for x in req[12:-1].split(",")}
    assert {"review", "parquet", "hub"} <= named
    from indicifeval.cli.build_review_cmd import REVIEW_MODULES
    from indicifeval.cli.common import EXTRAS

    assert all(EXTRAS[m] == "review" for m in REVIEW_MODULES)
    assert {EXTRAS["pyarrow"], EXTRAS["yaml"], EXTRAS["huggingface_hub"], EXTRAS["datasets"]} <= named | {"build"}


def test_the_test_extra_pulls_no_torch():
    """`pip install '.[test]'` (the README's second command) must not download torch (by default
    the CUDA build, several GB): nothing it names pulls it, here as installed (extras' own
    requirements left out); the tests that need torch, trl, lm-eval or Ray skip without them."""
    requirements = pytest.importorskip("packaging.requirements")
    from importlib import metadata

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    heavy = {"torch", "trl", "accelerate", "lm-eval", "lm_eval", "vllm", "ray", "indictranstoolkit"}
    todo = [(requirements.Requirement(r).name, "[test]") for r in extras["test"]]
    seen: dict[str, str] = {}
    while todo:
        name, via = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        seen[key] = via
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue  # not installed here: its own requirements cannot be read
        for line in requires:
            req = requirements.Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append((req.name, f"{via} -> {name}"))
    pulled = {name: seen[name] for name in heavy if name in seen}
    assert not pulled, pulled


def test_hub_errors_name_the_flag_of_the_command_at_hand(tmp_path, capsys, monkeypatch):
    pytest.importorskip("datasets")
    for var in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens there
    assert main(["build", "trans", str(tmp_path / "b"), "--lang", "hi", "--source", "hub", *MOCK]) == 1
    err = capsys.readouterr().err
    assert "--source DIR" in err and "--data" not in err, err
    assert main(["validate", "hub", "--out", str(tmp_path / "v.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "give DIR instead of 'hub'" in err and "--data" not in err, err


# -- files -------------------------------------------------------------------------------------

@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600)])
def test_outputs_follow_the_umask(tmp_path, umask, mode, monkeypatch):
    pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    old = os.umask(umask)
    try:
        assert main(["score", "--data", "sample", "--out", "scores", "--quiet"]) == 0
        assert main(["build", "trans", "b", "--lang", "hi", "--source", "sample", *MOCK, "--mock-answers", "fake:0",
                     "--quiet"]) == 0
        assert main(["build", "finalize", "b", "--out", "release", "--accept-unreviewed"]) == 0
        assert main(["build", "publish", "release"]) == 0
        assert main(["build", "report", "b", "--out", "build-report.html"]) == 0
        assert main(["validate", "b", "--quiet"]) in (0, 1)
    finally:
        os.umask(old)
    files = [p for p in tmp_path.rglob("*") if p.is_file() and not p.name.endswith(".lock")]
    published = {p.name for p in files if "hub" in p.parts}
    assert {"README.md", "hi-00000-of-00001.parquet"} <= published
    assert {"scores.jsonl", "rows.jsonl", "build-report.html"} <= {p.name for p in files}
    assert tmp_path / "b" / "validation.jsonl" in files  # a build folder's findings: in the folder
    wrong = {str(p.relative_to(tmp_path)): oct(stat.S_IMODE(p.stat().st_mode)) for p in files
             if stat.S_IMODE(p.stat().st_mode) != mode}
    assert wrong == {}


# -- batch imports -----------------------------------------------------------------------------

def _results(requests: Path, out: Path, errors: Path) -> None:
    """A provider's answer to the first 20 requests: every fifth an HTTP 500 in the error file,
    an answer for an id nobody asked for, and a junk line."""
    from indicifeval.runs.backends.fake_prompt_writer import FakePromptWriter

    writer = FakePromptWriter(0.0)
    good, bad = [], []
    for i, line in enumerate(requests.read_text(encoding="utf-8").splitlines()[:20]):
        request = json.loads(line)
        if i % 5 == 0:
            bad.append({"custom_id": request["custom_id"], "error": None, "response": {
                "status_code": 500, "body": {"error": {"message": "internal error"}}}})
            continue
        body = {"choices": [{"message": {"role": "assistant",
                                         "content": writer(request["body"]["messages"][-1]["content"])},
                             "finish_reason": "stop"}]}
        good.append({"custom_id": request["custom_id"], "response": {"status_code": 200, "body": body}})
    good.append({"custom_id": "nobody-asked", "response": {"status_code": 200, "body": body}})
    out.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in good) + "\n{junk\n", encoding="utf-8")
    errors.write_text("\n".join(json.dumps(x) for x in bad) + "\n", encoding="utf-8")


def test_batch_imports_are_reported_per_file_and_a_waiting_batch_is_pending(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))
    folder = tmp_path / "g"
    argv = ["build", "ground", str(folder), "--lang", "hi", "--corpus", "sample", "--executor", "serial",
            "--transport", "openai-batch", "--model", "writer", "--quiet"]
    assert main(argv) == 3
    assert "generate pending" in capsys.readouterr().out
    requests = folder / "ground" / "batch" / "openai-batch-requests-001.jsonl"
    out, errors = tmp_path / "out-1.jsonl", tmp_path / "errors-1.jsonl"
    _results(requests, out, errors)
    assert main(argv + ["--import", str(out), "--import", str(errors)]) == 3
    err = capsys.readouterr().err
    said = {line.split(": ", 2)[1].removeprefix("import "): line for line in err.splitlines()
            if line.startswith("generate: import ")}
    assert set(said) == {"out-1.jsonl", "errors-1.jsonl"}, err
    assert "16 replies" in said["out-1.jsonl"] and "1 junk line (line 18: malformed JSON" in said["out-1.jsonl"]
    assert "1 unknown id (not asked for: nobody-asked)" in said["out-1.jsonl"]
    assert "4 failed (HTTP 500: internal error ×4; asked again)" in said["errors-1.jsonl"]
    assert "junk" not in said["errors-1.jsonl"] and "unknown" not in said["errors-1.jsonl"]
    assert main(["build", "status", str(folder), "--json"]) == 0
    generate = {r["stage"]: r for r in json.loads(capsys.readouterr().out)["stages"]}["generate"]
    assert generate["status"] == "pending" and "replies are missing" in generate["note"]
    assert {k: generate["counts"][k] for k in ("files", "replies", "failed", "malformed", "unknown")} == {
        "files": 2, "replies": 16, "failed": 4, "malformed": 1, "unknown": 1}
    assert main(["build", "status", str(folder)]) == 0
    table = capsys.readouterr().out
    assert "generate  pending" in table and "failed" not in table.split("generate", 1)[1].split()[0]
    # a later import adds its file; the first files' counts are kept, not replaced by the last import's
    second = folder / "ground" / "batch" / "openai-batch-requests-002.jsonl"
    out2, errors2 = tmp_path / "out-2.jsonl", tmp_path / "errors-2.jsonl"
    _results(second, out2, errors2)
    assert main(argv + ["--import", str(out2)]) == 3
    capsys.readouterr()
    assert main(["build", "status", str(folder), "--json"]) == 0
    counts = {r["stage"]: r for r in json.loads(capsys.readouterr().out)["stages"]}["generate"]["counts"]
    assert counts["files"] == 3 and counts["malformed"] == 2 and counts["unknown"] == 2 and counts["replies"] == 32
    lines = [json.loads(x) for x in (folder / "ground/batch/imports.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [x["file"] for x in lines] == ["out-1.jsonl", "errors-1.jsonl", "out-2.jsonl"]


# -- the console -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("builds")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(root / ".cache"))  # where --corpus sample is written
        assert main(["build", "trans", str(root / "hi"), "--lang", "hi", "--source", "sample", *MOCK,
                     "--mock-answers", "fake:0.1", "--quiet"]) == 0
        assert main(["build", "ground", str(root / "hi-ground"), "--lang", "hi", "--corpus", "sample", "--executor",
                     "serial", "--backend", "mock", "--mock-answers", "fake:0.2", "--corpus-license", "Apache-2.0",
                     "--quiet"]) == 0
    return root


def test_the_stage_table_reads_at_80_columns(builds):
    from indicifeval.builder import BuildFolder
    from indicifeval.cli.build_common import status_table

    for name in ("hi", "hi-ground"):
        build = BuildFolder(builds / name)
        console = Console(width=80, record=True, color_system=None)
        console.print(status_table(builds / name, build.status_rows(), build.language))
        text = console.export_text()
        lines = text.splitlines()
        assert max(len(line) for line in lines) <= 80 and "…" not in text
        stages = [line.split()[0] for line in lines[3:] if line and not line.startswith(" ")]
        assert stages == [r["stage"] for r in build.status_rows()]  # one row per stage, its name whole
        width = len(max(stages, key=len))
        for line in lines[3:]:
            assert line[:width + 1].strip() in ("", *stages)  # the stage column is never a wrapped fragment


def test_a_pipe_gets_a_progress_line_every_few_seconds(tmp_path):
    done = subprocess.run([sys.executable, "-m", "indicifeval", "score", "--data", "sample", "--out",
                           str(tmp_path / "s")], capture_output=True, text=True, timeout=300,
                          env=_env(tmp_path, INDICIFEVAL_PROGRESS_EVERY="0"))
    assert done.returncode == 0
    progress = [line for line in done.stderr.splitlines() if line.startswith("scoring: ")]
    assert progress and re.fullmatch(r"scoring: \d+/416, [\d.]+/s, \d+ s", progress[-1]), done.stderr[-500:]
    quiet = subprocess.run([sys.executable, "-m", "indicifeval", "score", "--data", "sample", "--out",
                            str(tmp_path / "s2")], capture_output=True, text=True, timeout=300, env=_env(tmp_path))
    assert "scoring: " not in quiet.stderr  # the default interval: a short command prints none


def test_closing_lines_say_what_to_do_next(builds, tmp_path, capsys):
    hi, ground = str(builds / "hi"), str(builds / "hi-ground")
    assert main(["build", "finalize", hi, "--out", str(tmp_path / "r")]) == 1
    err = capsys.readouterr().err
    assert "--accept-unreviewed" in err and f"indicifeval build review serve {hi} --annotators" in err, err
    assert main(["build", "finalize", hi, ground, "--out", str(tmp_path / "r"), "--accept-unreviewed"]) == 0
    out = capsys.readouterr().out
    assert f"next: indicifeval build publish {tmp_path / 'r'}" in out
    assert "rows that need review were left out" in out and "build review serve" in out
    assert main(["build", "trans", str(tmp_path / "t"), "--lang", "hi", "--source", "sample", *MOCK,
                 "--until", "plan", "--quiet"]) == 0
    assert "the same command without --until goes on" in capsys.readouterr().out
    assert main(["score", "--data", "sample", "--out", str(tmp_path / "s"), "--quiet"]) == 0
    assert main(["score", "--data", "sample", "--out", str(tmp_path / "s"), "--overwrite"]) == 0
    assert f"next: indicifeval report {tmp_path / 's'} --out report" in capsys.readouterr().out


# -- the build report and the card ---------------------------------------------------------------

def test_the_build_report_names_builds_by_folder_and_has_no_script_error(builds, tmp_path):
    from indicifeval.builder.status import build_names
    from indicifeval.reports.build_report import write_build_report

    page = write_build_report([builds / "hi", builds / "hi-ground"], tmp_path / "report.html")
    text = page.read_text(encoding="utf-8")
    assert "2 build folders: hi (hi), hi-ground (hi)" in text
    assert build_names(["a/hi", "b/hi", "c/ta"]) == ["a/hi", "b/hi", "ta"]  # one name for two folders: the paths
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                    None)
    if chromium is None:
        pytest.skip("no Chromium or Chrome on PATH (Debian: apt-get install chromium) to run the page's script")
    done = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'p'}",
                           "--dump-dom", page.resolve().as_uri()], capture_output=True, text=True, timeout=180)
    assert re.search(r'<span id="js-errors">0</span>', done.stdout), done.stderr[-2000:]


def test_the_cards_agreement_table_names_each_build():
    from indicifeval.builder.release.card import _agreement

    def rows(language):
        estimate = {"value": 0.9, "low": 0.8, "high": 1.0}
        return {"rows": [{"language": lang, "question": "meaningful", "items_rated_twice": 4, "gwet_ac1": estimate}
                         for lang in (language, "all")]}

    info = {"builds": [{"folder": "hi", "language": "hi", "agreement": rows("hi")},
                       {"folder": "hi-ground", "language": "hi", "agreement": rows("hi")}]}
    table = [line for line in _agreement(info) if line.startswith("|")]
    assert table[0].startswith("| build | language | question |")
    body = [[c.strip() for c in line.strip("|").split("|")] for line in table[2:]]
    assert [(r[0], r[1]) for r in body] == [("hi", "hi"), ("hi", "all"), ("hi-ground", "hi"), ("hi-ground", "all")]
