"""What is reviewed: the rows of build folders as items (read through the one candidates
reader), each with its workflow, its English source, the validator's findings and the automatic
status; who reviews which item; what a row failing validation needs before it may be called
correct; and the one edit an annotator may make, fixing a keyword mapping (prompt and kwargs
together, re-validated at once; stored as an edit in the review database, never in the build's
rows file)."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import regex

from indicifeval.builder.candidates import read_candidates
from indicifeval.builder.multiturn.stages import read_conversations
from indicifeval.checkers import lexical_kwargs
from indicifeval.core.errors import InputError
from indicifeval.dataset import load_rows
from indicifeval.dataset.validation import validate_rows
from indicifeval.records import MULTITURN, Candidate, Conversation, ReviewItem, Row
from indicifeval.records.layout import BUILD_ROWS, MULTITURN_ROWS

OVERRIDE = "approve_despite_validation"  # the form field, and the answer a verdict records it as
VALIDATE = "validate "  # how a validator error is worded among a candidate's reasons
_TURN_VALIDATE = re.compile(r"turn \d+: validate ")  # ... among a conversation's, turn by turn
CONVERSATION = "conversation"  # a conversation item's provenance: the whole conversation (our own line)


@lru_cache(maxsize=1)
def workflows() -> dict[str, Any]:
    text = resources.files("indicifeval.builder.review").joinpath("workflows.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(text).items() if not k.startswith("_")}


def has_keywords(row: Row) -> bool:
    return any(kw.get(name) for iid, kw in zip(row.instruction_id_list, row.kwargs)
               for name in lexical_kwargs(iid) if name != "letter")


def workflow_of(row: Row) -> str:
    for name, flow in workflows().items():
        applies = flow["applies"]
        if applies["subset"] == row.subset and applies.get("keywords", has_keywords(row)) == has_keywords(row):
            return name
    raise InputError(f"no review workflow for subset {row.subset!r}")


def verdict_of(workflow: str, answers: dict[str, str]) -> str | None:
    """correct when every question has an ok answer; None while a question is unanswered."""
    ok = {q["id"]: {o["value"]: o["ok"] for o in q["options"]} for q in workflows()[workflow]["questions"]}
    if set(ok) - set(answers) or any(answers[q] not in ok[q] for q in ok):
        return None
    return "correct" if all(ok[q][answers[q]] for q in ok) else "incorrect"


def unanswered(workflow: str, answers: dict[str, str]) -> list[dict[str, Any]]:
    """The workflow's questions that ``answers`` leaves open (or answers with a value that is
    none of its options), each with its number and text: what a refused save names."""
    out = []
    for n, q in enumerate(workflows()[workflow]["questions"], 1):
        value = answers.get(q["id"], "")
        if value not in {o["value"] for o in q["options"]}:
            out.append({"n": n, "id": q["id"], "text": q["text"], "invalid": bool(value)})
    return out


def validation_errors(item: ReviewItem) -> list[str]:
    """What the validator refuses in the item's row as it stands: its own errors on the row
    (found again after every edit) and the build's ``validate …`` reasons (an edit replaces those)."""
    found = [f"{VALIDATE}{f.get('check')}: {f.get('message')}" for f in item.findings if f.get("severity") == "error"]
    return list(dict.fromkeys([*found, *(r for r in item.reasons if r.startswith(VALIDATE) or
                                         _TURN_VALIDATE.match(r))]))


def rows_file(folder: Path, subset: str) -> Path:
    final, assembled, _ = BUILD_ROWS[subset]
    return folder / final if (folder / final).is_file() else folder / assembled


def _findings(rows: list[Row], source: list[Row] | None) -> dict[str, list[dict]]:
    found: dict[str, list[dict]] = {}
    for f in validate_rows(rows, source) if source else validate_rows(rows):
        if f.row is not None:
            found.setdefault(str(f.row), []).append(f.to_json())
    return found


def conversation_of(candidate: Candidate) -> Conversation | None:
    """The whole conversation a conversation item's candidate carries; None for a row's."""
    record = candidate.provenance.get(CONVERSATION)
    return Conversation.from_json(record) if candidate.row.subset == MULTITURN and isinstance(record, dict) else None


def conversation_candidate(record: dict) -> Candidate:
    """A conversation item's candidate as stored (its row the last turn's, id the conversation's)."""
    conversation = Conversation.from_json(record["provenance"][CONVERSATION])
    return replace(Candidate.from_json(record), row=conversation.turn_row(len(conversation.turns)))


def conversation_items(folder: Path) -> list[ReviewItem]:
    """A multi-turn build folder's conversations, one item each (its id the conversation's,
    ``language/multiturn/KEY``): the reviewer judges the whole conversation, every turn's prompt
    and instruction list with the follow-ups' English (the candidate's provenance)."""
    items: list[ReviewItem] = []
    for candidate, conversation in read_conversations(folder / MULTITURN_ROWS):
        candidate = replace(candidate, provenance={**candidate.provenance, CONVERSATION: conversation.to_json()})
        items.append(ReviewItem(str(conversation.id), len(items), MULTITURN, candidate))
    return items


