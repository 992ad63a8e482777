"""Thinking vs non-thinking: runs of one model whose settings differ only in thinking, paired —
the accuracy gain with an exact McNemar p-value, and how Δ changes; figure: the paper's
Figure 7 slope chart, accuracy and Δ without and with thinking for each pair."""

from __future__ import annotations

from indicifeval.reports import plots
from indicifeval.reports.analyses import TRANS, Analyses, diff_of_means
from indicifeval.reports.model import Column, Estimate, Report, Table, TableRow
from indicifeval.reports.registry import analysis
from indicifeval.reports.stats import mcnemar, mean_of

MODEL, SIZE = Column("model", "label"), Column("size (B)", "number")
OFF, ON = Column("no thinking", "value"), Column("thinking", "value")
DELTA_OFF, DELTA_ON = Column("Δ no thinking", "value", "gap"), Column("Δ thinking", "value", "gap")


@analysis(
    "thinking", short_title="Thinking",
    what="What thinking (reasoning before answering) buys: accuracy and disparity for runs of one model whose "
         "settings differ only in thinking.",
    how="Indic-average accuracy without and with thinking, the gain paired over shared prompts with an exact "
        "McNemar p-value; Δ is English − Indic average per run, 'change in Δ' their difference (negative: "
        "thinking narrows the gap).",
)
def thinking(ctx: Analyses) -> Table:
    table = Table("thinking", f"Thinking vs non-thinking ({ctx.metric_name}, Trans, Indic average)",
                  [MODEL, SIZE, OFF, ON, Column("gain", "value", "gain"), Column("p (McNemar)", "p_value"),
                   DELTA_OFF, DELTA_ON, Column("change in Δ", "value", "gap")], [],
                  note="pairs of runs of one model whose settings differ only in thinking; gain paired over "
                       "shared prompts; Δ = English − Indic average", subset=TRANS)
    for off, on in ctx.thinking_pairs():
        offs, ons = [], []
        for lang in ctx.indic:
            ga, gb = ctx.paired(ctx.rows(off, TRANS, lang), ctx.rows(on, TRANS, lang))
            if len(ga) and len(gb):
                offs.append(ga)
                ons.append(gb)
        if not offs:
            continue
        label = f"think|{off.info.name}|{on.info.name}"
        k = len(offs)
        acc_off = ctx.estimate(offs, mean_of, label + "|off")
        acc_on = ctx.estimate(ons, mean_of, label + "|on")
        gain = ctx.estimate(offs + ons, lambda v, k=k: diff_of_means(v[k:], v[:k]), label + "|gain")
        a_out, b_out = ctx.paired_outcomes(off, on, TRANS, indic_only=True)
        p = mcnemar(a_out, b_out)[2] if len(a_out) else None
        d_off = ctx.avg_delta(off, label + "|doff")
        d_on = ctx.avg_delta(on, label + "|don")
        change = None if d_off.value is None or d_on.value is None else d_on.value - d_off.value
        table.rows.append(TableRow([off.info.model, off.info.size_b, acc_off, acc_on, gain, p, d_off, d_on,
                               Estimate(change)], "pair", off.info.model))
    return table


