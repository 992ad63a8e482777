"""The paper's Tables 1 and 2: accuracy per run and language on Trans and on Ground, with the
paper's published numbers below the runs; figures: a heatmap of each table, of the published
numbers apart from the runs, and the Indic average per run with its intervals."""

from __future__ import annotations

import numpy as np

from indicifeval.languages import composition
from indicifeval.reports import plots
from indicifeval.reports.analyses import METRIC_NAMES, Analyses, first, paper_tables
from indicifeval.reports.model import Column, Estimate, Report, Table, TableRow, run_row
from indicifeval.reports.registry import analysis
from indicifeval.reports.stats import mean_of

PAPER = "paper: "  # the label of a published row, "paper: <model>", in every output


def paper_row(model: str, cells: list) -> TableRow:
    return TableRow([f"{PAPER}{model}", *cells], "paper", model)


def _language_table(ctx: Analyses, subset: str) -> Table:
    langs = ctx.languages_of(subset)
    columns = [Column("run", "label"), *(Column(c, "language") for c in langs), Column("Avg", "avg")]
    table = Table(f"{subset}_languages", f"{composition().titles[subset]}: {ctx.metric_name} by language (Avg over "
                  f"the Indic languages)", columns, [], subset=subset)
    for run in ctx.runs:
        cells, groups = [], []
        for lang in langs:
            g = ctx.group(ctx.rows(run, subset, lang))
            cells.append(ctx.estimate([g], first, f"{run.info.name}|{subset}|{lang}") if len(g) else Estimate(None))
            if lang in ctx.indic and len(g):
                groups.append(g)
        avg = ctx.estimate(groups, mean_of, f"{run.info.name}|{subset}|avg") if groups else Estimate(None)
        if any(c.value is not None for c in cells):
            table.rows.append(run_row(run.info.name, [*cells, avg]))
    paper = paper_tables().get(subset) if ctx.include_paper and ctx.metric == "prompt_loose" else None
    if paper:
        for model, values in paper["models"].items():
            table.rows.append(paper_row(model, [*[Estimate(values[c] / 100) if c in values else Estimate(None)
                                                  for c in langs], Estimate(values["avg"] / 100)]))
    notes = [ctx.subset_note if subset == "trans" else "Ground on all rows"]
    if paper:
        notes.append(f"rows marked '{PAPER.strip()}' are the published numbers (no intervals)")
    table.note = "; ".join(notes) + "; 95% bootstrap intervals over prompts in the CSV/JSON"
    return table


@analysis(
    "trans_languages", short_title="Trans by language", always=True,
    what="How often each run follows a prompt's instructions in each language of IndicIFEval-Trans, the IFEval "
         "prompts translated into the Indic languages, with the English originals as the reference column; "
         "'paper' rows are the published numbers.",
    how="Each cell is the share of that language's prompts that pass under the report's metric, in percent; Avg is "
        "the unweighted mean of the Indic languages (English left out); the 95% interval bootstraps prompts.",
)
def trans_languages(ctx: Analyses) -> Table:
    return _language_table(ctx, "trans")


@analysis(
    "ground_languages", short_title="Ground by language",
    what="The same measure on IndicIFEval-Ground: prompts written natively in each language around local "
         "topics, so they have no English counterpart and no English column.",
    how="Share of each language's prompts that pass, in percent; Avg is the unweighted mean over the languages; "
        "95% intervals bootstrap prompts within each language.",
)
def ground_languages(ctx: Analyses) -> Table:
    return _language_table(ctx, "ground")


METRICS_SHOWN = ("prompt_strict", "prompt_loose", "inst_strict", "inst_loose")


