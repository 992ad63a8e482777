"""The review's domain, with no web code in it: the items of some build folders (one store
each), who reviews which, and what a person may do — judge an item, withdraw a verdict, fix a
keyword (an edit that reopens the item), adjudicate — each one transaction in the item's store,
through the store's public methods. A row the validator refuses is called correct only with an
explicit override, recorded with the verdict. The web app (``app.py``) only turns requests into
these calls and their results into pages."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, overload

from indicifeval.builder.review.items import (
    OVERRIDE,
    edited,
    fix_keyword,
    revalidate,
    validation_errors,
    verdict_of,
    workflows,
)
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


def _prefix(item_id: str) -> str:
    """``language/subset`` of an item id: which build folders may hold it."""
    return "/".join(item_id.split("/", 2)[:2])


class Queue(Sequence[str]):
    """An annotator's items across the stores, in order: its length, an item's place and the
    item at a place each one indexed look-up, so no page loads the whole queue."""

    def __init__(self, parts: list[tuple[ReviewStore, int]], annotator: str,
                 holders: Callable[[str], list[ReviewStore]]):
        self.annotator = annotator
        self._parts = parts
        self._holders = holders

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
        holders, offset = self._holders(str(item_id)), 0
        for store, n in self._parts:
            place = store.queue_place(str(item_id), self.annotator) if store in holders else None
            if place is not None:
                return offset + place
            offset += n
        raise ValueError(item_id)

    def __contains__(self, item_id: object) -> bool:
        return any(store.is_assigned(str(item_id), self.annotator) for store in self._holders(str(item_id)))


class ReviewDesk:
    def __init__(self, stores: list[ReviewStore]):
        """``stores`` with their items and assignments in place (what the desk learns of them
        here, which folders hold which ids and the length of each queue, stays as it is)."""
        self.stores = stores
        self._by_prefix: dict[str, list[ReviewStore]] = {}
        for store in stores:
            for prefix in sorted({_prefix(i) for i in store.item_ids()}):
                self._by_prefix.setdefault(prefix, []).append(store)
        self._queues: dict[str, list[tuple[ReviewStore, int]]] = {}

    def _holders(self, item_id: str) -> list[ReviewStore]:
        return self._by_prefix.get(_prefix(item_id), [])

    # -- reading --------------------------------------------------------------------------------
    def find(self, item_id: str) -> tuple[ReviewStore, ReviewItem] | None:
        for store in self._holders(item_id):
            item = store.item(item_id)
            if item is not None:
                return store, item
        return None

    def store_of(self, item_id: str) -> ReviewStore | None:
        """The store holding the item, by its key alone (nothing decoded)."""
        return next((store for store in self._holders(item_id) if store.has_item(item_id)), None)

    def items(self) -> list[ReviewItem]:
        return [i for store in self.stores for i in store.items()]

    def assigned(self, annotator: str) -> list[str]:
        return [i for store in self.stores for i in store.assigned(annotator)]

    def may_judge(self, annotator: str, role: str, item_id: str) -> bool:
        return role == "admin" or any(store.is_assigned(item_id, annotator) for store in self._holders(item_id))

    def mine(self, item_id: str, annotator: str) -> dict[tuple[str, str], HumanVerdict]:
        """The annotator's standing verdict on one item, keyed as ``latest()`` (one look-up)."""
        store = self.store_of(item_id)
        verdict = store.standing(item_id, annotator) if store else None
        return {(item_id, annotator): verdict} if verdict else {}

    def queue(self, annotator: str) -> Queue:
        """The annotator's items in order, read place by place (a page needs its neighbours)."""
        if annotator not in self._queues:
            self._queues[annotator] = [(store, store.queue_length(annotator)) for store in self.stores]
        return Queue(self._queues[annotator], annotator, self._holders)

    def latest(self) -> dict[tuple[str, str], HumanVerdict]:
        out: dict[tuple[str, str], HumanVerdict] = {}
        for store in self.stores:
            out.update(store.latest())
        return out

    def edits(self, item_id: str) -> list[dict[str, Any]]:
        store = self.store_of(item_id)
        return store.edits(item_id) if store else []

    def next_for(self, annotator: str) -> str | None:
        """The first item assigned to ``annotator`` that has no standing verdict of theirs."""
        return next((i for i in (store.next_open(annotator) for store in self.stores) if i is not None), None)

    # -- acting ---------------------------------------------------------------------------------
    def judge(self, annotator: str, item_id: str, answers: dict[str, str], comment: str = "",
              found: tuple[ReviewStore, ReviewItem] | None = None, override: bool = False) -> str | None:
        """Save ``annotator``'s answers about the item (``found``: its store and item, when the
        caller has them); returns the verdict they mean, or None (nothing saved) while a
        question of the workflow is unanswered. A "correct" on a row the validator refuses
        needs ``override`` (else InputError naming the field), and records it."""
        store, item = found if found is not None and found[1].id == item_id else self._found(item_id)
        questions = workflows()[item.workflow]["questions"]
        answers = {q["id"]: str(answers.get(q["id"], "")) for q in questions}
        verdict = verdict_of(item.workflow, answers)
        if verdict is None:
            return None
        answers |= _overridden(item, verdict, override)
        mine = [e["detail"] for e in store.edits(item_id) if e["annotator"] == annotator]
        edit = {"keywords": mine, "by": annotator} if mine else None
        store.save(HumanVerdict(item_id, annotator, item.workflow, answers, comment[:MAX_COMMENT], edit, now_iso(),
                                verdict))
        return verdict

    def withdraw(self, annotator: str, item_id: str) -> bool:
        store = self.store_of(item_id)
        if store is None:
            raise InputError(f"no item {item_id!r}", field="item")
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
        reopened = store.save_edit(item_id, annotator, "keyword", {"from": old.strip(), "to": new.strip()},
                                   edited(item.candidate, row, findings), findings)
        return FixOutcome(sum(1 for f in findings if f.get("severity") == "error"), reopened)

    def adjudicate(self, admin: str, item_id: str, verdict: str, comment: str = "", override: bool = False) -> None:
        """The adjudicator's final word; a "correct" on a row the validator refuses needs
        ``override``, as an annotator's does."""
        if verdict not in VERDICTS:
            raise InputError(f"a verdict is one of {', '.join(VERDICTS)}", field="verdict")
        store, item = self._found(item_id)
        answers = {"verdict": verdict} | _overridden(item, verdict, override)
        store.save(HumanVerdict(item_id, admin, "adjudication", answers, comment[:MAX_COMMENT], None, now_iso(),
                                verdict, True))

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
                out.append({"id": item.id, "prompt": item.row.prompt[:300],
                            "verdicts": [(v.annotator, v.verdict, v.comment) for v in verdicts]})
        return sorted(out, key=lambda d: d["id"])

    def close(self) -> None:
        for store in self.stores:
            store.close()

    def standing(self, item_id: str) -> dict[str, HumanVerdict]:
        """annotator -> their standing verdict on one item (answers and comment included), read
        by the item's index: what the adjudicator compares side by side."""
        store = self.store_of(item_id)
        return {v.annotator: v for v in store.verdicts_on(item_id)} if store else {}


def _overridden(item: ReviewItem, verdict: str, override: bool) -> dict[str, str]:
    """What a verdict records of the validation override: nothing unless the row fails
    validation and the verdict calls it correct; then the override must have been given."""
    errors = validation_errors(item)
    if verdict != "correct" or not errors:
        return {}
    if not override:
        raise InputError(f"this row fails validation ({'; '.join(errors)}): marking it correct needs "
                         f"{OVERRIDE}=yes, the explicit override", field=OVERRIDE)
    return {OVERRIDE: "yes"}


__all__ = ["FixOutcome", "ReviewDesk"]
