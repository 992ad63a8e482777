"""The review's domain, with no web code in it: the items of some build folders (one store
each), who reviews which, and what a person may do — judge an item, withdraw a verdict, fix a
keyword (an edit that reopens the item), adjudicate — each one transaction in the item's store.
The web app (``app.py``) only turns requests into these calls and their results into pages."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, overload

from indicifeval.builder.review.items import fix_keyword, revalidate, verdict_of, workflows
from indicifeval.builder.review.store import ReviewStore, now_iso
from indicifeval.core.errors import InputError
from indicifeval.records import HumanVerdict, ReviewItem

VERDICTS = ("correct", "incorrect")
MAX_COMMENT = 2000


@dataclass(frozen=True)
class FixOutcome:
    """A keyword fix: the validator's errors on the edited row, and the verdicts it reopened."""

    errors: int
    reopened: int


class Queue(Sequence[str]):
    """An annotator's items across the stores, in order: its length, an item's place and the
    item at a place each one indexed look-up, so no page loads the whole queue."""

    def __init__(self, stores: list[ReviewStore], annotator: str):
        self.annotator = annotator
        self._parts = [(store, store.queue_length(annotator)) for store in stores]

    def __len__(self) -> int:
        return sum(n for _, n in self._parts)

    @overload
    def __getitem__(self, at: int) -> str: ...

    @overload
    def __getitem__(self, at: slice) -> Sequence[str]: ...

    def __getitem__(self, at: int | slice) -> str | Sequence[str]:
        if isinstance(at, slice):
            return [self[i] for i in range(*at.indices(len(self)))]
        place = at + len(self) if at < 0 else at
        for store, n in self._parts:
            if place < n:
                found = store.queue_at(self.annotator, place)
                if found is not None:
                    return found
                break
            place -= n
        raise IndexError(at)

    def index(self, item_id: object, start: int = 0, stop: int | None = None) -> int:
        offset = 0
        for store, n in self._parts:
            place = store.queue_place(str(item_id), self.annotator)
            if place is not None:
                return offset + place
            offset += n
        raise ValueError(item_id)

    def __contains__(self, item_id: object) -> bool:
        return any(store.is_assigned(str(item_id), self.annotator) for store, _ in self._parts)


