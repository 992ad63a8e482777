"""Two analyses of instruction types across languages: keyword inclusion vs exclusion in the
Indic languages (figure: bars per run and subset), and instructions whose answer must be in
English, asked in an Indic language vs in English."""

from __future__ import annotations

from indicifeval.languages import composition
from indicifeval.reports import plots
from indicifeval.reports.analyses import TRANS, Analyses, first
from indicifeval.reports.model import Column, Estimate, Report, Table, run_row
from indicifeval.reports.registry import analysis
from indicifeval.reports.stats import difference

INCLUSION_IDS = frozenset({"keywords:existence", "keywords:frequency"})
EXCLUSION_IDS = frozenset({"keywords:forbidden_words"})
SUBSET, INCLUSION, EXCLUSION = Column("subset", "subset"), Column("inclusion", "value"), Column("exclusion", "value")


@analysis(
    "keywords", short_title="Keywords",
    what="Whether runs handle 'use these words' and 'avoid these words' differently in Indic languages.",
    how="Instruction-level accuracy of keywords:existence and keywords:frequency (inclusion) against "
        "keywords:forbidden_words (exclusion), Indic languages pooled per subset; the last column is their gap.",
)
def keywords(ctx: Analyses) -> Table:
    table = Table("keywords", f"Keyword inclusion vs exclusion (instruction-level {ctx.kind}, Indic languages pooled)",
                  [Column("run", "label"), SUBSET, INCLUSION, EXCLUSION,
                   Column("exclusion − inclusion", "value", "gain")], [],
                  note="inclusion: keywords:existence and keywords:frequency; exclusion: keywords:forbidden_words")
    for run in ctx.runs:
        for subset in ctx.subsets:
            rows = ctx.indic_rows(run, subset)
            inc, exc = ctx.group(rows, INCLUSION_IDS), ctx.group(rows, EXCLUSION_IDS)
            if not len(inc) and not len(exc):
                continue
            label = f"{run.info.name}|kw|{subset}"
            table.rows.append(run_row(run.info.name, [
                subset,
                ctx.estimate([inc], first, label + "|inc") if len(inc) else Estimate(None),
                ctx.estimate([exc], first, label + "|exc") if len(exc) else Estimate(None),
                ctx.estimate([exc, inc], difference, label + "|diff") if len(inc) and len(exc) else Estimate(None),
            ]))
    return table


@keywords.figure("keywords", "Keyword inclusion (existence, frequency) against exclusion (forbidden words), Indic "
                             "languages pooled, per subset, with 95% intervals.")
def _keyword_bars(report: Report, table: Table | None):
    if table is None or not table.rows:
        return None
    sub, inc, exc = (table.columns.index(c) for c in (SUBSET, INCLUSION, EXCLUSION))
    subsets = [s for s in composition().subsets if any(r[sub] == s for r in table.rows)]
    runs = list(dict.fromkeys(str(r.name) for r in table.rows))
    width = max(4.5, 1.2 + 1.0 * len(runs))
    fig = plots.new_figure(min(24.0, max(5.2, width * len(subsets))), 4.4)  # 5.2: the legend's width
    axes = fig.subplots(1, len(subsets), sharey=True, squeeze=False)[0]
    for ax, subset in zip(axes, subsets):
        by_run = {str(r.name): r for r in table.rows if r[sub] == subset}
        cells = {i: [by_run[r][i] if r in by_run else Estimate(None) for r in runs] for i in (inc, exc)}
        plots.bars(ax, [plots.wrap(r, 14) for r in runs], [("inclusion (existence, frequency)", cells[inc]),
                                                           ("exclusion (forbidden words)", cells[exc])],
                   colours=(plots.PALETTE[0], plots.PALETTE[1]))
        ax.set_title(subset.capitalize())
    metric = plots.instruction_metric(report)
    axes[0].set_ylabel(f"{metric} accuracy (%)")
    fig.legend(*axes[0].get_legend_handles_labels(), frameon=False, ncols=2, loc="outside lower center")
    fig.suptitle(f"Keyword inclusion vs exclusion, Indic languages pooled ({metric}), 95% bootstrap intervals",
                 x=0.01, ha="left")
    return fig


@analysis(
    "cross_lingual", short_title="Cross-lingual",
    what="Instructions that require an English answer to a prompt written in an Indic language, against the same "
         "prompts asked in English.",
    how="Rows whose answer must be in English (resp_lang en), Indic languages pooled, versus the English versions "
        "of those prompts; 'English − Indic' is the gap, 'prompts' the number of Indic prompts behind it.",
)
def cross_lingual(ctx: Analyses) -> Table:
    table = Table("cross_lingual", f"English-output instructions asked in an Indic language vs in English "
                  f"({ctx.metric_name}, Trans)",
                  [Column("run", "label"), Column("asked in Indic", "value"), Column("asked in English", "value"),
                   Column("English − Indic", "value", "gap"), Column("prompts", "count")], [],
                  note=f"rows whose answer must be in English (resp_lang {ctx.reference}), Indic languages pooled; "
                       f"English on the same prompts", subset=TRANS)
    if ctx.reference is None:
        return table
    for run in ctx.runs:
        indic = ctx.indic_rows(run, TRANS)
        indic = indic.where([run.resp_lang[i] == ctx.reference for i in indic.positions.tolist()])
        if not len(indic):
            continue
        keys = set(indic.keys())
        english = ctx.rows(run, TRANS, ctx.reference)
        english = english.where([k in keys for k in english.keys()])
        gi, ge = ctx.group(indic), ctx.group(english)
        label = f"{run.info.name}|xling"
        table.rows.append(run_row(run.info.name, [
            ctx.estimate([gi], first, label + "|i"),
            ctx.estimate([ge], first, label + "|e") if len(ge) else Estimate(None),
            ctx.estimate([ge, gi], difference, label + "|d") if len(ge) else Estimate(None), len(gi),
        ]))
    return table
