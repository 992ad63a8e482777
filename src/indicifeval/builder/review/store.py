"""The review state of one build folder, in SQLite: the items to judge, who reviews what, and
every verdict (the log: an undo marks a verdict withdrawn instead of deleting it, so the history
stays whole), with what stands kept beside it (``standing.py``) so that a page or a save costs
O(log n) of the project's size.

WAL mode, one writer path (one connection behind a lock; every write one transaction) and a
reader connection per thread, so pages read while a verdict commits. A verdict is committed
before the page that sent it gets its answer. ``synchronous=NORMAL`` (the default here) keeps
every committed verdict through a kill of the server process — the WAL is written before the
commit returns, only its sync to the disk waits for a checkpoint — and loses at most the last
moments' commits to a power cut or an operating-system crash; ``sync="full"`` syncs every
commit (about 10 ms each on a common disk).

Tokens are not stored here (``auth.py`` keeps its own file)."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from indicifeval.builder.candidates import candidate_record, parse_candidate
from indicifeval.builder.review import standing
from indicifeval.builder.review.items import conversation_candidate
from indicifeval.core.errors import InputError, Source
from indicifeval.core.files import ensure_folder
from indicifeval.dataset import parse_row
from indicifeval.records import MULTITURN, Candidate, HumanVerdict, ReviewItem
from indicifeval.records.layout import REVIEW_DB

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, position INTEGER, language TEXT, subset TEXT, key TEXT,
    workflow TEXT, row TEXT, source TEXT, status TEXT, reasons TEXT, findings TEXT);
CREATE TABLE IF NOT EXISTS assignments (item_id TEXT, annotator TEXT, seq INTEGER, open INTEGER DEFAULT 1,
    PRIMARY KEY (item_id, annotator));
CREATE TABLE IF NOT EXISTS verdicts (id INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT, annotator TEXT,
    workflow TEXT, answers TEXT, verdict TEXT, comment TEXT, edit TEXT, at TEXT, adjudication INTEGER,
    withdrawn INTEGER DEFAULT 0);
CREATE TABLE IF NOT EXISTS edits (id INTEGER PRIMARY KEY AUTOINCREMENT, item_id TEXT, annotator TEXT, at TEXT,
    kind TEXT, detail TEXT, before TEXT, after TEXT);
CREATE INDEX IF NOT EXISTS edits_by_item ON edits (item_id);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)
"""
SCHEMA_VERSION = 2  # 2: the standing tables (current, tally, disputes, queues) kept beside the log
REOPENED = 2  # verdicts.withdrawn: superseded by an edit made after it (1: withdrawn by its annotator)
SYNC_MODES = ("normal", "full")
_VERDICT = "SELECT v.* FROM current c JOIN verdicts v ON v.id = c.verdict_id"


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class ReviewStore:
    """One build folder's ``review/review.sqlite``; safe to use from the server's threads."""

    def __init__(self, folder: str | Path, read_only: bool = False, sync: str = "normal"):
        """``read_only``: open an existing database without creating or changing anything
        (reports read it while the server may be writing); one made by an earlier version is
        read through an upgraded copy in memory."""
        self.folder = Path(folder)
        self.path = self.folder / REVIEW_DB
        self._lock = threading.Lock()  # the one writer path
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._shared: sqlite3.Connection | None = None  # one connection for everything (a copy in memory)
        self._db: sqlite3.Connection | None = None
        self._read_only = read_only
        if read_only:
            db = self._connect()
            if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                memory = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
                db.backup(memory)
                db.close()
                standing.upgrade(memory, _SCHEMA, SCHEMA_VERSION)
                memory.row_factory = sqlite3.Row
                self._shared = memory
            else:
                self._keep_reader(db)
            return
        if sync not in SYNC_MODES:
            raise InputError(f"sync is one of {', '.join(SYNC_MODES)}", field="sync")
        ensure_folder(self.path.parent)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        with self._lock:
            self._db.execute("PRAGMA busy_timeout = 10000")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={sync.upper()}")
            standing.upgrade(self._db, _SCHEMA, SCHEMA_VERSION)

    def _connect(self) -> sqlite3.Connection:
        uri = self.path.resolve().as_uri() + ("?mode=ro" if self._read_only else "")
        db = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA busy_timeout = 10000")
        db.execute("PRAGMA query_only = ON")
        return db

    def _keep_reader(self, db: sqlite3.Connection) -> sqlite3.Connection:
        self._local.db = db
        with self._lock:
            self._readers.append(db)
        return db

    def close(self) -> None:
        with self._lock:
            for db in [self._db, self._shared, *self._readers]:
                if db is not None:
                    db.close()
            self._readers.clear()

    def _run(self, sql: str, args: tuple = ()) -> list[sqlite3.Row]:
        """A read, on this thread's own connection (it sees every committed write)."""
        if self._shared is not None:
            with self._lock:
                return list(self._shared.execute(sql, args))
        db = getattr(self._local, "db", None) or self._keep_reader(self._connect())
        return list(db.execute(sql, args))

    def _one(self, sql: str, args: tuple = ()) -> sqlite3.Row | None:
        rows = self._run(sql, args)
        return rows[0] if rows else None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on the writer, committed before the block's caller goes on."""
        if self._db is None:
            raise InputError("this review database was opened read-only", str(self.path))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def journal_mode(self) -> str:
        return str(self._run("PRAGMA journal_mode")[0][0])

    # -- items ------------------------------------------------------------------------------
    def put_items(self, items: list[ReviewItem]) -> None:
        """Add new items; an item already there keeps its state (its row may carry a fix)."""
        known = {r["id"] for r in self._run("SELECT id FROM items")}
        with self._transaction() as db:
            db.executemany("INSERT INTO items VALUES (?,?,?,?,?,?,?,?,?,?,?)", [
                (i.id, i.position, i.language, i.subset, i.key, i.workflow, _json(candidate_record(i.candidate)),
                 _json(i.source.to_json() if i.source else None), i.status, _json(list(i.reasons)),
                 _json(list(i.findings))) for i in items if i.id not in known])

    def item(self, item_id: str) -> ReviewItem | None:
        row = self._one("SELECT * FROM items WHERE id = ?", (item_id,))
        return _item(row) if row else None

    def item_ids(self) -> list[str]:
        return [r["id"] for r in self._run("SELECT id FROM items ORDER BY position")]

    def has_item(self, item_id: str) -> bool:
        return self._one("SELECT 1 FROM items WHERE id = ?", (item_id,)) is not None

    def items(self) -> list[ReviewItem]:
        return [_item(r) for r in self._run("SELECT * FROM items ORDER BY position")]

    def item_count(self) -> int:
        return int(self._run("SELECT COUNT(*) FROM items")[0][0])

    # -- assignments -------------------------------------------------------------
    def assign(self, pairs: list[tuple[str, str]]) -> None:
        """Add (item, annotator) pairs; each annotator's queue is ordered again."""
        with self._transaction() as db:
            db.executemany("INSERT OR IGNORE INTO assignments (item_id, annotator) VALUES (?,?)", pairs)
            if pairs:
                standing.rebuild(db)

    def reassign(self, pairs: list[tuple[str, str]]) -> int:
        """Replace the assignments with ``pairs``; a pair whose annotator has a verdict standing
        on the item stays too (their work stays theirs). Verdicts are never touched. Returns how
        many pairs were kept that way."""
        with self._transaction() as db:
            db.execute("CREATE TEMP TABLE IF NOT EXISTS planned (item_id TEXT, annotator TEXT, "
                       "PRIMARY KEY (item_id, annotator))")
            db.execute("DELETE FROM planned")
            db.executemany("INSERT OR IGNORE INTO planned VALUES (?,?)", pairs)
            kept = db.execute("SELECT COUNT(*) FROM assignments a JOIN current c ON c.item_id = a.item_id AND "
                              "c.annotator = a.annotator WHERE NOT EXISTS (SELECT 1 FROM planned p WHERE "
                              "p.item_id = a.item_id AND p.annotator = a.annotator)").fetchone()[0]
            db.execute("DELETE FROM assignments WHERE NOT EXISTS (SELECT 1 FROM planned p WHERE p.item_id = "
                       "assignments.item_id AND p.annotator = assignments.annotator) AND NOT EXISTS (SELECT 1 FROM "
                       "current c WHERE c.item_id = assignments.item_id AND c.annotator = assignments.annotator)")
            db.execute("INSERT OR IGNORE INTO assignments (item_id, annotator) SELECT item_id, annotator FROM planned")
            db.execute("DROP TABLE planned")
            standing.rebuild(db)
        return int(kept)

    def assigned(self, annotator: str) -> list[str]:
        """The annotator's items, in their order (all of them: for summaries, not per page)."""
        return [r["item_id"] for r in self._run(
            "SELECT item_id FROM assignments WHERE annotator = ? ORDER BY seq", (annotator,))]

    def is_assigned(self, item_id: str, annotator: str) -> bool:
        return self._one("SELECT 1 FROM assignments WHERE item_id = ? AND annotator = ?",
                         (item_id, annotator)) is not None

    def queue_length(self, annotator: str) -> int:
        row = self._one("SELECT SUM(assigned) FROM tally WHERE annotator = ?", (annotator,))
        return int(row[0] or 0) if row else 0

    def queue_at(self, annotator: str, seq: int) -> str | None:
        """The annotator's item at place ``seq`` (from 0) of their queue."""
        row = self._one("SELECT item_id FROM assignments WHERE annotator = ? AND seq = ?", (annotator, seq))
        return row["item_id"] if row else None

    def queue_place(self, item_id: str, annotator: str) -> int | None:
        row = self._one("SELECT seq FROM assignments WHERE item_id = ? AND annotator = ?", (item_id, annotator))
        return int(row["seq"]) if row else None

    def next_open(self, annotator: str) -> str | None:
        """The first item of the annotator's queue with no verdict of theirs standing."""
        row = self._one("SELECT item_id FROM assignments WHERE annotator = ? AND open = 1 ORDER BY seq LIMIT 1",
                        (annotator,))
        return row["item_id"] if row else None

    def assignments(self) -> set[str]:
        return {r["item_id"] for r in self._run("SELECT DISTINCT item_id FROM assignments")}

    def all_assignments(self) -> set[tuple[str, str]]:
        return {(r["item_id"], r["annotator"]) for r in self._run("SELECT item_id, annotator FROM assignments")}

    def setting(self, name: str) -> Any:
        row = self._one("SELECT value FROM meta WHERE name = ?", (name,))
        return json.loads(row["value"]) if row else None

    def set_setting(self, name: str, value: Any) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?,?)", (name, json.dumps(value, ensure_ascii=False)))

    # -- counts ---------------------------------------------------------------------------------
    def tally(self, annotator: str | None = None) -> list[dict[str, Any]]:
        """Per annotator and language with items assigned: assigned, done, correct (kept as
        verdicts are saved: one indexed read, however many verdicts there are)."""
        where, args = ("AND annotator = ?", (annotator,)) if annotator is not None else ("", ())
        return [dict(r) for r in self._run("SELECT annotator, language, assigned, done, correct FROM tally "
                                           f"WHERE assigned > 0 {where} ORDER BY annotator, language", args)]

    def progress(self) -> dict[str, tuple[int, int]]:
        """annotator -> (items assigned, items with a standing verdict of their own)."""
        return {r["annotator"]: (int(r["a"]), int(r["j"])) for r in self._run(
            "SELECT annotator, SUM(assigned) AS a, SUM(judged) AS j FROM tally GROUP BY annotator "
            "HAVING a > 0 OR j > 0 ORDER BY annotator")}

    def dispute_count(self) -> int:
        return int(self._run("SELECT COUNT(*) FROM disputes")[0][0])

    def disputes(self, limit: int | None = None) -> list[tuple[ReviewItem, list[HumanVerdict]]]:
        """The items in dispute (by id), each with its annotators' standing verdicts."""
        ids = [r["item_id"] for r in self._run("SELECT item_id FROM disputes ORDER BY item_id LIMIT ?",
                                               (-1 if limit is None else limit,))]
        out = []
        for item_id in ids:
            item = self.item(item_id)
            if item is not None:
                out.append((item, [_verdict(r) for r in self._run(
                    f"{_VERDICT} WHERE c.item_id = ? ORDER BY c.annotator", (item_id,))]))
        return out

    def verdicts_on(self, item_id: str) -> list[HumanVerdict]:
        """Every verdict on one item not withdrawn or reopened, oldest first (its index)."""
        return [_verdict(r) for r in self._run("SELECT * FROM verdicts WHERE item_id = ? AND withdrawn = 0 "
                                               "ORDER BY id", (item_id,))]

    # -- verdicts -----------------------------------------------------------------------------
    def save(self, verdict: HumanVerdict) -> None:
        key = (verdict.item_id, verdict.annotator)
        with self._transaction() as db:
            def change() -> None:
                vid = db.execute(
                    "INSERT INTO verdicts (item_id, annotator, workflow, answers, verdict, comment, edit, at, "
                    "adjudication) VALUES (?,?,?,?,?,?,?,?,?)",
                    (*key, verdict.workflow, json.dumps(verdict.answers, ensure_ascii=False), verdict.verdict,
                     verdict.comment, json.dumps(verdict.edit, ensure_ascii=False) if verdict.edit else None,
                     verdict.at or now_iso(), int(verdict.adjudication))).lastrowid
                db.execute("INSERT OR REPLACE INTO current VALUES (?,?,?,?,?)",
                           (*key, vid, verdict.verdict, int(verdict.adjudication)))

            standing.account(db, [key], change)

    def save_many(self, verdicts: list[HumanVerdict]) -> None:
        """Many verdicts (in order) in one transaction, what stands recomputed once: for
        imports and benchmarks, O(n) in all the verdicts stored."""
        with self._transaction() as db:
            db.executemany(
                "INSERT INTO verdicts (item_id, annotator, workflow, answers, verdict, comment, edit, at, "
                "adjudication) VALUES (?,?,?,?,?,?,?,?,?)",
                [(v.item_id, v.annotator, v.workflow, json.dumps(v.answers, ensure_ascii=False), v.verdict,
                  v.comment, json.dumps(v.edit, ensure_ascii=False) if v.edit else None, v.at or now_iso(),
                  int(v.adjudication)) for v in verdicts])
            standing.rebuild(db)

    def undo(self, item_id: str, annotator: str) -> bool:
        """Withdraw the annotator's last standing verdict on the item; the one before it, if
        any, stands again."""
        with self._transaction() as db:
            row = db.execute("SELECT id FROM verdicts WHERE item_id = ? AND annotator = ? AND withdrawn = 0 "
                             "ORDER BY id DESC LIMIT 1", (item_id, annotator)).fetchone()
            if row is None:
                return False

            def change() -> None:
                db.execute("UPDATE verdicts SET withdrawn = 1 WHERE id = ?", (row["id"],))
                standing.restand(db, item_id, annotator)

            standing.account(db, [(item_id, annotator)], change)
        return True

    def standing(self, item_id: str, annotator: str) -> HumanVerdict | None:
        """The annotator's standing verdict on one item (an indexed look-up)."""
        row = self._one(f"{_VERDICT} WHERE c.item_id = ? AND c.annotator = ?", (item_id, annotator))
        return _verdict(row) if row else None

    def latest(self) -> dict[tuple[str, str], HumanVerdict]:
        """(item, annotator) -> the standing verdict, for every pair (export and release: read
        once, never per page)."""
        return {(v.item_id, v.annotator): v for v in map(_verdict, self._run(f"{_VERDICT} ORDER BY c.verdict_id"))}

    # -- edits --------------------------------------------------------------------------------
    def save_edit(self, item_id: str, annotator: str, kind: str, detail: dict, after: Candidate,
                  findings: list[dict]) -> int:
        """Record an edit of an item's row with who, when, what and the row before and after, in
        one transaction with the row itself; every verdict standing on the item (approvals
        included, the editor's own too) is reopened: nobody has judged the edited row yet.
        Returns how many verdicts were reopened."""
        with self._transaction() as db:
            rows = db.execute("SELECT row FROM items WHERE id = ?", (item_id,)).fetchall()
            if not rows:
                raise KeyError(item_id)
            pairs = [(item_id, r["annotator"]) for r in
                     db.execute("SELECT annotator FROM current WHERE item_id = ?", (item_id,))]
            reopened, record = 0, _json(candidate_record(after))

            def change() -> None:
                nonlocal reopened
                db.execute("INSERT INTO edits (item_id, annotator, at, kind, detail, before, after) "
                           "VALUES (?,?,?,?,?,?,?)",
                           (item_id, annotator, now_iso(), kind, _json(detail), rows[0]["row"], record))
                db.execute("UPDATE items SET row = ?, findings = ? WHERE id = ?", (record, _json(findings), item_id))
                reopened = db.execute("UPDATE verdicts SET withdrawn = ? WHERE item_id = ? AND withdrawn = 0",
                                      (REOPENED, item_id)).rowcount
                db.execute("DELETE FROM current WHERE item_id = ?", (item_id,))

            standing.account(db, pairs, change)
        return int(reopened)

    def edits(self, item_id: str | None = None) -> list[dict[str, Any]]:
        """The edits (of one item, or all), oldest first: who, when, kind, detail, before, after."""
        where, args = ("WHERE item_id = ?", (item_id,)) if item_id is not None else ("", ())
        return [{"item_id": r["item_id"], "annotator": r["annotator"], "at": r["at"], "kind": r["kind"],
                 "detail": json.loads(r["detail"]), "before": json.loads(r["before"]), "after": json.loads(r["after"])}
                for r in self._run(f"SELECT * FROM edits {where} ORDER BY id", args)]


def _verdict(r: sqlite3.Row) -> HumanVerdict:
    return HumanVerdict(r["item_id"], r["annotator"], r["workflow"], json.loads(r["answers"]), r["comment"] or "",
                        json.loads(r["edit"]) if r["edit"] else None, r["at"], r["verdict"], bool(r["adjudication"]))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _item(r: sqlite3.Row) -> ReviewItem:
    """An item as stored: its row (a candidate as the rows file holds it; one stored before
    candidates carried their status has it in its own column), the English row, the findings."""
    where = Source(f"review database, item {r['id']}", None)
    record = json.loads(r["row"])
    record.pop("_edit", None)  # folders reviewed before edits had their own table carried them in the row
    record["status"] = record.get("status") or r["status"]
    english = json.loads(r["source"]) if r["source"] else None  # stored as JSON null when there is none
    source = parse_row(english, where, defaults=("en", "trans")) if english else None
    # a conversation is not a row: its candidate carries the whole conversation
    candidate = conversation_candidate(record) if r["subset"] == MULTITURN else parse_candidate(record, where)
    return ReviewItem(r["id"], r["position"], r["workflow"], candidate, source, tuple(json.loads(r["findings"])))


__all__ = ["SYNC_MODES", "ReviewStore", "now_iso"]