class ReviewDesk:
    def __init__(self, stores: list[ReviewStore]):
        self.stores = stores

    # -- reading --------------------------------------------------------------------------------
    def find(self, item_id: str) -> tuple[ReviewStore, ReviewItem] | None:
        for store in self.stores:
            item = store.item(item_id)
            if item is not None:
                return store, item
        return None

    def items(self) -> list[ReviewItem]:
        return [i for store in self.stores for i in store.items()]

    def assigned(self, annotator: str) -> list[str]:
        return [i for store in self.stores for i in store.assigned(annotator)]

    def may_judge(self, annotator: str, role: str, item_id: str) -> bool:
        return role == "admin" or any(store.is_assigned(item_id, annotator) for store in self.stores)

    def mine(self, item_id: str, annotator: str) -> dict[tuple[str, str], HumanVerdict]:
        """The annotator's standing verdict on one item, keyed as ``latest()`` (one look-up)."""
        found = self.find(item_id)
        verdict = found[0].standing(item_id, annotator) if found else None
        return {(item_id, annotator): verdict} if verdict else {}

    def queue(self, annotator: str) -> Queue:
        """The annotator's items in order, read place by place (a page needs its neighbours)."""
        return Queue(self.stores, annotator)

    def latest(self) -> dict[tuple[str, str], HumanVerdict]:
        out: dict[tuple[str, str], HumanVerdict] = {}
        for store in self.stores:
            out.update(store.latest())
        return out

    def edits(self, item_id: str) -> list[dict[str, Any]]:
        found = self.find(item_id)
        return found[0].edits(item_id) if found else []

    def next_for(self, annotator: str) -> str | None:
        """The first item assigned to ``annotator`` that has no standing verdict of theirs."""
        return next((i for i in (store.next_open(annotator) for store in self.stores) if i is not None), None)

    # -- acting ---------------------------------------------------------------------------------
    def judge(self, annotator: str, item_id: str, answers: dict[str, str], comment: str = "") -> str | None:
        """Save ``annotator``'s answers about the item; returns the verdict they mean, or None
        (nothing saved) while a question of the workflow is unanswered."""
        store, item = self._found(item_id)
        questions = workflows()[item.workflow]["questions"]
        answers = {q["id"]: str(answers.get(q["id"], "")) for q in questions}
        verdict = verdict_of(item.workflow, answers)
        if verdict is None:
            return None
        mine = [e["detail"] for e in store.edits(item_id) if e["annotator"] == annotator]
        edit = {"keywords": mine, "by": annotator} if mine else None
        store.save(HumanVerdict(item_id, annotator, item.workflow, answers, comment[:MAX_COMMENT], edit, now_iso(),
                                verdict))
        return verdict

    def withdraw(self, annotator: str, item_id: str) -> bool:
        store, _ = self._found(item_id)
        return store.undo(item_id, annotator)

    def fix_keyword(self, annotator: str, item_id: str, old: str, new: str) -> FixOutcome:
        """Map keyword ``old`` to ``new`` in the item's prompt and kwargs, re-validate, and store
        the edit (who, when, before and after); every verdict standing on the item is reopened.
        Raises InputError when the workflow allows no edit or ``old`` is not a keyword."""
        store, item = self._found(item_id)
        if workflows()[item.workflow].get("edit") != "keyword":
            raise InputError("this workflow allows no edit", field="keyword")
        row = fix_keyword(item.row, old, new)
        findings = revalidate(item, row)
        reopened = store.save_edit(item_id, annotator, "keyword", {"from": old.strip(), "to": new.strip()}, row,
                                   findings)
        return FixOutcome(sum(1 for f in findings if f.get("severity") == "error"), reopened)

    def adjudicate(self, admin: str, item_id: str, verdict: str, comment: str = "") -> None:
        if verdict not in VERDICTS:
            raise InputError(f"a verdict is one of {', '.join(VERDICTS)}", field="verdict")
        store, _ = self._found(item_id)
        store.save(HumanVerdict(item_id, admin, "adjudication", {"verdict": verdict}, comment[:MAX_COMMENT], None,
                                now_iso(), verdict, True))

    def _found(self, item_id: str) -> tuple[ReviewStore, ReviewItem]:
        found = self.find(item_id)
        if found is None:
            raise InputError(f"no item {item_id!r}", field="item")
        return found

    # -- summaries ------------------------------------------------------------------------------
    def progress_rows(self, annotator: str | None) -> list[dict[str, Any]]:
        """Per annotator and language: items assigned, done, correct; ``annotator`` None: everyone
        (the counts each store keeps as verdicts are saved)."""
        table: dict[tuple[str, str], Counter] = defaultdict(Counter)
        for store in self.stores:
            for row in store.tally(annotator):
                table[row["annotator"], row["language"]].update(
                    {k: row[k] for k in ("assigned", "done", "correct")})
        return [{"annotator": name, "language": lang, "assigned": cell["assigned"], "done": cell["done"],
                 "correct": cell["correct"]} for (name, lang), cell in sorted(table.items())]

    def disagreement_count(self) -> int:
        return sum(store.dispute_count() for store in self.stores)

    def disagreements(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Items whose annotators gave different verdicts and no adjudicator has settled (kept as
        verdicts are saved), by id; at most ``limit`` of them."""
        out: list[dict[str, Any]] = []
        for store in self.stores:
            for item, verdicts in store.disputes(None if limit is None else limit - len(out)):
                out.append({"id": item.id, "prompt": item.row["prompt"][:300],
                            "verdicts": [(v.annotator, v.verdict, v.comment) for v in verdicts]})
        return sorted(out, key=lambda d: d["id"])

    def close(self) -> None:
        for store in self.stores:
            store.close()

    def standing(self, item_id: str) -> dict[str, HumanVerdict]:
        """annotator -> their standing verdict on one item (answers and comment included), read
        by the item's index: what the adjudicator compares side by side."""
        found = self.find(item_id)
        if found is None:
            return {}
        rows = found[0]._run("SELECT * FROM verdicts WHERE item_id = ? AND withdrawn = 0 ORDER BY id", (item_id,))
        return {r["annotator"]: HumanVerdict(r["item_id"], r["annotator"], r["workflow"], json.loads(r["answers"]),
                                             r["comment"] or "", json.loads(r["edit"]) if r["edit"] else None,
                                             r["at"], r["verdict"], bool(r["adjudication"])) for r in rows}


__all__ = ["FixOutcome", "ReviewDesk"]
