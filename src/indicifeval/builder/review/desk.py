"""The review's domain, with no web code in it: the items of some build folders (one store
each), who reviews which, and what a person may do — judge an item, withdraw a verdict, fix a
keyword (an edit that reopens the item), adjudicate — each one transaction in the item's store.
The web app (``app.py``) only turns requests into these calls and their results into pages."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

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
        return role == "admin" or item_id in self.assigned(annotator)

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
        latest = self.latest()
        return next((i for i in self.assigned(annotator) if (i, annotator) not in latest), None)

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
        """Per annotator and language: items assigned, done, correct; ``annotator`` None: everyone."""
        latest = self.latest()
        table: dict[tuple[str, str], Counter] = defaultdict(Counter)
        for store in self.stores:
            names = {name for (_, name) in latest} | set(store.assignees())
            for name in sorted(names):
                if annotator is not None and name != annotator:
                    continue
                for item_id in store.assigned(name):
                    cell = table[name, item_id.split("/", 1)[0]]
                    cell["assigned"] += 1
                    verdict = latest.get((item_id, name))
                    if verdict is not None:
                        cell["done"] += 1
                        cell["correct"] += verdict.verdict == "correct"
        return [{"annotator": name, "language": lang, **cell} for (name, lang), cell in sorted(table.items())]

    def disagreements(self) -> list[dict[str, Any]]:
        """Items whose annotators gave different verdicts and no adjudicator has settled."""
        by_item: dict[str, dict[str, HumanVerdict]] = defaultdict(dict)
        settled = set()
        for (item_id, name), verdict in self.latest().items():
            if verdict.adjudication:
                settled.add(item_id)
            else:
                by_item[item_id][name] = verdict
        out = []
        for item_id, verdicts in sorted(by_item.items()):
            if item_id in settled or len({v.verdict for v in verdicts.values()}) < 2:
                continue
            found = self.find(item_id)
            prompt = found[1].row["prompt"] if found else ""
            out.append({"id": item_id, "prompt": prompt[:300],
                        "verdicts": [(name, v.verdict, v.comment) for name, v in sorted(verdicts.items())]})
        return out

    def close(self) -> None:
        for store in self.stores:
            store.close()


__all__ = ["FixOutcome", "ReviewDesk"]
