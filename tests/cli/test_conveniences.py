"""What a new user expects: `python -m`, help with defaults, uncut listings in pipes, the
paper's Indic average, and a Python API whose exports tools can see."""

import argparse
import json
import re
import subprocess
import sys

import pytest

import indicifeval
from indicifeval.cli import build_parser, main
from indicifeval.cli.common import says_nothing


def _subparsers(parser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.items()


def _every_parser(parser, prefix=""):
    """Every command's parser, and every verb's under it (``build trans``, ``build review serve``)."""
    for name, sub in _subparsers(parser):
        yield f"{prefix}{name}", sub
        yield from _every_parser(sub, f"{prefix}{name} ")


def test_python_dash_m():
    done = subprocess.run([sys.executable, "-m", "indicifeval", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("indicifeval ")


def test_every_flag_has_help_and_every_help_shows_its_default():
    parser = build_parser()
    for name, sub in _subparsers(parser):
        text = " ".join(sub.format_help().split())  # help is wrapped: compare words
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
            default = action.default
            if action.option_strings and not says_nothing(default):
                assert f"default: {default}" in text or "default" in action.help.lower(), \
                    f"{name} {action.option_strings[0]} hides its default {default!r}"
        assert "usage:" in text


def test_no_help_prints_an_empty_default():
    """``(default: )``, ``(default: [])``: an empty text or list as a default tells nothing."""
    names = []
    for name, sub in _every_parser(build_parser()):
        names.append(name)
        text = " ".join(sub.format_help().split())
        empty = re.findall(r"\(default: (?:|''|\(\)|\[\]|\{\}|None)\)", text)
        assert not empty, f"indicifeval {name} --help: {empty}"
    assert {"validate", "export", "build trans", "build ground", "build review serve"} <= set(names)
    assert says_nothing("") and says_nothing(()) and says_nothing([]) and not says_nothing(0)


@pytest.mark.parametrize("command", ["instructions", "languages"])
def test_listings_are_not_cut_in_a_pipe(command):
    done = subprocess.run([sys.executable, "-m", "indicifeval", command], capture_output=True, text=True)
    assert done.returncode == 0 and "…" not in done.stdout
    if command == "instructions":
        assert "detectable_format:number_highlighted_sections" in done.stdout
        assert "capital_frequency, capital_relation" in done.stdout


def test_summary_carries_the_indic_average_without_english(tmp_path):
    assert main(["score", "--data", "sample", "--out", str(tmp_path), "--quiet"]) == 0
    summary = json.loads((tmp_path / "summary.json").read_text())
    indic = summary["indic"]
    assert "en" not in indic["languages"] and len(indic["languages"]) == 14
    per = summary["per_language_subset"]
    trans = [per[f"{c}/trans"]["prompt_level_loose_acc"] for c in indic["languages"]]
    assert indic["average"]["trans"]["prompt_level_loose_acc"] == pytest.approx(sum(trans) / 14)
    assert indic["average"]["trans"]["languages"] == 14
    assert indic["pooled"]["prompts"] == summary["overall"]["prompts"] - per["en/trans"]["prompts"]
    english = sum(block["instructions"] for block in indic["per_category"].values())
    assert english == summary["overall"]["instructions"] - per["en/trans"]["instructions"]


def test_the_printed_table_shows_the_indic_average(capsys, tmp_path):
    assert main(["score", "--data", "sample", "--out", str(tmp_path)]) == 0
    assert "Indic avg/trans" in capsys.readouterr().out


def test_api_exports_are_visible():
    names = dir(indicifeval)
    for name in ("score", "run", "report", "load_rows", "ModelSpec", "DataOptions", "InputError"):
        assert name in names and name in indicifeval.__all__
    from indicifeval import report, run

    assert callable(run) and callable(report)
    with pytest.raises(AttributeError):
        indicifeval.no_such_thing  # noqa: B018


def test_user_docs_stand_alone():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text and "authors-scorer-behaviour" not in text, doc.name
