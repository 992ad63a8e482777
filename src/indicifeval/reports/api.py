"""``indicifeval.report(run_dirs, ...)``: every analysis over a set of runs, written as
Markdown, CSV, JSON, plots (PNG and SVG) and an HTML page with a samples file per run.

Each run's files are read once, line by line: the tables keep its outcomes, its prompts and
answers go straight into its samples file, so a report over many runs grows by a few MB a run."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from indicifeval._version import __version__
from indicifeval.core.folders import StagedFolder, claim, write_manifest
from indicifeval.core.modes import ScoringMode
from indicifeval.reports import units  # noqa: F401  registers the built-in analyses, in the report's order
from indicifeval.reports.analyses import METRIC_NAMES
from indicifeval.reports.families import load_family_map
from indicifeval.reports.loading import load_runs
from indicifeval.reports.model import Report
from indicifeval.reports.registry import registered_figures
from indicifeval.reports.samples import RunSamples, Samples
from indicifeval.reports.sections import section_tables

if TYPE_CHECKING:  # imported where the page is written: tables alone do not need it
    from indicifeval.reports.html_samples import SampleFiles
from indicifeval.reports.writers import write_tables

METRICS = tuple(METRIC_NAMES)
Step = Callable[[str], None]


def _no_step(description: str) -> None:
    pass


def steps_needed(n_runs: int, plots: bool, html: bool) -> int:
    """How many times ``report`` calls its ``step`` callback (for a progress bar)."""
    # the registry counts the figures without importing matplotlib
    return n_runs + 2 + (len(registered_figures()) if plots and can_plot() else 0) + (1 if html else 0)


def can_plot() -> bool:
    """Whether matplotlib is there: without it a report is written without its plots, and says so."""
    import importlib.util

    try:
        return importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a broken or blocked install is as good as none
        return False


NO_PLOTS = "plots left out: they need matplotlib (pip install 'indicifeval[report]'); --no-plots says nothing"


def build_report(
    run_dirs: list[str | Path],
    metric: str = "prompt_loose",
    *,
    seed: int = 0,
    n_boot: int = 1000,
    family_map: str | Path | None = None,
    include_paper: bool = True,
    scoring: ScoringMode | None = None,
    mixed_scoring: bool = False,
    step: Step = _no_step,
    sample_files: SampleFiles | None = None,
) -> Report:
    """Every analysis over ``run_dirs``; ``sample_files`` gets the page's samples in the same
    pass over the run files (``report`` writes them so: each file is read once)."""
    runs = load_runs(list(run_dirs), load_family_map(family_map), scoring, mixed_scoring, on_run=step,
                     samples=None if sample_files is None else sample_files.run)
    tables, analyses, section_notes = section_tables(runs, metric, seed=seed, n_boot=n_boot,
                                                     include_paper=include_paper)
    step("analyses and intervals")
    notes = [analyses.subset_note, *section_notes]
    modes = {r.info.scoring for r in runs}
    if len(modes) > 1:
        notes.append(f"runs were scored in different modes ({', '.join(sorted(modes))}) and are compared anyway "
                     f"(--mixed-scoring): re-score them alike with `indicifeval score --run DIR --scoring MODE`")
    if not analyses.thinking_pairs():
        notes.append("no thinking/non-thinking pair among these runs (same model and settings, thinking on vs off)")
    samples = Samples(RunSamples(r.info.name, r.source, len(r)) for r in runs)  # read again if asked for
    index = None
    if sample_files is not None:
        sample_files.runs = [r.info.name for r in runs]
        index = sample_files.index()
    return Report(metric, [r.info for r in runs], tables, samples, seed, n_boot, notes, sample_index=index)


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
    scoring: ScoringMode | str | None = None,
    mixed_scoring: bool = False,
    overwrite: bool = False,
    step: Step = _no_step,
) -> Report:
    """Analyse ``run_dirs`` and write the report to ``out``; returns it (``report.files``).

    ``out`` is the report's own: a folder another tool made is refused unless ``overwrite``,
    and each report replaces the previous one's files as a whole (stale ones removed).
    ``scoring`` picks each run's fixed or paper scores (default: the mode it was made with).
    """
    mode = None if scoring is None else ScoringMode(scoring)
    plots_missing = plots and not can_plot()
    plots = plots and not plots_missing
    previous = claim(out, "report", overwrite)
    out = Path(out)
    created = not out.exists()
    try:
        with StagedFolder(out, (previous or {}).get("files") or []) as stage:
            sample_files = None
            if html:  # written while the runs are read: each run's files are read once
                from indicifeval.reports.html_samples import SampleFiles

                sample_files = SampleFiles(stage.path, [])
            rep = build_report(run_dirs, metric, seed=seed, n_boot=n_boot, family_map=family_map,
                               include_paper=include_paper, scoring=mode, mixed_scoring=mixed_scoring, step=step,
                               sample_files=sample_files)
            if plots_missing:
                rep.notes.append(NO_PLOTS)
            figures = []
            if plots:  # first: a missing-fonts note must reach report.md too
                from indicifeval.reports.figures import write_plots

                figures = write_plots(rep, stage.path / "plots", step=step)
            files = write_tables(rep, stage.path) + figures
            step("tables")
            if html:
                from indicifeval.reports.html import write_html

                files.append(write_html(rep, stage.path / "report.html", figures, rep.sample_index))
                step("report.html")
    except BaseException:
        if created and out.is_dir() and not any(out.iterdir()):  # a failed first report leaves no folder
            out.rmdir()
        raise
    rep.files = [str(out / name) for name in stage.files]
    write_manifest(out, {"tool": "report", "format_version": 1, "indicifeval_version": __version__,
                         "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                         "runs": [str(Path(d)) for d in run_dirs], "metric": metric, "seed": seed,
                         "bootstrap": n_boot, "scoring": None if mode is None else str(mode),
                         "files": sorted(stage.files)})
    return rep
