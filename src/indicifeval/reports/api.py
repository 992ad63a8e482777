"""``indicifeval.report(run_dirs, ...)``: every analysis over a set of runs, written as
Markdown, CSV, JSON, plots (PNG and SVG) and one self-contained HTML file."""

from __future__ import annotations

from pathlib import Path

from indicifeval.reports.analyses import METRIC_NAMES, Analyses, all_tables
from indicifeval.reports.families import load_family_map
from indicifeval.reports.loading import RunData, load_runs
from indicifeval.reports.model import Report
from indicifeval.reports.writers import write_tables

METRICS = tuple(METRIC_NAMES)


def _samples(runs: list[RunData]) -> list[dict]:
    out = []
    for run in runs:
        for s in run.scores:
            uid = (s["language"], s["subset"], s["key"])
            row, gen = run.rows.get(uid, {}), run.generations.get(uid, {})
            out.append({
                "run": run.info.name, "language": s["language"], "subset": s["subset"], "key": s["key"],
                "prompt": row.get("prompt"), "answer": gen.get("answer"), "reasoning": gen.get("reasoning"),
                "finish_reason": gen.get("finish_reason"), "instruction_id_list": s["instruction_id_list"],
                "strict": s["strict"], "loose": s["loose"], "explanations": s.get("explanations", []),
                "prompt_strict": s["prompt_strict"], "prompt_loose": s["prompt_loose"],
            })
    return out


def build_report(
    run_dirs: list[str | Path],
    metric: str = "prompt_loose",
    *,
    seed: int = 0,
    n_boot: int = 1000,
    family_map: str | Path | None = None,
    include_paper: bool = True,
) -> Report:
    runs = load_runs(list(run_dirs), load_family_map(family_map))
    analyses = Analyses(runs, metric, seed=seed, n_boot=n_boot)
    tables = all_tables(analyses, include_paper=include_paper)
    notes = [analyses.subset_note]
    modes = {r.info.scoring for r in runs}
    if len(modes) > 1:
        notes.append(f"runs were scored in different modes ({', '.join(sorted(modes))}): re-score them alike "
                     f"with `indicifeval score --run DIR --scoring MODE`")
    if not analyses.thinking_pairs():
        notes.append("no thinking/non-thinking pair among these runs (same model and settings, thinking on vs off)")
    return Report(metric, [r.info for r in runs], tables, _samples(runs), seed, n_boot, notes)


def report(
    run_dirs: list[str | Path],
    out: str | Path,
    metric: str = "prompt_loose",
    *,
    seed: int = 0,
    n_boot: int = 1000,
    family_map: str | Path | None = None,
    include_paper: bool = True,
    plots: bool = True,
    html: bool = True,
) -> Report:
    """Analyse ``run_dirs`` and write the report to ``out``; returns it (``report.files``)."""
    rep = build_report(run_dirs, metric, seed=seed, n_boot=n_boot, family_map=family_map,
                       include_paper=include_paper)
    out = Path(out)
    files = write_tables(rep, out)
    figures = []
    if plots:
        from indicifeval.reports.plots import write_plots

        figures = write_plots(rep, out / "plots")
        files += figures
    if html:
        from indicifeval.reports.html import write_html

        files.append(write_html(rep, out / "report.html", figures))
    rep.files = [str(f) for f in files]
    return rep