def load_items(folder: str | Path) -> list[ReviewItem]:
    """Every row of a build folder's Trans and Ground rows, as review items, in file order; a
    multi-turn build folder's conversations (its ``trans/rows.jsonl`` holds their follow-ups)."""
    folder = Path(folder)
    if (folder / MULTITURN_ROWS).is_file():
        return conversation_items(folder)
    items: list[ReviewItem] = []
    for subset, (_, _, made_from) in BUILD_ROWS.items():
        path = rows_file(folder, subset)
        if not path.is_file():
            continue
        candidates = read_candidates(path, subset=subset)
        source = _source_rows(folder / made_from) if made_from else None
        by_key = {str(r.key): r for r in source or []}
        findings = _findings([c.row for c in candidates], source)
        for candidate in candidates:
            item_id = str(candidate.row.id)
            items.append(ReviewItem(item_id, len(items), workflow_of(candidate.row), candidate,
                                    by_key.get(str(candidate.row.key)), tuple(findings.get(item_id, []))))
    if not items:
        raise InputError("the build folder has no rows to review (trans/rows.jsonl or ground/rows.jsonl)",
                         str(folder))
    return items


def _source_rows(path: Path) -> list[Row] | None:
    """The English rows a pipeline's rows were made from; None without them."""
    if not path.is_file() or not path.read_bytes().strip():
        return None
    return load_rows(path, defaults=("en", "trans"))


def _unit(seed: int, *parts: str) -> float:
    return int.from_bytes(hashlib.sha256("\n".join([str(seed), *parts]).encode("utf-8")).digest()[:8], "big") / 2**64


def plan_assignments(item_ids: list[str], annotators: list[str], overlap: float,
                     seed: int = 0) -> list[tuple[str, str]]:
    """Each item to one annotator (in turn, in a seeded order), and a share ``overlap`` of the
    items to a second one as well: the items agreement is measured on."""
    if not annotators:
        return []
    order = sorted(item_ids, key=lambda i: _unit(seed, "order", i))
    pairs = []
    for n, item in enumerate(order):
        first = n % len(annotators)
        pairs.append((item, annotators[first]))
        if len(annotators) > 1 and _unit(seed, "overlap", item) < overlap:
            pairs.append((item, annotators[(first + 1) % len(annotators)]))
    return pairs


def fix_keyword(row: Row, old: str, new: str) -> Row:
    """The row with keyword ``old`` mapped to ``new``: in the prompt (whole words) and in every
    lexical kwarg that has it. Refused when ``old`` is not one of the row's keywords."""
    old, new = old.strip(), new.strip()
    if not old or not new or "\n" in new:
        raise InputError("a keyword fix needs the keyword and its new form, on one line", field="keyword")
    kwargs, found = [], False
    for iid, kw in zip(row.instruction_id_list, row.kwargs):
        kw = dict(kw)
        for name in lexical_kwargs(iid):
            value = kw.get(name)
            if isinstance(value, list) and old in value:
                kw[name], found = [new if v == old else v for v in value], True
            elif value == old:
                kw[name], found = new, True
        kwargs.append(kw)
    if not found:
        raise InputError(f"{old!r} is not one of this row's keywords", field="keyword")
    pattern = regex.compile(r"(?<![\p{L}\p{M}\p{N}])" + regex.escape(old) + r"(?![\p{L}\p{M}\p{N}])")
    return replace(row, prompt=pattern.sub(lambda m: new, row.prompt), kwargs=tuple(kwargs))


def revalidate(item: ReviewItem, row: Row) -> list[dict]:
    """The validator's findings on ``row`` (the item's row as edited), against its source."""
    return _findings([row], [item.source] if item.source else None).get(item.id, [])


def edited(candidate: Candidate, row: Row, findings: list[dict]) -> Candidate:
    """The candidate with its row edited: the validator's say on the new row replaces its
    ``validate …`` reasons and warnings, as the build's validate stage would have put them."""
    said = [(f.get("severity") == "error", f"{VALIDATE}{f.get('check')}: {f.get('message')}") for f in findings]
    kept = replace(candidate, row=row, reasons=tuple(r for r in candidate.reasons if not r.startswith(VALIDATE)))
    return kept.with_findings([t for error, t in said if error], [t for error, t in said if not error])


__all__ = ["CONVERSATION", "OVERRIDE", "conversation_candidate", "conversation_items", "conversation_of", "edited",
           "fix_keyword", "has_keywords", "load_items", "plan_assignments", "revalidate",
           "unanswered", "validation_errors", "verdict_of", "workflow_of", "workflows"]
