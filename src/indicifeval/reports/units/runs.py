"""Runs side by side: accuracy per instruction id for each run, and each run minus the first
one per language, paired over shared prompts with exact McNemar p-values."""

from __future__ import annotations

from indicifeval.languages import composition
from indicifeval.reports.analyses import Analyses, first
from indicifeval.reports.model import Column, Estimate, Table, TableRow, run_row
from indicifeval.reports.registry import analysis
from indicifeval.reports.stats import difference, mcnemar
from indicifeval.scoring.categories import CATEGORY_OF


@analysis(
    "per_instruction", short_title="Per instruction",
    what="Which instruction types each run follows or misses, over all languages and both subsets.",
    how="For each instruction id, the share of its occurrences that pass (instruction level), pooling every prompt "
        "that contains it; intervals bootstrap those prompts.",
)
def per_instruction(ctx: Analyses) -> Table:
    ids = sorted({iid for r in ctx.runs for iid in ctx.instruction_ids(r)}, key=lambda i: (CATEGORY_OF.get(i, ""), i))
    table = Table("per_instruction", f"Accuracy per instruction (instruction-level {ctx.kind}, all languages and "
                  f"subsets)", [Column("instruction", "label"), Column("category", "category"),
                                *[Column(r.info.name, "run") for r in ctx.runs]], [])
    for iid in ids:
        row = TableRow([iid, CATEGORY_OF.get(iid, "")], "instruction", iid)
        for run in ctx.runs:
            g = ctx.group(ctx.all_rows(run), frozenset({iid}))
            row.append(ctx.estimate([g], first, f"{run.info.name}|inst|{iid}") if len(g) else Estimate(None))
        table.rows.append(row)
    return table


@analysis(
    "comparison", short_title="Run comparison",
    what="Each run against the first one, language by language, to tell real differences from noise.",
    how="Accuracy of the run − accuracy of the first run over the prompts both answered, with paired bootstrap "
        "intervals; 'pooled' covers all languages of the subset, with an exact McNemar test on paired outcomes.",
)
def comparison(ctx: Analyses) -> Table | None:
    if len(ctx.runs) < 2:
        return None
    base = ctx.runs[0]
    table = Table("comparison", f"Each run minus {base.info.name} ({ctx.metric_name}), paired over shared prompts, "
                  f"with exact McNemar p-values",
                  [Column("run", "label"), Column("subset", "subset"),
                   *(Column(c, "language", "gain") for c in ctx.languages), Column("pooled", "value", "gain"),
                   Column("p (McNemar)", "p_value")],
                  [], note="cells: difference [95% CI]; p-value of the pooled McNemar test")
    for other in ctx.runs[1:]:
        for subset in ctx.subsets:
            cells, any_value = [], False
            for lang in ctx.languages:
                if subset not in composition().subsets_of(lang):
                    cells.append(Estimate(None))
                    continue
                ga, gb = ctx.paired(ctx.rows(base, subset, lang), ctx.rows(other, subset, lang))
                if len(ga) and len(gb):
                    est = ctx.estimate([gb, ga], difference, f"cmp|{other.info.name}|{subset}|{lang}")
                    any_value = any_value or est.value is not None
                else:
                    est = Estimate(None)
                cells.append(est)
            if not any_value:
                continue
            a_out, b_out = ctx.paired_outcomes(base, other, subset)
            pooled = (Estimate(float(b_out.sum() / len(b_out) - a_out.sum() / len(a_out)), n=len(a_out))
                      if len(a_out) else Estimate(None))
            p = mcnemar(a_out, b_out)[2] if len(a_out) else None
            table.rows.append(run_row(other.info.name, [subset, *cells, pooled, p]))
    return table
