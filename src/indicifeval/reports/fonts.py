"""Fonts for plots with Indic text.

Matplotlib (3.11 bundles libraqm) shapes Indic scripts correctly, but only when it is given a
font for each script: its bundled DejaVu Sans has no Indic glyphs and draws empty boxes
("tofu"). :data:`FONT_FALLBACK` lists one Noto family per script we write; matplotlib picks,
glyph by glyph, the first family of the list that has the glyph. Debian/Ubuntu ship all of them
in ``fonts-noto-core``.

Which scripts matter is not decided here: :func:`missing_scripts` checks the native name of
every language profile (``indicifeval.languages``) against the installed fonts, so a language
added as a profile is checked without touching this file.
"""

from __future__ import annotations

import os
import unicodedata
import warnings
from functools import lru_cache

INSTALL_HINT = ("install the Noto fonts, e.g. `apt-get install fonts-noto-core` on Debian/Ubuntu "
                "(or the Noto Sans <Script> families from https://notofonts.github.io)")

# Latin first (digits, punctuation, run names), then one family per Indic script, Urdu's
# Arabic script (Naskh reads best at label sizes; Nastaliq and Noto Sans Arabic are
# alternatives), and DejaVu Sans, matplotlib's bundled font, last so there is always a font.
FONT_FALLBACK: tuple[str, ...] = (
    "Noto Sans",
    "Noto Sans Devanagari",
    "Noto Sans Bengali",
    "Noto Sans Gujarati",
    "Noto Sans Gurmukhi",
    "Noto Sans Oriya",
    "Noto Sans Odia",  # the newer name of the same family
    "Noto Sans Tamil",
    "Noto Sans Telugu",
    "Noto Sans Kannada",
    "Noto Sans Malayalam",
    "Noto Naskh Arabic",
    "Noto Nastaliq Urdu",
    "Noto Sans Arabic",
    "DejaVu Sans",
)
BASE_FAMILIES = ("Noto Sans", "DejaVu Sans")  # not script fonts: never reported as missing

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
            except Exception:  # an unreadable file: skip it
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
    files = _family_files()
    return [files[f] for f in (installed_fonts() if families is None else families) if f in files]


@lru_cache(maxsize=None)
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


def configure_matplotlib() -> list[str]:
    """Set ``rcParams["font.family"]`` to the installed fallback list and return it.

    Warns once per process, naming the languages that would show tofu and how to install the
    fonts, when some script has no installed font."""
    global _warned
    import matplotlib

    families = installed_fonts()
    matplotlib.rcParams["font.family"] = families
    gaps = missing_scripts(families)
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
