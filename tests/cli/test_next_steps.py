"""Every "next step" a command prints is a command that works: it parses as written, and the
ones that can run here are run. `report` on a build, release or dataset folder says what that
folder is for instead of sending the user to `score --run`, which refuses it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from types import SimpleNamespace

import pytest

from indicifeval.cli import build_parser, main
from indicifeval.cli import next_steps as steps
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig, sample_answers

MOCK = ["--backend", "mock", "--model", "fake"]


def commands(text: str) -> list[list[str]]:
    """The argv of each command a hint names (not the ones it only mentions in `backticks`)."""
    found = []
    for piece in re.split(r"[,;()]| with | then | and ", text):
        match = re.search(r"(?<!`)\bindicifeval ([^`]+)$", piece.strip())
        if match:
            found.append(shlex.split(match.group(1)))
    return found


def parses(argv: list[str]) -> None:
    """As the command line would take it: a bad flag or a missing argument exits 2."""
    build_parser(argv[0]).parse_args(argv)


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    root = tmp_path_factory.mktemp("next")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(root / ".cache"))
        assert main(["build", "trans", str(root / "hi"), "--lang", "hi", "--source", "sample", *MOCK,
                     "--mock-answers", "fake:0.1", "--quiet"]) == 0
    return root / "hi"


def test_every_hint_parses_as_a_command(build, tmp_path):
    report = SimpleNamespace(unreviewed=3, disputed=["x"])
    hints = [steps.after_build(build, "validate", None, ["plan", "validate"], 2),
             steps.review_or_accept([build], 5),
             steps.after_finalize(report, [build], "release", False),
             steps.after_finalize(report, [build], "release", True),
             steps.after_publish(Path("release/hub"), False),
             steps.after_scores("out/sample"),
             steps.not_a_run(build)]
    argvs = [argv for hint in hints for argv in commands(hint or "")]
    assert {a[0] if a[0] != "build" else f"build {a[1]}" for a in argvs} >= {
        "build review", "build finalize", "build publish", "run", "report"}
    for argv in argvs:
        parses(argv)
    run = next(a for a in argvs if a[0] == "run")
    assert "--base-url" in run, run  # without it the openai backend stops at once


def test_report_on_a_build_folder_says_what_to_do_and_that_works(build, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["report", str(build)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "score --run" not in err, err
    assert f"indicifeval build report {build} --out build-report.html" in err, err
    said = commands(err.split("error: ", 1)[1])
    kinds = [a[:2] if a[0] == "build" else a[:1] for a in said]
    assert kinds == [["build", "report"], ["build", "finalize"], ["build", "publish"], ["run"], ["report"]], said
    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
        for argv in said:
            if argv[:2] == ["build", "finalize"]:
                argv = [*argv, "--accept-unreviewed"]  # no reviewer here: the hint names this way too
            argv = [server.url if a == "URL" else "m" if a == "MODEL" else a.replace("MODEL", "m") for a in argv]
            assert main([*argv, "--quiet"] if argv[0] in ("run", "report") else argv) == 0, argv
    assert json.loads((tmp_path / "runs/m/summary.json").read_text())["overall"]["prompts"] > 0
    assert (tmp_path / "report" / "report.html").is_file() and (tmp_path / "build-report.html").is_file()
    capsys.readouterr()
    for folder, what in (("release", "a release folder"), ("release/hub", "a dataset in the hub's layout"),
                         ("report", "a report folder")):
        assert main(["report", folder]) == 1
        err = capsys.readouterr().err
        assert what in err and "score --run" not in err, err
        for argv in commands(err.split("error: ", 1)[1]):
            parses(argv)


def test_loading_a_build_folder_as_a_run_names_what_made_it(build):
    from indicifeval.core.errors import InputError
    from indicifeval.reports.loading import load_run

    with pytest.raises(InputError, match=r"not a run or score folder \(`indicifeval build` made it\)") as err:
        load_run(build)
    assert "score --run" not in str(err.value)
