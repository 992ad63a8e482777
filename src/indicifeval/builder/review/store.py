"""The review state of one build folder, in SQLite (WAL, full sync): the items to judge, who
reviews what, sessions, and every verdict. A verdict is committed before the page that sent it
gets its answer, so a server killed while annotators work loses no saved verdict; an undo marks
a verdict withdrawn instead of deleting it, so the history stays whole.

Tokens are not stored here at all: the app checks them against the annotators file it was
started with (the file of names and tokens stays with whoever runs the app)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from indicifeval.core.files import ensure_folder
from indicifeval.records import HumanVerdict, ReviewItem
from indicifeval.records.layout import REVIEW_DB

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, position INTEGER, language TEXT, subset TEXT, key TEXT,
    workflow TEXT, row TEXT, source TEXT, status TEXT, reasons TEXT, findings TEXT);
CREATE TABLE IF NOT EXISTS assignments (item_id TEXT, annotator TEXT, PRIMARY KEY (item_id, annotator));
CREATE TABLE IF NOT EXISTS verdicts (id INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT, annotator TEXT,
    workflow TEXT, answers TEXT, verdict TEXT, comment TEXT, edit TEXT, at TEXT, adjudication INTEGER,
    withdrawn INTEGER DEFAULT 0);
CREATE INDEX IF NOT EXISTS verdicts_by_item ON verdicts (item_id, annotator);
CREATE TABLE IF NOT EXISTS edits (id INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT, annotator TEXT, at TEXT,
    kind TEXT, detail TEXT, before TEXT, after TEXT);
CREATE INDEX IF NOT EXISTS edits_by_item ON edits (item_id);
"""
REOPENED = 2  # verdicts.withdrawn: superseded by an edit made after it (1: withdrawn by its annotator)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class ReviewStore:
    """One build folder's ``review/review.sqlite``; safe to use from the server's threads."""

    def __init__(self, folder: str | Path, read_only: bool = False):
        """``read_only``: open an existing database without creating or changing anything
        (reports read it while the server may be writing)."""
        self.folder = Path(folder)
        path = self.folder / REVIEW_DB
        self._lock = threading.Lock()
        if read_only:
            self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            self._db.row_factory = sqlite3.Row
            return
        ensure_folder(path.parent)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _run(self, sql: str, args: tuple = ()) -> list[sqlite3.Row]:
        with self._lock:
            return list(self._db.execute(sql, args))

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        """Several statements in one transaction, committed (and synced) before returning."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    # -- items ------------------------------------------------------------------------------
    def put_items(self, items: list[ReviewItem]) -> None:
        """Add new items; an item already there keeps its state (its row may carry a fix)."""
        known = {r["id"] for r in self._run("SELECT id FROM items")}
        self._write([("INSERT INTO items VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                      (i.id, i.position, i.language, i.subset, i.key, i.workflow,
                       json.dumps(i.row, ensure_ascii=False), json.dumps(i.source, ensure_ascii=False),
                       i.status, json.dumps(list(i.reasons), ensure_ascii=False),
                       json.dumps(list(i.findings), ensure_ascii=False)))
                     for i in items if i.id not in known])

    def item(self, item_id: str) -> ReviewItem | None:
        rows = self._run("SELECT * FROM items WHERE id = ?", (item_id,))
        return _item(rows[0]) if rows else None

    def items(self) -> list[ReviewItem]:
        return [_item(r) for r in self._run("SELECT * FROM items ORDER BY position")]

    # -- assignments -------------------------------------------------------------
    def assign(self, pairs: list[tuple[str, str]]) -> None:
        self._write([("INSERT OR IGNORE INTO assignments VALUES (?,?)", pair) for pair in pairs])

    def assigned(self, annotator: str) -> list[str]:
        return [r["item_id"] for r in self._run(
            "SELECT a.item_id FROM assignments a JOIN items i ON i.id = a.item_id WHERE a.annotator = ? "
            "ORDER BY i.position", (annotator,))]

    def assignees(self) -> list[str]:
        """The annotators with at least one item here."""
        return [r["annotator"] for r in self._run("SELECT DISTINCT annotator FROM assignments ORDER BY annotator")]

    def assignments(self) -> set[str]:
        return {r["item_id"] for r in self._run("SELECT DISTINCT item_id FROM assignments")}

    def progress(self) -> dict[str, tuple[int, int]]:
        """annotator -> (items assigned, items with a standing verdict of their own)."""
        assigned = {r["annotator"]: r["n"] for r in self._run(
            "SELECT annotator, COUNT(*) AS n FROM assignments GROUP BY annotator")}
        done = {r["annotator"]: r["n"] for r in self._run(
            "SELECT annotator, COUNT(DISTINCT item_id) AS n FROM verdicts WHERE withdrawn = 0 AND adjudication = 0 "
            "GROUP BY annotator")}
        return {name: (assigned.get(name, 0), done.get(name, 0)) for name in sorted(set(assigned) | set(done))}

    # -- verdicts -----------------------------------------------------------------------------
    def save(self, verdict: HumanVerdict) -> None:
        self._write([("INSERT INTO verdicts (item_id, annotator, workflow, answers, verdict, comment, edit, at, "
                      "adjudication) VALUES (?,?,?,?,?,?,?,?,?)",
                      (verdict.item_id, verdict.annotator, verdict.workflow,
                       json.dumps(verdict.answers, ensure_ascii=False), verdict.verdict, verdict.comment,
                       json.dumps(verdict.edit, ensure_ascii=False) if verdict.edit else None,
                       verdict.at or now_iso(), int(verdict.adjudication)))])

    def undo(self, item_id: str, annotator: str) -> bool:
        rows = self._run("SELECT id FROM verdicts WHERE item_id = ? AND annotator = ? AND withdrawn = 0 "
                         "ORDER BY id DESC LIMIT 1", (item_id, annotator))
        if not rows:
            return False
        self._write([("UPDATE verdicts SET withdrawn = 1 WHERE id = ?", (rows[0]["id"],))])
        return True

    # -- edits --------------------------------------------------------------------------------
    def save_edit(self, item_id: str, annotator: str, kind: str, detail: dict, after: dict,
                  findings: list[dict]) -> int:
        """Record an edit of an item's row with who, when, what and the row before and after, in
        one transaction with the row itself; every verdict standing on the item (approvals
        included, the editor's own too) is reopened: nobody has judged the edited row yet.
        Returns how many verdicts were reopened."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                rows = list(self._db.execute("SELECT row FROM items WHERE id = ?", (item_id,)))
                if not rows:
                    raise KeyError(item_id)
                before = rows[0]["row"]
                self._db.execute("INSERT INTO edits (item_id, annotator, at, kind, detail, before, after) "
                                 "VALUES (?,?,?,?,?,?,?)",
                                 (item_id, annotator, now_iso(), kind, json.dumps(detail, ensure_ascii=False), before,
                                  json.dumps(after, ensure_ascii=False)))
                self._db.execute("UPDATE items SET row = ?, findings = ? WHERE id = ?",
                                 (json.dumps(after, ensure_ascii=False), json.dumps(findings, ensure_ascii=False),
                                  item_id))
                reopened = self._db.execute("UPDATE verdicts SET withdrawn = ? WHERE item_id = ? AND withdrawn = 0",
                                            (REOPENED, item_id)).rowcount
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return int(reopened)

    def edits(self, item_id: str | None = None) -> list[dict[str, Any]]:
        """The edits (of one item, or all), oldest first: who, when, kind, detail, before, after."""
        where, args = ("WHERE item_id = ?", (item_id,)) if item_id is not None else ("", ())
        return [{"item_id": r["item_id"], "annotator": r["annotator"], "at": r["at"], "kind": r["kind"],
                 "detail": json.loads(r["detail"]), "before": json.loads(r["before"]), "after": json.loads(r["after"])}
                for r in self._run(f"SELECT * FROM edits {where} ORDER BY id", args)]

    def latest(self) -> dict[tuple[str, str], HumanVerdict]:
        """(item, annotator) -> the standing verdict (the last one not withdrawn)."""
        out: dict[tuple[str, str], HumanVerdict] = {}
        for r in self._run("SELECT * FROM verdicts WHERE withdrawn = 0 ORDER BY id"):
            out[r["item_id"], r["annotator"]] = HumanVerdict(
                r["item_id"], r["annotator"], r["workflow"], json.loads(r["answers"]), r["comment"] or "",
                json.loads(r["edit"]) if r["edit"] else None, r["at"], r["verdict"], bool(r["adjudication"]))
        return out


def _item(r: sqlite3.Row) -> ReviewItem:
    row = json.loads(r["row"])
    row.pop("_edit", None)  # folders reviewed before edits had their own table carried them in the row
    return ReviewItem(r["id"], r["position"], r["workflow"], row, json.loads(r["source"]) if r["source"] else None,
                      r["status"], tuple(json.loads(r["reasons"])), tuple(json.loads(r["findings"])))


__all__ = ["ReviewStore", "now_iso", "token_hash"]
