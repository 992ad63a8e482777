"""Fonts for plots and the HTML page with Indic text, from data: ``languages/scripts.json``
names the font families of each script (``indicifeval.languages.script_fonts``), so a new
script's font is added there, once, for both.

Matplotlib (3.11 bundles libraqm) shapes Indic scripts correctly, but only when it is given a
font for each script: its bundled DejaVu Sans has no Indic glyphs and draws empty boxes
("tofu"). :data:`FONT_FALLBACK` lists the families of every script; matplotlib picks, glyph by
glyph, the first family of the list that has the glyph. Debian/Ubuntu ship all of them in
``fonts-noto-core``. The page's CSS stack (:func:`css_font_stack`) lists the same families
between the browsers' generic ones.

Which scripts matter is not decided here: :func:`missing_scripts` checks the native name of
every language profile (``indicifeval.languages``) against the installed fonts, so a language
added as a profile is checked without touching this file.
"""

from __future__ import annotations

import os
import unicodedata
import warnings
from functools import cache
from typing import ClassVar

from indicifeval.languages import script_fonts

INSTALL_HINT = ("install the Noto fonts, e.g. `apt-get install fonts-noto-core` on Debian/Ubuntu "
                "(or the Noto Sans <Script> families from https://notofonts.github.io)")

LATIN = "Latn"  # digits, punctuation, run names: the script every figure and page starts with
BUNDLED = "DejaVu Sans"  # matplotlib's own font: last, so there is always one


def script_families() -> tuple[str, ...]:
    """Every script's font families (scripts.json order: Latin first), each once."""
    return tuple(dict.fromkeys(f for families in script_fonts().values() for f in families))


FONT_FALLBACK: tuple[str, ...] = (*script_families(), BUNDLED)
BASE_FAMILIES = (*script_fonts().get(LATIN, ()), BUNDLED)  # not script fonts: never reported as missing

# The browsers' own interface fonts before the script fonts, and the generic fallbacks after
# them ("Nirmala UI": Windows' font for every Indic script).
CSS_BEFORE = ("system-ui", "-apple-system", "Segoe UI", "Roboto")
CSS_AFTER = ("Nirmala UI", "Helvetica Neue", "Arial", "sans-serif")
CSS_GENERIC = {"system-ui", "-apple-system", "sans-serif", "serif", "monospace"}


def css_font_stack() -> str:
    """The HTML report's ``font-family`` value: generic fonts around every script's families."""
    families = dict.fromkeys((*CSS_BEFORE, *script_families(), *CSS_AFTER))
    return ", ".join(f if f in CSS_GENERIC else f'"{f}"' for f in families)


_IGNORED_CATEGORIES = {"Cc", "Cf", "Zs", "Zl", "Zp"}  # controls, joiners, spaces: no visible glyph
_warned = False
_rescanned = False


def _font_manager():
    from matplotlib import font_manager

    return font_manager


def _family_files() -> dict[str, str]:
    """Installed family name -> the file of its regular face (closest to weight 400, upright)."""
    best: dict[str, tuple[tuple, str]] = {}
    for entry in _font_manager().fontManager.ttflist:
        weight = entry.weight if isinstance(entry.weight, int) else 400
        rank = (entry.style != "normal", entry.stretch != "normal", abs(weight - 400), entry.fname)
        if entry.name not in best or rank < best[entry.name][0]:
            best[entry.name] = (rank, entry.fname)
    return {name: fname for name, (_, fname) in best.items()}


def _rescan_system_fonts(wanted: list[str]) -> bool:
    """Matplotlib caches its font list: fonts installed after the cache was written are
    invisible to it. Add system font files that look like the wanted families; True if any."""
    fm = _font_manager()
    stems = {w.replace(" ", "").lower() for w in wanted}
    added = False
    for path in fm.findSystemFonts():
        stem = os.path.basename(path).split("-")[0].split(".")[0].lower()
        if stem in stems:
            try:
                fm.fontManager.addfont(path)
                added = True
            except Exception:  # noqa: BLE001, S112  an unreadable file (any error of the font library): skip it
                continue
    return added


def installed_fonts() -> list[str]:
    """The families of :data:`FONT_FALLBACK` that matplotlib can find, in fallback order."""
    global _rescanned
    files = _family_files()
    missing = [f for f in FONT_FALLBACK if f not in files]
    if missing and not _rescanned:
        _rescanned = True
        if _rescan_system_fonts(missing):
            files = _family_files()
    return [f for f in FONT_FALLBACK if f in files]


def font_files(families: list[str] | None = None) -> list[str]:
    """The regular font file of each family (default: the installed fallback list)."""
    wanted = installed_fonts() if families is None else families  # first: it may rescan the system fonts
    files = _family_files()
    return [files[f] for f in wanted if f in files]


@cache
def _font(path: str):
    from matplotlib.ft2font import FT2Font

    return FT2Font(path)


def missing_glyphs(text: str, families: list[str] | None = None) -> set[str]:
    """Characters of ``text`` that no font of the fallback list (default: the installed part of
    :data:`FONT_FALLBACK`, what :func:`configure_matplotlib` sets) has a glyph for.

    Spaces, controls and format characters (ZWJ, ZWNJ) are left out: the shaper consumes them."""
    fonts = [_font(p) for p in font_files(families)]
    out = set()
    for ch in set(text):
        if unicodedata.category(ch) in _IGNORED_CATEGORIES:
            continue
        if not any(f.get_char_index(ord(ch)) for f in fonts):
            out.add(ch)
    return out


