"""Multi-turn runs (conversations, a score line per turn): accuracy by turn per language, the decay
from the first turn to the last, which instruction families are forgotten first, and the
English–Indic Δ per turn. A report without conversation turns shows none of these tables."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from indicifeval.reports.analyses import Analyses
from indicifeval.reports.model import Column, Estimate, Table, TableRow, run_row
from indicifeval.reports.registry import analysis
from indicifeval.reports.rundata import RunData
from indicifeval.scoring.categories import CATEGORY_OF

FOUR = ("prompt_strict", "prompt_loose", "inst_strict", "inst_loose")
HEADERS = {"prompt_strict": "conversation strict", "prompt_loose": "conversation loose",
           "inst_strict": "instruction strict", "inst_loose": "instruction loose"}


def _multiturn(ctx: Analyses) -> list[RunData]:
    return [r for r in ctx.runs if len(r.turn) and int(r.turn.max()) > 0]


def _turns(run: RunData) -> list[int]:
    return sorted(t for t in set(run.turn.tolist()) if t > 0)


def _positions(run: RunData, turn: int, languages: set[str] | None = None) -> np.ndarray:
    """The lines of one turn (of some languages only)."""
    keep = run.turn == turn
    if languages is not None:
        keep &= np.fromiter((lang in languages for lang in run.language), bool, len(run))
    return np.flatnonzero(keep)


def _rate(run: RunData, metric: str, positions: np.ndarray) -> Estimate:
    """The metric over some lines: followed over listed (prompt-level: one per line)."""
    passes, counts = run.outcomes(metric)
    total = int(counts[positions].sum())
    return Estimate(float(passes[positions].sum()) / total if total else None, n=len(positions))


def _languages(ctx: Analyses, run: RunData) -> list[str]:
    present = set(run.language)
    return [c for c in ctx.languages if c in present] + sorted(present - set(ctx.languages))


@analysis(
    "turn_accuracy", short_title="Accuracy by turn",
    what="Conversations (multi-turn runs): how well each turn's answer follows every instruction given so far, per "
         "turn and language — conversation level (all of the turn's instructions followed) and instruction level, "
         "strict and loose, and Multi-IF's headline (the mean of the four).",
    how="Each turn's answer is scored against the instructions the data lists for that turn (cumulative); a turn "
        "after an unanswered one counts as failing. 'all' pools every language; n counts conversations.",
)
def turn_accuracy(ctx: Analyses) -> Table | None:
    runs = _multiturn(ctx)
    if not runs:
        return None
    table = Table("turn_accuracy", "Accuracy by turn (conversations)",
                  [Column("run", "label"), Column("language", "text"), Column("turn", "number"),
                   *(Column(HEADERS[m], "value") for m in FOUR), Column("Multi-IF", "value"),
                   Column("conversations", "count")], [],
                  note="each turn against the instructions given up to it; Multi-IF = the mean of the four")
    for run in runs:
        for lang in [*_languages(ctx, run), None]:
            for turn in _turns(run):
                positions = _positions(run, turn, None if lang is None else {lang})
                if not len(positions):
                    continue
                cells = [_rate(run, m, positions) for m in FOUR]
                values = [c.value for c in cells]
                mean = sum(v for v in values if v is not None) / 4 if None not in values else None
                table.rows.append(run_row(run.info.name, [lang or "all", turn, *cells, Estimate(mean),
                                                          len(positions)]))
    return table


@analysis(
    "turn_decay", short_title="Decay over turns",
    what="How much a model loses as a conversation goes on: its accuracy at each turn and the drop from the first "
         "turn to the last, per language and over the Indic languages.",
    how="The report's metric per turn; decay = first turn − last turn (positive: worse later in the conversation).",
)
def turn_decay(ctx: Analyses) -> Table | None:
    runs = _multiturn(ctx)
    if not runs:
        return None
    most = max(max(_turns(r)) for r in runs)
    table = Table("turn_decay", f"Decay from the first turn to the last ({ctx.metric_name})",
                  [Column("run", "label"), Column("language", "text"),
                   *(Column(f"turn {t}", "value") for t in range(1, most + 1)),
                   Column("decay", "value", "gap")], [],
                  note="decay = first turn − last turn, in points")
    for run in runs:
        groups: list[tuple[str, set[str] | None]] = [(lang, {lang}) for lang in _languages(ctx, run)]
        indic = set(ctx.indic) & set(run.language)
        if indic:
            groups.append(("Indic avg", indic))
        groups.append(("all", None))
        for label, languages in groups:
            cells = []
            for t in range(1, most + 1):
                positions = _positions(run, t, languages)
                cells.append(_rate(run, ctx.metric, positions) if len(positions) else Estimate(None))
            answered = [c.value for c in cells if c.value is not None]
            decay = Estimate(answered[0] - answered[-1] if len(answered) > 1 else None)
            table.rows.append(run_row(run.info.name, [label, *cells, decay]))
    return table


@analysis(
    "turn_forgetting", short_title="Forgotten instructions",
    what="Which instruction families are forgotten first: for the instructions given in turn 1, how often they "
         "are still followed at the later turns that still ask them, by instruction category.",
    how="Instruction-level, at the report's strict or loose kind, over the turns that list an instruction the "
        "conversation's turn 1 gave; forgotten = turn 1 − last turn (positive: followed at first, dropped later). "
        "Rows by how much is forgotten, most first.",
)
def turn_forgetting(ctx: Analyses) -> Table | None:
    runs = _multiturn(ctx)
    if not runs:
        return None
    most = max(max(_turns(r)) for r in runs)
    table = Table("turn_forgetting", f"Instructions given in turn 1, followed at each turn (instruction-level "
                  f"{ctx.kind})",
                  [Column("run", "label"), Column("category", "category"),
                   *(Column(f"turn {t}", "value") for t in range(1, most + 1)),
                   Column("forgotten", "value", "gap"), Column("instructions", "count")], [],
                  note="the instructions a conversation's first turn gives, at every later turn that still lists "
                       "them; forgotten = turn 1 − last turn")
    for run in runs:
        rows = []
        for category, per_turn in _first_turn_verdicts(run, ctx.kind).items():
            cells = [Estimate(float(np.mean(per_turn[t])), n=len(per_turn[t])) if per_turn.get(t) else Estimate(None)
                     for t in range(1, most + 1)]
            answered = [c.value for c in cells if c.value is not None]
            lost = answered[0] - answered[-1] if len(answered) > 1 else None
            rows.append((lost, TableRow([run.info.name, category, *cells, Estimate(lost), len(per_turn.get(1, []))],
                                        "run", run.info.name)))
        rows.sort(key=lambda r: -(r[0] if r[0] is not None else -1e9))
        table.rows += [r for _, r in rows]
    return table


def _first_turn_verdicts(run: RunData, kind: str) -> dict[str, dict[int, list[bool]]]:
    """category -> turn -> the verdicts on the instructions that turn 1 of the line's conversation gave."""
    rows, codes, passed = run.pairs[kind]
    first: dict[tuple, set[int]] = defaultdict(set)
    for i, code in zip(rows.tolist(), codes.tolist()):
        if run.turn[i] == 1:
            first[(run.language[i], run.keys[i])].add(code)
    out: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for i, code, ok in zip(rows.tolist(), codes.tolist(), passed.tolist()):
        turn = int(run.turn[i])
        if turn and code in first.get((run.language[i], run.keys[i]), ()):
            iid = run.vocabulary.ids[code]
            out[CATEGORY_OF.get(iid, iid.split(":")[0])][turn].append(bool(ok))
    return out


