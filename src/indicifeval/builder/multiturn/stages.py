"""The multi-turn pipeline's stages, registered with the build layer (``builder.stages``):

    draft -> plan -> pretranslate -> translate -> assemble -> validate -> conversations

``draft`` copies turn 1's Trans rows (``multiturn/turn1.jsonl``) and draws each conversation's
follow-ups (``multiturn/drafts.jsonl``), writing their English as Trans source rows
(``multiturn/follow-ups.en.jsonl``); the five Trans stages, the very functions ``build trans``
runs, translate them into ``trans/`` with the same protection, resumable engine log and
validator; ``conversations`` puts each conversation together (``multiturn/conversations.jsonl``:
our own line with a status, reasons, warnings and provenance), checked by the conversation
validator (each turn as a row, and conflicts within a turn)."""

from __future__ import annotations

from pathlib import Path

from indicifeval.builder.candidates import read_candidates, write_candidates
from indicifeval.builder.multiturn.draft import draw, pool
from indicifeval.builder.stages import STAGES, StageContext, stage
from indicifeval.builder.trans import stages as trans_stages
from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import read_jsonl, write_jsonl
from indicifeval.dataset import write_rows_jsonl
from indicifeval.dataset.validation import validate_rows
from indicifeval.dataset.validation.turns import turn_conflicts, turn_rows
from indicifeval.languages import get_profile
from indicifeval.records import AUTO_OK, NEEDS_REVIEW, Candidate, Conversation, Turn, layout

PIPELINE = "multiturn"
TURN1, DRAFTS, FOLLOW_UPS = layout.MULTITURN_TURN1, layout.MULTITURN_DRAFTS, layout.MULTITURN_FOLLOW_UPS
ROWS, VALIDATION = layout.MULTITURN_ROWS, layout.MULTITURN_VALIDATION
TRANS_STAGES = (("plan", ("draft",)), ("pretranslate", ("plan",)), ("translate", ("plan", "pretranslate")),
                ("assemble", ("pretranslate", "translate")), ("validate", ("assemble",)))


@stage("draft", pipeline=PIPELINE, help="turn 1's Trans rows and each conversation's drawn follow-ups")
def draft_stage(ctx: StageContext) -> dict[str, int]:
    """Turn 1: the language's Trans rows (with their status); turns 2.. each add an instruction
    drawn with ``seed`` (``multiturn.draft``); the follow-ups' English is the Trans stages' source."""
    language = ctx.text("language")
    profile = get_profile(language)
    turn1 = [c for c in read_candidates(ctx.inputs["trans"]) if c.row.language == language
             and c.row.subset == "trans"]
    if not turn1:
        raise InputError(f"no {language} Trans rows to start conversations from", str(ctx.inputs["trans"]))
    seed, turns = ctx.integer("seed"), ctx.integer("turns")
    if not 2 <= turns <= 10:
        raise InputError(f"turns must be 2 to 10, got {turns}", field="turns")
    write_candidates(ctx.output(TURN1), turn1)
    drafts, english = [], []
    for candidate in turn1:
        follow_ups = draw(candidate.row, profile, seed, turns)
        drafts.append({"key": candidate.row.key, "follow_ups": [f.to_json() for f in follow_ups]})
        english += [f.row for f in follow_ups]
    write_jsonl(ctx.output(DRAFTS), drafts)
    write_rows_jsonl(ctx.output(FOLLOW_UPS), english)
    return {"conversations": len(drafts), "follow-ups": len(english), "pool": len(pool(profile)),
            "dropped": sum(len(f["dropped"]) for d in drafts for f in d["follow_ups"])}


for _name, _after in TRANS_STAGES:  # the Trans stages themselves, on the follow-ups
    _trans = STAGES[f"{trans_stages.PIPELINE}:{_name}"]
    stage(_name, pipeline=PIPELINE, after=_after, help=f"follow-ups: {_trans.help}", uses=_trans.uses)(_trans.fn)