def language_samples() -> dict[str, str]:
    """Language code -> its native name, from the language profiles: a sample of each script."""
    from indicifeval.languages import get_profile, list_languages

    return {code: get_profile(code).native_name for code in list_languages()}


def missing_scripts(families: list[str] | None = None) -> dict[str, set[str]]:
    """Language code -> the characters of its native name no installed font draws (only the
    languages with some)."""
    out = {}
    for code, sample in language_samples().items():
        missing = missing_glyphs(sample, families)
        if missing:
            out[code] = missing
    return out


def configure_matplotlib(warn: bool = True) -> list[str]:
    """Set ``rcParams["font.family"]`` to the installed fallback list and return it.

    Warns once per process, naming the languages that would show tofu and how to install the
    fonts, when some script has no installed font (unless ``warn`` is false: the plots report
    what they actually miss, :func:`missing_fonts_note`)."""
    global _warned
    import matplotlib

    families = installed_fonts()
    matplotlib.rcParams["font.family"] = families
    gaps = missing_scripts(families) if warn else {}
    if gaps and not _warned:
        _warned = True
        absent = [f for f in FONT_FALLBACK if f not in families and f not in BASE_FAMILIES]
        warnings.warn(
            f"no installed font draws the script of {', '.join(sorted(gaps))}: plot labels in these languages "
            f"will show empty boxes. Missing font families: {', '.join(absent)}. To fix, {INSTALL_HINT}; "
            f"then delete matplotlib's font cache (fontlist-*.json in matplotlib.get_cachedir()) if they are "
            f"still not found.",
            UserWarning,
            stacklevel=2,
        )
    return families


# -- while writing the plots ----------------------------------------------------------------------
# matplotlib warns once per missing glyph ("Glyph 2344 (...) missing from font(s) DejaVu Sans."):
# about 80 lines for the native language names without Noto fonts. The plots filter exactly these
# (nothing else) and say it once, with what to install.
GLYPH_WARNING = r"Glyph \d+ .*missing from font"


def _script(ch: str) -> str:
    """The Unicode script of a character, from its name ('DEVANAGARI LETTER NA' -> 'Devanagari')."""
    return unicodedata.name(ch, "").split(" ")[0].title()


def missing_fonts_note(chars: set[str]) -> str | None:
    """One line for the report's notes naming what to install, given the characters the figures
    needed and no installed font draws (None when there are none)."""
    indic = {_script(c) for sample in language_samples().values() for c in sample} - {"Latin", ""}
    scripts = sorted({_script(c) for c in chars} & indic)
    others = sorted(c for c in chars if _script(c) not in indic)
    parts = []
    if scripts:
        parts.append(f"Indic text in plots needs Noto fonts: install fonts-noto-core (Debian/Ubuntu) or Google's "
                     f"Noto Sans fonts for {', '.join(scripts)} (https://notofonts.github.io); without them the "
                     f"figures show these scripts as empty boxes")
    if others:
        parts.append(f"no installed font draws {' '.join(others[:20])}{' …' if len(others) > 20 else ''} "
                     f"(empty boxes in the figures)")
    return "; ".join(parts) or None


class PlotFonts:
    """The full fallback list, and the short Latin one figures start with: laying out a text
    looks up every family of its list, so numbers and run names are much faster with two.
    A text the Latin fonts cannot draw (a native name) gets only the families that draw its
    characters, in fallback order: each character still comes from the first family of the
    full list that has it, and the lookups per text stay few. Collects the characters that
    even the full list cannot draw, for :func:`missing_fonts_note`."""

    full: ClassVar[list[str]] = []
    latin: ClassVar[list[str]] = []
    families: ClassVar[dict[str, list[str] | None]] = {}  # text -> its families (None: the Latin ones)
    missing: ClassVar[set[str]] = set()

    @classmethod
    def setup(cls, full: list[str]) -> None:
        cls.full = list(full)
        cls.latin = [f for f in full if f in BASE_FAMILIES] or list(full)
        cls.families, cls.missing = {}, set()

    @classmethod
    def _families_of(cls, s: str) -> list[str] | None:
        if not missing_glyphs(s, cls.latin):
            return None
        gaps = missing_glyphs(s, cls.full)
        if gaps:  # drawn as boxes: the full list, as matplotlib would pick from it
            cls.missing |= gaps
            return cls.full
        files = _family_files()
        fonts = [(f, _font(files[f])) for f in cls.full if f in files]
        used = {cls.full[0]}
        for ch in set(s):
            used.add(next((f for f, font in fonts if font.get_char_index(ord(ch))), cls.full[0]))
        return [f for f in cls.full if f in used]

    @classmethod
    def families_of(cls, s: str) -> list[str]:
        """The families text ``s`` is drawn with."""
        if s not in cls.families:
            cls.families[s] = cls._families_of(s)
        return cls.families[s] or cls.latin

    @classmethod
    def widen(cls, fig) -> None:
        """Give every text the Latin fonts cannot draw (native names) the families it needs."""
        from matplotlib.text import Text

        for text in fig.findobj(Text):
            s = text.get_text()
            if s and cls.families_of(s) is not cls.latin:
                text.set_fontfamily(cls.families[s])