@analysis(
    "turn_delta", short_title="Δ by turn",
    what="The disparity per turn: how many points a conversation in an Indic language trails the English ones at "
         "each turn (positive: better in English).",
    how="Δ = the report's metric on English conversations − on each Indic language's, per turn (unpaired: "
        "conversations of different languages need not be translations of each other); Avg is the mean Δ.",
)
def turn_delta(ctx: Analyses) -> Table | None:
    runs = [r for r in _multiturn(ctx) if ctx.reference is not None and ctx.reference in set(r.language)]
    if not runs:
        return None
    table = Table("turn_delta", f"Δ = English − Indic per turn ({ctx.metric_name}, conversations)",
                  [Column("run", "label"), Column("turn", "number"),
                   *(Column(c, "language", "gap") for c in ctx.indic), Column("Avg", "avg", "gap")], [],
                  note="unpaired: English conversations against each language's")
    assert ctx.reference is not None
    for run in runs:
        for turn in _turns(run):
            en = _rate(run, ctx.metric, _positions(run, turn, {ctx.reference}))
            cells = []
            for lang in ctx.indic:
                positions = _positions(run, turn, {lang})
                xx = _rate(run, ctx.metric, positions) if len(positions) else Estimate(None)
                cells.append(Estimate(en.value - xx.value, n=len(positions))
                             if en.value is not None and xx.value is not None else Estimate(None))
            found = [c.value for c in cells if c.value is not None]
            if found:
                table.rows.append(run_row(run.info.name, [turn, *cells, Estimate(sum(found) / len(found))]))
    return table