def _conversation(base: Candidate, draft: dict, translated: dict[str, Candidate]) -> tuple[Candidate, Conversation]:
    """(the conversation's status, reasons, warnings and provenance as a candidate of its last
    turn, the conversation)."""
    row = base.row
    ids, kwargs = list(row.instruction_id_list), [dict(k) for k in row.kwargs]
    turns = [Turn(row.prompt, tuple(ids), tuple(kwargs))]
    reasons = [f"turn 1: {r}" for r in base.reasons]
    warnings = [f"turn 1: {w}" for w in base.warnings]
    status = base.status
    for follow in draft["follow_ups"]:
        n, found = follow["turn"], translated.get(str(follow["key"]))
        if found is None:
            reasons.append(f"turn {n}: the follow-up was not translated")
            status = NEEDS_REVIEW
            break
        kept = [(i, k) for i, k in zip(ids, kwargs) if i not in follow["dropped"]]
        ids = [i for i, _ in kept] + [follow["instruction_id"]]
        kwargs = [k for _, k in kept] + [dict(found.row.kwargs[0])]
        turns.append(Turn(found.row.prompt, tuple(ids), tuple(kwargs)))
        reasons += [f"turn {n}: {r}" for r in found.reasons]
        warnings += [f"turn {n}: {w}" for w in found.warnings]
        status = NEEDS_REVIEW if found.status == NEEDS_REVIEW else status
    conversation = Conversation(row.key, row.language, tuple(turns), tags=row.tags)
    provenance = {"turn_1": base.provenance, "follow_ups": draft["follow_ups"]}
    return Candidate(row, status, tuple(reasons), tuple(warnings), provenance), conversation


def conversation_record(candidate: Candidate, conversation: Conversation) -> dict:
    """A line of ``multiturn/conversations.jsonl``: our conversation line, then its status."""
    return {**conversation.to_json(), "status": candidate.status, "reasons": list(candidate.reasons),
            "warnings": list(candidate.warnings), "provenance": candidate.provenance}


def read_conversations(path: str | Path) -> list[tuple[Candidate, Conversation]]:
    """The built conversations, each with its status (a candidate of its last turn's row)."""
    out = []
    for _, record in read_jsonl(path):
        conversation = Conversation.from_json(record)
        last = conversation.turn_row(len(conversation.turns))
        out.append((Candidate(last, str(record.get("status") or AUTO_OK), tuple(record.get("reasons") or ()),
                              tuple(record.get("warnings") or ()), dict(record.get("provenance") or {})),
                    conversation))
    return out


@stage("conversations", pipeline=PIPELINE, after=("draft", "validate"),
       help="the conversations, validated turn by turn, with a status")
def conversations_stage(ctx: StageContext) -> dict[str, int]:
    """Each turn's list the previous turn's, less what the new instruction drops, plus it (with
    its translated kwargs); a conversation needs review when its turn 1 or a follow-up does, or
    when the validator finds an error in a turn (each turn as a row; ``turn_conflict``)."""
    turn1 = {str(c.row.key): c for c in read_candidates(ctx.folder / TURN1)}
    translated = {str(c.row.key): c for c in read_candidates(ctx.folder / trans_stages.ROWS)}
    built = [_conversation(turn1[str(d["key"])], d, translated) for _, d in read_jsonl(ctx.folder / DRAFTS)]
    findings = [f for _, c in built for f in [*turn_conflicts(c), *validate_rows(list(turn_rows(c)))]]
    write_jsonl(ctx.output(VALIDATION), (f.to_json() for f in findings))
    by_key: dict[str, list[tuple[bool, str]]] = {}
    for f in findings:
        if f.row is not None:
            key, _, turn = str(f.row.key).rpartition("/turn_")
            by_key.setdefault(key, []).append((f.is_error, f"turn {turn}: validate {f.check}: {f.message}"))
    records, dropped = [], 0
    for candidate, conversation in built:
        found = by_key.get(str(conversation.key), [])
        errors = [t for error, t in found if error]
        said = candidate.with_findings(list(dict.fromkeys(errors)),
                                       list(dict.fromkeys([*candidate.warnings, *(t for e, t in found if not e)])))
        records.append(conversation_record(said, conversation))
        dropped += sum(len(f["dropped"]) for f in said.provenance["follow_ups"])
    write_jsonl(ctx.output(ROWS), records)
    ok = sum(1 for r in records if r["status"] == AUTO_OK)
    return {"rows": len(records), AUTO_OK: ok, NEEDS_REVIEW: len(records) - ok,
            "turns": sum(len(r["turns"]) for r in records), "dropped": dropped,
            "errors": sum(f.is_error for f in findings), "warnings": sum(not f.is_error for f in findings)}


__all__ = ["DRAFTS", "FOLLOW_UPS", "PIPELINE", "ROWS", "TURN1", "VALIDATION", "conversation_record",
           "conversations_stage", "draft_stage", "read_conversations"]
