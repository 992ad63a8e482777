"""What some report tests need from the machine, not from Python: Indic fonts (Noto) for figure
and page layouts measured with real glyphs. Without them those tests skip, saying what to
install, instead of failing on metrics of fallback fonts (DejaVu, empty boxes)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess

import pytest

FONT_HINT = ("install the Noto fonts (Debian/Ubuntu: apt-get install fonts-noto-core; `.ci/run` does), "
             "or see https://notofonts.github.io")
PROBE_LANGUAGES = ("hi", "bn", "ta", "te", "ml", "kn", "gu", "pa", "or", "ur")  # a script each


def missing_indic_fonts() -> list[str]:
    """The Indic languages no installed font draws: by matplotlib's font files where it is
    installed (what the figures use), else by fontconfig (what Chromium uses)."""
    if importlib.util.find_spec("matplotlib") is not None:
        from indicifeval.reports import fonts

        return sorted(fonts.missing_scripts())
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return list(PROBE_LANGUAGES)  # nothing can tell: take them as missing
    return [code for code in PROBE_LANGUAGES
            if not subprocess.run([fc_list, f":lang={code}", "family"], capture_output=True, text=True).stdout.strip()]


def require_indic_fonts() -> None:
    missing = missing_indic_fonts()
    if missing:
        pytest.skip(f"no installed font draws {', '.join(missing)}: {FONT_HINT}")
