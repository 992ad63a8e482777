"""The report's figures inline in the page: each SVG's markup made safe to embed (no scripts,
handlers or clashing ids), else the PNG as a data URI, at its natural size, captioned by the
analysis that declares it, in the report's order."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Sequence
from pathlib import Path

from indicifeval.reports.html_tables import esc
from indicifeval.reports.registry import registered_figures

Shown = tuple[str, str, str, "float | None"]  # stem, caption, markup, CSS width in px

_SVG_DROP = [
    re.compile(r"<\?xml[^>]*\?>", re.DOTALL),
    re.compile(r"<!DOCTYPE[^>]*>", re.DOTALL | re.IGNORECASE),
    re.compile(r"<!--.*?-->", re.DOTALL),
    re.compile(r"<script\b.*?</script\s*>", re.DOTALL | re.IGNORECASE),
    re.compile(r"<metadata\b.*?</metadata\s*>", re.DOTALL | re.IGNORECASE),
]


def inline_svg(text: str, prefix: str) -> str:
    """An SVG file's markup for inlining: declarations, comments, scripts and metadata dropped,
    ids prefixed (so figures cannot clash), sized by CSS from its viewBox."""
    for pattern in _SVG_DROP:
        text = pattern.sub("", text)
    text = re.sub(r'\son\w+\s*=\s*"[^"]*"', "", text)  # no event handlers
    ids = set(re.findall(r'\sid="([^"]+)"', text))
    if ids:
        text = re.sub(r'(\sid=")([^"]+)"', lambda m: f'{m.group(1)}{prefix}{m.group(2)}"', text)
        text = re.sub(r'((?:xlink:)?href=")#([^"]+)"',
                      lambda m: f'{m.group(1)}#{prefix}{m.group(2)}"' if m.group(2) in ids else m.group(0), text)
        text = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{prefix}{m.group(1)})" if m.group(1) in ids else m.group(0),
                      text)
    start = text.find("<svg")
    if start < 0:
        return ""
    text = text[start:].strip()
    return re.sub(r"^<svg\b", '<svg role="img" focusable="false"', text, count=1)


def _caption(stem: str, svg: str | None, runs: list[str]) -> str:
    """The caption its analysis gives the figure (a per-run figure's names its run); for a figure
    no analysis declares, the SVG's title or the file name."""
    for _, figure in registered_figures():
        if figure.names(stem):
            run = figure.run_of(stem, runs)
            return figure.caption if run is None else f"{figure.caption} Run: {run}."
    if svg:
        m = re.search(r"<title>([^<]{3,200})</title>", svg)
        if m:
            return html.unescape(m.group(1)).strip()
    return stem.replace("_", " ").replace("-", " ").strip().capitalize()


_UNITS_PX = {"pt": 96 / 72, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "": 1.0}


def _svg_width_px(svg: str) -> float | None:
    m = re.search(r'<svg\b[^>]*?\swidth="([\d.]+)(pt|px|in|cm|mm|)"', svg)
    return float(m.group(1)) * _UNITS_PX[m.group(2)] if m else None


def _png_width_px(data: bytes) -> float | None:
    """The CSS width of a PNG: its pixels at the resolution it records (pHYs), else at 2x."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width = int.from_bytes(data[16:20], "big")
    dpi = 192.0
    at = data.find(b"pHYs", 8, 4096)
    if at > 0 and data[at + 12] == 1:  # unit: metre
        ppm = int.from_bytes(data[at + 4:at + 8], "big")
        if ppm > 0:
            dpi = ppm * 0.0254
    return width * 96 / dpi


def collect_figures(figures: Sequence[str | Path], runs: list[str] | None = None) -> list[Shown]:
    """(stem, caption, markup) per figure, one per stem: the SVG inline when there is one, else the PNG."""
    by_stem: dict[str, dict[str, Path]] = {}
    for f in figures:
        p = Path(f)
        if p.suffix.lower() in (".svg", ".png") and p.is_file():
            by_stem.setdefault(p.stem, {})[p.suffix.lower()] = p
    order = [figure for _, figure in registered_figures()]

    def rank(stem: str) -> int:  # the report's order: figures of earlier analyses first
        return next((k for k, figure in enumerate(order) if figure.names(stem)), len(order))

    out = []
    for i, (stem, files) in enumerate(sorted(by_stem.items(), key=lambda item: rank(item[0]))):
        svg_text = None
        markup, width = "", None
        if ".svg" in files:
            svg_text = files[".svg"].read_text(encoding="utf-8", errors="replace")
            markup = inline_svg(svg_text, f"f{i}-")
            width = _svg_width_px(markup) if markup else None
        caption = _caption(stem, svg_text, runs or [])
        if not markup and ".png" in files:
            raw = files[".png"].read_bytes()
            width = _png_width_px(raw)
            markup = f'<img src="data:image/png;base64,{base64.b64encode(raw).decode("ascii")}" alt="{esc(caption)}">'
        if markup:
            out.append((stem, caption, markup, width))
    return out


def figures_section(figs: list[Shown]) -> str:
    """Figures at their natural size (never wider than the page), side by side where they fit."""
    if not figs:
        return ""
    items = "".join(
        f'<figure id="fig-{esc(stem)}"' + (f' style="width:{max(width, 320) + 22:.0f}px"' if width else "") + '>'
        f'<div class="fig">{markup}</div>'
        f"<figcaption><strong>Figure {i}.</strong> {esc(caption)}</figcaption></figure>"
        for i, (stem, caption, markup, width) in enumerate(figs, start=1)
    )
    return f'<section id="figures"><h2>Figures</h2><div class="figures">{items}</div></section>'