@analysis(
    "accuracy", short_title="Accuracy, four metrics", after="ground_languages",
    what="A section's accuracy in every language under all four of IFEval's metrics: prompt-level and "
         "instruction-level, strict and loose (shown in a report whose runs hold several suites' instructions).",
    how="Prompt level: the share of prompts whose every instruction passes; instruction level: the share of "
        "instructions that pass; strict on the answer as written, loose after IFEval's normalisations; Avg is the "
        "unweighted mean of the Indic languages; 95% intervals bootstrap prompts.",
)
def accuracy(ctx: Analyses) -> Table | None:
    langs = ctx.languages
    table = Table("accuracy", "Accuracy by language, prompt and instruction level, strict and loose",
                  [Column("run", "label"), Column("subset", "subset"), Column("metric", "text"),
                   *(Column(c, "language") for c in langs), Column("Avg", "avg")], [],
                  note=ctx.subset_note + "; Avg over the Indic languages")
    for run in ctx.runs:
        for subset in ctx.subsets:
            for metric in METRICS_SHOWN:
                cells, groups = [], []
                for lang in langs:
                    g = ctx.group(ctx.rows(run, subset, lang), metric=metric)
                    label = f"{run.info.name}|{subset}|{lang}|{metric}"
                    cells.append(ctx.estimate([g], first, label) if len(g) else Estimate(None))
                    if lang in ctx.indic and len(g):
                        groups.append(g)
                if not any(c.value is not None for c in cells):
                    continue
                avg = ctx.estimate(groups, mean_of, f"{run.info.name}|{subset}|avg|{metric}") if groups \
                    else Estimate(None)
                table.rows.append(run_row(run.info.name, [subset, METRIC_NAMES[metric], *cells, avg]))
    return table


# -- figures -------------------------------------------------------------------------------------
def _heatmap(report: Report, table: Table | None, subset: str, paper: bool):
    """The runs' rows of a language table, or its published rows, as a heatmap."""
    if table is None or not table.rows:
        return None
    rows = [r for r in table.rows if (r.kind == "paper") == paper]
    cols = table.where("language", "avg")
    if not rows or np.isnan(plots.matrix(rows, cols)).all():
        return None
    name = composition().titles[subset]
    if paper:
        title, note = f"{name}, the paper's published numbers: prompt-level loose accuracy (%)", ""
    else:  # Trans: the note's first part says which rows count (the parallel subset or all)
        title = f"{name}: {plots.metric_name(report)} accuracy by language (%)"
        note = table.note.split(";")[0] if subset == "trans" else ""
    from indicifeval.reports import heatmaps  # matplotlib: imported to draw only

    return heatmaps.heatmap(plots.matrix(rows, cols), [str(r.name) for r in rows],
                            [plots.column_label(table.columns[i]) for i in cols], title, signed=False,
                            colour_label="accuracy (%)", note=note)


@trans_languages.figure("trans_languages", "Accuracy by language on IndicIFEval-Trans, one row per run (brighter: "
                                          "more prompts followed); the numbers of the Trans table, without the "
                                          "intervals.")
def _trans_heatmap(report: Report, table: Table | None):
    return _heatmap(report, table, "trans", paper=False)


@trans_languages.figure("paper_reference_trans", "The paper's published Trans accuracies (prompt-level loose), to "
                                                "place the runs among the models the authors evaluated.")
def _trans_paper_heatmap(report: Report, table: Table | None):
    return _heatmap(report, table, "trans", paper=True)


@ground_languages.figure("ground_languages", "Accuracy by language on IndicIFEval-Ground, one row per run, same "
                                            "colour scale.")
def _ground_heatmap(report: Report, table: Table | None):
    return _heatmap(report, table, "ground", paper=False)


@ground_languages.figure("paper_reference_ground", "The paper's published Ground accuracies (prompt-level loose).")
def _ground_paper_heatmap(report: Report, table: Table | None):
    return _heatmap(report, table, "ground", paper=True)


@ground_languages.figure("indic_average", "Indic-average accuracy per run on Trans and Ground, with 95% bootstrap "
                                          "intervals as error bars.")
def _indic_average(report: Report, ground: Table | None):
    series, runs = [], []
    for table, label in ((trans_languages.table_in(report), "Trans"), (ground, "Ground")):
        if table is None or not table.where("avg"):
            continue
        col = table.where("avg")[0]
        rows = {str(r.name): r[col] for r in table.rows if r.kind == "run"}
        if not any(plots.value(c) is not None for c in rows.values()):
            continue
        runs += [r for r in rows if r not in runs]
        series.append((label, rows))
    if not series:
        return None
    fig = plots.new_figure(max(5.0, 1.5 + 1.1 * len(runs) * max(1, len(series)) / 2 + 1), 4.2)
    ax = fig.add_subplot()
    plots.bars(ax, [plots.wrap(r) for r in runs],
               [(label, [rows.get(r, Estimate(None)) for r in runs]) for label, rows in series])
    ax.set_ylabel(f"{plots.metric_name(report)} accuracy (%)")
    ax.set_title(f"Indic average per run ({plots.metric_name(report)}), 95% bootstrap intervals", loc="left")
    fig.legend(*ax.get_legend_handles_labels(), frameon=False, ncols=len(series), loc="outside lower center")
    return fig
