"""Runs with several samples per prompt (``run --samples k``): the mean over samples with its
two-level interval, and how reliably and how often at all the model follows a prompt
("all k followed", "any of k"), per subset — the estimator of ``scoring.samples``."""

from __future__ import annotations

import numpy as np

from indicifeval.reports.analyses import Analyses, Rows
from indicifeval.reports.model import Column, Estimate, Table, run_row
from indicifeval.reports.registry import analysis
from indicifeval.scoring.samples import grid_of, over_prompts, pass_at_k, two_level


def _grid(ctx: Analyses, rows: Rows, metric: str):
    run = rows.run
    passes, counts = run.outcomes(metric)
    index: dict = {}
    prompt = np.fromiter((index.setdefault((run.language[i], run.keys[i]), len(index))
                          for i in rows.positions.tolist()), dtype=np.int64, count=len(rows))
    return grid_of(prompt, run.sample[rows.positions], passes[rows.positions].astype(float),
                   counts[rows.positions].astype(float), run.samples, len(index))


@analysis(
    "repeated_samples", short_title="Repeated samples",
    what="For runs that asked each prompt several times (run --samples k): the metric as the mean over samples, "
         "and the share of prompts followed in all k samples and in at least one.",
    how="Mean over every (prompt, sample) answer; 95% interval by a two-level bootstrap (prompts, then samples "
        "within each prompt). 'all k followed' and 'any of k' are prompt-level strict, prompts resampled "
        "(scoring/samples.py).",
)
def repeated_samples(ctx: Analyses) -> Table | None:
    runs = [r for r in ctx.runs if r.samples > 1]
    if not runs:
        return None
    table = Table("repeated_samples", f"Repeated samples: {ctx.metric_name} as the mean over samples, all k "
                  f"followed and any of k (prompt-level strict)",
                  [Column("run", "label"), Column("subset", "subset"), Column("k", "number"),
                   Column("mean over samples", "value"), Column("all k followed", "value"),
                   Column("any of k", "value"), Column("prompts", "count")], [],
                  note="cells: value [95% CI]; the mean's interval resamples prompts, then samples within each")
    for run in runs:
        for subset in ctx.subsets:
            rows = ctx.rows(run, subset)
            if not len(rows):
                continue
            label = f"samples|{run.info.name}|{subset}"
            grid = _grid(ctx, rows, ctx.metric)
            low, high = two_level(grid, seed=ctx.seed, label=label, n_boot=ctx.n_boot)
            cells = [Estimate(grid.mean(), low, high, grid.passes.shape[0])]
            for name, per_prompt in pass_at_k(_grid(ctx, rows, "prompt_strict")).items():
                lo, hi = over_prompts(per_prompt, seed=ctx.seed, label=f"{label}|{name}", n_boot=ctx.n_boot)
                cells.append(Estimate(float(per_prompt.mean()), lo, hi, len(per_prompt)))
            table.rows.append(run_row(run.info.name, [subset, run.samples, *cells, grid.passes.shape[0]]))
    return table
