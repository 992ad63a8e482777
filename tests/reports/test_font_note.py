"""Without Indic fonts a report says once what to install (a note, printed by the CLI and shown
in report.html) instead of matplotlib's warning per missing glyph; other warnings still pass."""

from __future__ import annotations

import warnings

import pytest

from indicifeval.reports import api, figures, fonts, registry
from indicifeval.reports.model import Report
from indicifeval.reports.registry import Analysis, Figure
from tests.reports.test_analyses import _write_run

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    return [_write_run(root / "a", "org/Model-7B-Instruct", False, {"en": 10, "hi": 5, "ta": 8, "ground": 3})]


@pytest.fixture
def no_indic_fonts(monkeypatch):
    """What a machine without Noto fonts has: matplotlib's bundled DejaVu Sans only."""
    monkeypatch.setattr(fonts, "installed_fonts", lambda: ["DejaVu Sans"])
    monkeypatch.setattr(fonts, "_warned", False)


def _font_notes(report: Report) -> list[str]:
    return [n for n in report.notes if "font" in n.lower()]


def test_one_note_and_no_glyph_warnings(runs, tmp_path, no_indic_fonts):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rep = api.report(runs, tmp_path / "report", n_boot=20)
    messages = [str(w.message) for w in caught]
    assert [m for m in messages if "missing from font" in m] == []
    assert [m for m in messages if "font" in m.lower()] == []  # said once, in the note
    notes = _font_notes(rep)
    assert len(notes) == 1, rep.notes
    note = notes[0]
    assert note.startswith("Indic text in plots needs Noto fonts: install fonts-noto-core (Debian/Ubuntu)")
    for script in ("Devanagari", "Bengali", "Tamil", "Oriya"):  # the native names of hi, bn, ta, or
        assert script in note
    assert note in (tmp_path / "report" / "report.html").read_text(encoding="utf-8").replace("&#x27;", "'")


def test_the_command_prints_the_note_once(runs, tmp_path, no_indic_fonts, capsys):
    from indicifeval.cli import main

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["report", str(runs[0]), "--out", str(tmp_path / "report"), "--bootstrap", "20", "--no-html"]) == 0
    err = capsys.readouterr().err
    assert err.count("Indic text in plots needs Noto fonts") == 1 and "missing from font" not in err
    assert not [w for w in caught if "font" in str(w.message).lower()]


def test_note_is_not_repeated_and_filters_are_restored(runs, tmp_path, no_indic_fonts):
    rep = api.build_report(runs, n_boot=20)
    small = Report(rep.metric, rep.runs, {"trans_languages": rep.tables["trans_languages"]}, [], 0, 0, rep.notes)
    before = list(warnings.filters)
    figures.write_plots(small, tmp_path / "a")
    figures.write_plots(small, tmp_path / "b")
    assert len(_font_notes(small)) == 1
    assert warnings.filters == before  # the glyph filter lasted as long as the plots only


def test_other_warnings_still_pass(runs, tmp_path, no_indic_fonts, monkeypatch):
    def figure(report, table):
        warnings.warn("something else went wrong", UserWarning, stacklevel=2)

    import indicifeval.reports.units  # noqa: F401  the built-in analyses first: none registers into the stand-in
    unit = Analysis("warns", "W", "what", "how", lambda ctx: None, figures=[Figure("warns", "caption", figure)])
    monkeypatch.setattr(registry, "ANALYSES", {"warns": unit})  # this figure alone
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figures.write_plots(Report("prompt_loose", [], {}, [], 0, 0), tmp_path)
    assert [str(w.message) for w in caught] == ["something else went wrong"]


def test_no_note_with_the_fonts_installed(runs, tmp_path):
    if fonts.missing_scripts():
        pytest.skip(f"Indic fonts are not installed: {fonts.INSTALL_HINT}")
    rep = api.build_report(runs, n_boot=20)
    small = Report(rep.metric, rep.runs, {"trans_languages": rep.tables["trans_languages"]}, [], 0, 0, rep.notes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figures.write_plots(small, tmp_path)
    assert _font_notes(small) == [] and not [w for w in caught if "font" in str(w.message).lower()]


def test_note_names_scripts_and_other_characters():
    assert fonts.missing_fonts_note(set()) is None
    note = fonts.missing_fonts_note({"न", "ம"})
    assert "Devanagari, Tamil" in note and "Latin" not in note
    assert "\u0378" in fonts.missing_fonts_note({"\u0378"})  # not an Indic script: named as it is
