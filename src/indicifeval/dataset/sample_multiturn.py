"""``--data sample-multiturn``: two three-turn conversations per language, made in memory from the
bundled sample's Trans rows (nothing more is bundled): turn 1 is a sample prompt with its
instructions; turns 2 and 3 each bring the prompt of another sample row, and the turn's list is
the previous turn's plus the new row's instructions, an earlier instruction that the checkers'
conflict table says contradicts a new one dropped (as Multi-IF made its lists). The mock
backend's ``sample`` answers then answer each turn with the passing answer of its own prompt,
which follows the new instructions and often breaks the ones given turns before."""

from __future__ import annotations

from collections.abc import Iterable

from indicifeval.checkers import conflicts
from indicifeval.dataset.rows import SAMPLE, load_rows
from indicifeval.records import MULTITURN, Conversation, Row, Turn

SAMPLE_MULTITURN = f"{SAMPLE}-multiturn"
CONVERSATIONS, TURNS = 2, 3


def _turns(rows: list[Row]) -> tuple[Turn, ...]:
    ids: list[str] = []
    kwargs: list[dict] = []
    out = []
    for row in rows:
        new = list(row.instruction_id_list)
        kept = [(i, k) for i, k in zip(ids, kwargs) if not any(i in conflicts(n) for n in new)]
        ids = [i for i, _ in kept] + new
        kwargs = [k for _, k in kept] + [dict(k) for k in row.kwargs]
        out.append(Turn(row.prompt, tuple(ids), tuple(dict(k) for k in kwargs)))
    return tuple(out)


def sample_conversations(languages: Iterable[str] | None = None) -> list[Conversation]:
    """The sample's conversations, ``CONVERSATIONS`` per language (of ``languages``, default all)."""
    wanted = set(languages) if languages is not None else None
    by_language: dict[str, list[Row]] = {}
    for row in load_rows(SAMPLE):
        if row.subset == "trans" and str(row.key).endswith("-pass") and (wanted is None or row.language in wanted):
            by_language.setdefault(row.language, []).append(row)
    out = []
    for language, rows in by_language.items():
        rows.sort(key=lambda r: str(r.key))
        used: set[int] = set()
        for c in range(CONVERSATIONS):
            chosen = _pick(rows, used)
            if len(chosen) == TURNS:
                out.append(Conversation(f"{language}-multiturn-{c + 1:02d}", language, _turns(chosen), MULTITURN,
                                        ("sample",)))
    return out


def _pick(rows: list[Row], used: set[int]) -> list[Row]:
    """The first unused row, then each next unused row none of whose instructions contradicts one
    asked so far (an instruction given in turn 1 then stays to be forgotten), else any unused row."""
    chosen: list[Row] = []
    asked: set[str] = set()
    while len(chosen) < TURNS:
        free = [i for i in range(len(rows)) if i not in used]
        if not free:
            break
        fits = [i for i in free if not any(a in conflicts(n) for n in rows[i].instruction_id_list for a in asked)]
        i = (fits or free)[0]
        used.add(i)
        chosen.append(rows[i])
        asked.update(rows[i].instruction_id_list)
    return chosen


__all__ = ["CONVERSATIONS", "SAMPLE_MULTITURN", "TURNS", "sample_conversations"]