# -- figure --------------------------------------------------------------------------------------
def _spread(ys: list[float], gap: float) -> list[float]:
    """Label positions near ``ys``, at least ``gap`` apart: overlapping labels form a block
    centred on their values' mean; blocks that then overlap merge."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    blocks = [[i] for i in order]  # each block: members in ascending order

    def bounds(block):
        centre = sum(ys[i] for i in block) / len(block)
        start = centre - gap * (len(block) - 1) / 2
        return start, start + gap * (len(block) - 1)

    merged = True
    while merged:
        merged = False
        for k in range(len(blocks) - 1):
            if bounds(blocks[k])[1] + gap > bounds(blocks[k + 1])[0] + 1e-12:
                blocks[k:k + 2] = [blocks[k] + blocks[k + 1]]
                merged = True
                break
    out = list(ys)
    for block in blocks:
        start = bounds(block)[0]
        for n, i in enumerate(block):
            out[i] = start + n * gap
    return out


@thinking.figure("thinking", "Thinking vs non-thinking for runs of one model: accuracy (left) and disparity Δ "
                             "(right) without and with thinking, with 95% intervals.")
def _slopes(report: Report, table: Table | None):
    if table is None or not table.rows:
        return None
    col = {c: table.columns.index(c) for c in (MODEL, SIZE, OFF, ON, DELTA_OFF, DELTA_ON)}
    labels = []
    for row in table.rows:
        model = str(row[col[MODEL]]).split("/")[-1]
        size = plots.value(row[col[SIZE]])
        labels.append(model if size is None or f"{size:g}B".lower() in model.lower() else f"{model} ({size:g}B)")
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):  # two pairs of one model (different settings): number them
        seen[label] = seen.get(label, 0) + 1
        if seen[label] > 1:
            labels[i] = f"{label} #{seen[label]}"
    labels = [plots.wrap(label, 26) for label in labels]  # a long name would squeeze the panels to make room
    fig = plots.new_figure(10.0, 4.8)
    axes = fig.subplots(1, 2)
    panels = ((axes[0], OFF, ON, "Indic average accuracy (%)"),
              (axes[1], DELTA_OFF, DELTA_ON, "Δ = English − Indic (points)"))
    for ax, off_col, on_col, ylabel in panels:
        ends: list[tuple[int, float, float] | None] = []
        for k, row in enumerate(table.rows):
            off, on = row[col[off_col]], row[col[on_col]]
            v0, v1 = plots.value(off), plots.value(on)
            if v0 is None or v1 is None:
                ends.append(None)
                continue
            colour = plots.PALETTE[k % len(plots.PALETTE)]
            marker = "osD^v<>p"[k % 8]
            ax.plot([0, 1], [100 * v0, 100 * v1], color=colour, marker=marker, linewidth=2, markersize=6)
            for side_x, cell, v in ((0.0, off, v0), (1.0, on, v1)):
                iv = plots.interval(cell)
                if iv is not None:
                    ax.errorbar(side_x + (k - (len(table.rows) - 1) / 2) * 0.012, 100 * v,
                                yerr=[[100 * (v - iv[0])], [100 * (iv[1] - v)]],
                                color=colour, alpha=0.45, capsize=2, linewidth=1)
            ends.append((k, 100 * v0, 100 * v1))
        drawn = [e for e in ends if e is not None]
        if not drawn:
            ax.text(0.5, 0.5, "no values", ha="center", va="center", transform=ax.transAxes)
        low, high = ax.get_ylim()
        gap = (high - low) * 0.055
        lines = max((labels[e[0]].count("\n") + 1 for e in drawn), default=1)  # the names' side: room for each
        for side, x, ha in ((1, 1.06, "left"), (0, -0.06, "right")):
            ys = _spread([e[1 + side] for e in drawn], gap * (lines if side else 1))
            for (k, v0, v1), y in zip(drawn, ys):
                value = f"{v1 if side else v0:.1f}".replace("-", "−")
                ax.text(x, y, f"{labels[k]}  {value}" if side else value, ha=ha, va="center", fontsize=8,
                        color=plots.PALETTE[k % len(plots.PALETTE)])
        if off_col.diff == "gap":
            ax.axhline(0, color="#888888", linewidth=0.8, linestyle="--")
        ax.set_xticks([0, 1], ["no thinking", "thinking"])
        ax.set_xlim(-0.35, 1.75)
        ax.spines["bottom"].set_bounds(0, 1)
        ax.set_ylabel(ylabel)
        ax.grid(axis="y", color="#ececec", linewidth=0.8)
        ax.set_axisbelow(True)
    axes[0].set_title("Accuracy", loc="left")
    axes[1].set_title("Disparity Δ", loc="left")
    fig.suptitle(f"Thinking vs non-thinking, Trans ({plots.metric_name(report)}), 95% bootstrap intervals", x=0.01,
                 ha="left")
    return fig
