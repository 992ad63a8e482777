"""What stands, kept beside the verdict log so that no page reads the whole log: each
(item, annotator)'s standing verdict (``current``), each annotator's queue (``assignments``:
its order and whether the item is still open for them), the progress counts per annotator and
language (``tally``) and the items in dispute (``disputes``).

Every write of a verdict updates these in its own transaction (``account``), touching only the
rows of the item it concerns, so a save costs O(log n) however big the project. ``rebuild``
recomputes all of them from the log (the log is the truth: export and agreement read it); the
store runs it when it upgrades an older database and after assignments change, and the tests
check that the incremental path always equals it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable

SCHEMA = """
CREATE TABLE IF NOT EXISTS current (item_id TEXT, annotator TEXT, verdict_id INTEGER, verdict TEXT,
    adjudication INTEGER, PRIMARY KEY (item_id, annotator)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tally (annotator TEXT, language TEXT, assigned INTEGER, done INTEGER, correct INTEGER,
    judged INTEGER, PRIMARY KEY (annotator, language)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS disputes (item_id TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS assignments_queue ON assignments (annotator, open, seq);
CREATE INDEX IF NOT EXISTS assignments_order ON assignments (annotator, seq);
CREATE INDEX IF NOT EXISTS verdicts_standing ON verdicts (item_id, annotator, withdrawn, id);
CREATE INDEX IF NOT EXISTS items_by_position ON items (position);
DROP INDEX IF EXISTS verdicts_by_item;
"""

# An item's language is the first part of its id (``hi/trans/key``), as the pages group it.
_LANGUAGE = "CASE WHEN instr({0}, '/') > 0 THEN substr({0}, 1, instr({0}, '/') - 1) ELSE {0} END"


def language_of(item_id: str) -> str:
    return item_id.split("/", 1)[0]


Pair = tuple[str, str]  # (item id, annotator)
_Contribution = tuple[int, int, int, int]  # assigned, done, correct, judged


def _contribution(db: sqlite3.Connection, item_id: str, annotator: str) -> tuple[_Contribution, bool]:
    """What one (item, annotator) adds to the tally, and whether it is assigned."""
    assigned = db.execute("SELECT 1 FROM assignments WHERE item_id = ? AND annotator = ?",
                          (item_id, annotator)).fetchone() is not None
    row = db.execute("SELECT verdict, adjudication FROM current WHERE item_id = ? AND annotator = ?",
                     (item_id, annotator)).fetchone()
    done = assigned and row is not None
    return (int(assigned), int(done), int(done and row[0] == "correct"),
            int(row is not None and not row[1])), assigned


def account(db: sqlite3.Connection, pairs: Iterable[Pair], change: Callable[[], None]) -> None:
    """Run ``change`` (statements on the log and ``current`` for these pairs, inside the
    caller's transaction) and bring the queues, the tally and the disputes of the pairs'
    items up to date with it."""
    pairs = list(dict.fromkeys(pairs))
    before = {p: _contribution(db, *p)[0] for p in pairs}
    change()
    for item_id, annotator in pairs:
        after, assigned = _contribution(db, item_id, annotator)
        delta = [a - b for a, b in zip(after, before[item_id, annotator])]
        if any(delta):
            db.execute("INSERT INTO tally VALUES (?,?,?,?,?,?) ON CONFLICT (annotator, language) DO UPDATE SET "
                       "assigned = assigned + excluded.assigned, done = done + excluded.done, "
                       "correct = correct + excluded.correct, judged = judged + excluded.judged",
                       (annotator, language_of(item_id), *delta))
        if assigned:
            db.execute("UPDATE assignments SET open = NOT EXISTS (SELECT 1 FROM current c WHERE c.item_id = ? "
                       "AND c.annotator = ?) WHERE item_id = ? AND annotator = ?",
                       (item_id, annotator, item_id, annotator))
    for item_id in dict.fromkeys(i for i, _ in pairs):
        settle(db, item_id)


def settle(db: sqlite3.Connection, item_id: str) -> None:
    """An item is in dispute while its annotators' standing verdicts differ and no adjudication
    stands on it."""
    rows = db.execute("SELECT verdict, adjudication FROM current WHERE item_id = ?", (item_id,)).fetchall()
    disputed = not any(r[1] for r in rows) and len({r[0] or "" for r in rows}) >= 2
    if disputed:
        db.execute("INSERT OR IGNORE INTO disputes VALUES (?)", (item_id,))
    else:
        db.execute("DELETE FROM disputes WHERE item_id = ?", (item_id,))


def restand(db: sqlite3.Connection, item_id: str, annotator: str) -> None:
    """Set ``current`` of one pair to its last verdict not withdrawn (an indexed look-up)."""
    row = db.execute("SELECT id, verdict, adjudication FROM verdicts WHERE item_id = ? AND annotator = ? AND "
                     "withdrawn = 0 ORDER BY id DESC LIMIT 1", (item_id, annotator)).fetchone()
    if row is None:
        db.execute("DELETE FROM current WHERE item_id = ? AND annotator = ?", (item_id, annotator))
    else:
        db.execute("INSERT OR REPLACE INTO current VALUES (?,?,?,?,?)", (item_id, annotator, *row))


def rebuild(db: sqlite3.Connection) -> None:
    """Recompute every derived table from the log and the assignments (inside the caller's
    transaction): O(n), for upgrades and new assignments, never per request."""
    db.execute("DELETE FROM current")
    # SQLite takes the other columns of a MAX() aggregate from the row holding the maximum
    db.execute("INSERT INTO current SELECT item_id, annotator, MAX(id), verdict, adjudication FROM verdicts "
               "WHERE withdrawn = 0 GROUP BY item_id, annotator")
    db.execute("UPDATE assignments SET seq = r.n FROM (SELECT a.item_id AS item_id, a.annotator AS annotator, "
               "ROW_NUMBER() OVER (PARTITION BY a.annotator ORDER BY i.position, a.item_id) - 1 AS n "
               "FROM assignments a JOIN items i ON i.id = a.item_id) AS r "
               "WHERE assignments.item_id = r.item_id AND assignments.annotator = r.annotator")
    db.execute("UPDATE assignments SET open = NOT EXISTS (SELECT 1 FROM current c WHERE "
               "c.item_id = assignments.item_id AND c.annotator = assignments.annotator)")
    db.execute("DELETE FROM tally")
    db.execute(f"""INSERT INTO tally SELECT annotator, {_LANGUAGE.format('item_id')}, SUM(assigned), SUM(done),
        SUM(correct), SUM(judged) FROM (
          SELECT a.item_id, a.annotator, 1 AS assigned, c.item_id IS NOT NULL AS done,
                 COALESCE(c.verdict = 'correct', 0) AS correct, COALESCE(c.adjudication = 0, 0) AS judged
            FROM assignments a LEFT JOIN current c ON c.item_id = a.item_id AND c.annotator = a.annotator
          UNION ALL
          SELECT c.item_id, c.annotator, 0, 0, 0, c.adjudication = 0 FROM current c WHERE NOT EXISTS
            (SELECT 1 FROM assignments a WHERE a.item_id = c.item_id AND a.annotator = c.annotator)
        ) GROUP BY 1, 2""")
    db.execute("DELETE FROM disputes")
    db.execute("INSERT INTO disputes SELECT item_id FROM current GROUP BY item_id "
               "HAVING MAX(adjudication) = 0 AND COUNT(DISTINCT COALESCE(verdict, '')) >= 2")


def _statements(db: sqlite3.Connection, script: str) -> None:
    """A script statement by statement (``executescript`` would commit the transaction)."""
    for sql in script.split(";\n"):
        if sql.strip():
            db.execute(sql)


def upgrade(db: sqlite3.Connection, base: str, version: int) -> None:
    """Bring a database of any earlier layout to ``version`` (the log's tables from ``base``,
    then these), in one transaction; what stands is rebuilt from the log when it was missing."""
    db.execute("BEGIN IMMEDIATE")
    try:
        _statements(db, base)
        columns = {r[1] for r in db.execute("PRAGMA table_info(assignments)")}
        if "seq" not in columns:
            db.execute("ALTER TABLE assignments ADD COLUMN seq INTEGER")
            db.execute("ALTER TABLE assignments ADD COLUMN open INTEGER DEFAULT 1")
        _statements(db, SCHEMA)
        if db.execute("PRAGMA user_version").fetchone()[0] < version:
            rebuild(db)
            db.execute(f"PRAGMA user_version = {int(version)}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def snapshot(db: sqlite3.Connection) -> dict[str, list[tuple]]:
    """The derived tables' contents, ordered: what the tests compare a rebuild with."""
    return {
        name: [tuple(r) for r in db.execute(sql)] for name, sql in (
            ("current", "SELECT * FROM current ORDER BY 1, 2"),
            ("tally", "SELECT * FROM tally WHERE assigned OR done OR correct OR judged ORDER BY 1, 2"),
            ("disputes", "SELECT * FROM disputes ORDER BY 1"),
            ("queues", "SELECT item_id, annotator, seq, open FROM assignments ORDER BY 2, 3"))
    }


__all__ = ["SCHEMA", "account", "language_of", "rebuild", "restand", "settle", "snapshot", "upgrade"]
