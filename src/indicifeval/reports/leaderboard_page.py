"""The leaderboard as a static site: ``index.html`` with its data embedded (it opens from
``file://``, where a page may not fetch files, and from any static host), and
``leaderboard.json``, the same data for programs. The page's script and stylesheet
(``assets/leaderboard.js``, ``assets/leaderboard.css``) are inlined, with the report's font
stack (Noto for every script, ``fonts.css_font_stack``) and its error trap."""

from __future__ import annotations

import json
import time
from pathlib import Path

from indicifeval._version import __version__
from indicifeval.core.files import write_text
from indicifeval.core.folders import claim, write_manifest
from indicifeval.core.modes import ScoringMode
from indicifeval.reports.fonts import css_font_stack
from indicifeval.reports.html import asset
from indicifeval.reports.html_samples import json_for_script
from indicifeval.reports.html_tables import esc

PAGE, DATA = "index.html", "leaderboard.json"


def render_page(data: dict) -> str:
    runs = sum(1 for m in data["models"] if m["kind"] == "run")
    paper = len(data["models"]) - runs
    lede = f"{runs} model{'s' if runs != 1 else ''}" + (f" and {paper} reported by the paper (not re-run)"
                                                        if paper else "")
    notes = "".join(f"<li>{esc(text)}</li>" for text in data["notes"].values())
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; '
        'script-src \'unsafe-inline\'; img-src data:">\n'
        '<link rel="icon" href="data:,">\n<title>IndicIFEval leaderboard</title>\n'
        f"<style>:root{{--report-fonts:{css_font_stack()}}}\n{asset('leaderboard.css')}</style>\n"
        f"<script>{asset('error-trap.js')}</script>\n</head>\n<body>\n"
        '<header class="top"><h1>IndicIFEval leaderboard</h1>'
        f'<p class="lede">{esc(lede)}; verifiable instruction following in {len(data["languages"])} languages. '
        "Click a column to sort, a model for where its numbers come from.</p></header>\n"
        '<form class="controls" id="controls" onsubmit="return false">'
        '<label>Level <select id="f-level"><option value="prompt">prompt-level</option>'
        '<option value="inst">instruction-level</option></select></label>'
        '<label>Subset <select id="f-subset"><option value="">all</option></select></label>'
        '<label>Language <select id="f-lang"><option value="">all</option></select></label>'
        '<label>Strict/loose <select id="f-kind"><option value="">both</option><option value="strict">strict'
        '</option><option value="loose">loose</option></select></label>'
        '<label>Model <input id="f-q" type="search" placeholder="filter by name" autocomplete="off"></label>'
        '<label class="check"><input id="f-paper" type="checkbox" checked> paper rows</label>'
        '<span id="shown" class="muted"></span></form>\n'
        '<main><div class="scroll"><table id="board" class="board"><thead></thead><tbody></tbody></table></div>'
        f'<ul class="notes">{notes}</ul></main>\n'
        '<aside id="prov" class="prov" hidden aria-live="polite"><button type="button" id="prov-close" '
        'aria-label="close">×</button><h2 id="prov-title"></h2><div id="prov-body"></div></aside>\n'
        '<footer><p>Made by indicifeval (<code>indicifeval leaderboard</code>); the numbers are also in '
        f'<code>{DATA}</code> (fractions, 0–1). Script errors on this page: <span id="js-errors">not run</span>.'
        "</p></footer>\n"
        f'<script type="application/json" id="leaderboard-data">{json_for_script(data)}</script>\n'
        f"<script>{asset('leaderboard.js')}</script>\n</body>\n</html>\n"
    )


def write_site(data: dict, out: str | Path) -> list[Path]:
    """``index.html`` and ``leaderboard.json`` in ``out`` (created)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    page, raw = out / PAGE, out / DATA
    write_text(page, render_page(data))
    write_text(raw, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return [page, raw]


def write_leaderboard(folders: list[str | Path], out: str | Path, *, seed: int = 0, n_boot: int = 1000,
                      paper_rows: bool = False, scoring: ScoringMode | str | None = None,
                      mixed_scoring: bool = False, overwrite: bool = False) -> tuple[dict, list[Path]]:
    """Read the runs and write the site to ``out`` (a folder another tool made is refused; an
    earlier leaderboard is replaced). Its manifest names the runs by folder name only: the site
    is meant to be published, and holds no local path."""
    from indicifeval.reports.leaderboard import leaderboard
    from indicifeval.reports.loading import load_runs

    claim(out, "leaderboard", overwrite)
    runs = load_runs(list(folders), scoring=None if scoring is None else ScoringMode(scoring),
                     mixed_scoring=mixed_scoring)
    data = leaderboard(runs, seed=seed, n_boot=n_boot, paper_rows=paper_rows)
    files = write_site(data, out)
    write_manifest(out, {"tool": "leaderboard", "format_version": 1, "indicifeval_version": __version__,
                         "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                         "runs": [Path(f).name for f in folders], "seed": seed, "bootstrap": n_boot,
                         "paper_rows": paper_rows, "files": [f.name for f in files]})
    return data, files


__all__ = ["DATA", "PAGE", "render_page", "write_leaderboard", "write_site"]
