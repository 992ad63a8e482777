"""The review app at team scale and for whoever runs it: every query a request makes uses an
index (no full scan of the verdicts, items, assignments or standing tables), what stands
(the current verdict per item and annotator, the queues, progress and disputes) always equals
a recount from the verdict log after random sequences of judging, withdrawing, fixing and
adjudicating; the database is in WAL mode and keeps an acknowledged verdict through a SIGKILL
of the real server; a busy port, a changed assignment and a second server on a build folder
are each one line from the real command line."""

from __future__ import annotations

import json
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import httpx  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from indicifeval.builder.review import standing  # noqa: E402
from indicifeval.builder.review.app import create_app  # noqa: E402
from indicifeval.builder.review.items import workflows  # noqa: E402
from indicifeval.builder.review.serve import open_review, read_annotators  # noqa: E402
from indicifeval.builder.review.store import ReviewStore  # noqa: E402
from indicifeval.core.errors import InputError  # noqa: E402
from indicifeval.records import HumanVerdict  # noqa: E402
from tests.builder.review_fixtures import annotators_file, ground_folder, token, trans_folder  # noqa: E402

BIG_TABLES = ("verdicts", "items", "assignments", "current", "edits")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("scale")
    return [trans_folder(root, "hi"), ground_folder(root)]


@pytest.fixture
def folders(built, tmp_path):
    return [Path(shutil.copytree(d, tmp_path / d.name)) for d in built]


def _review(folders, root: Path, **kw):
    return open_review(folders, read_annotators(annotators_file(root)), **kw)


def _csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def _client(review, name: str) -> TestClient:
    c = TestClient(create_app(review), follow_redirects=False)
    r = c.post("/login", data={"token": token(name), "csrf": _csrf(c.get("/login").text)})
    assert r.status_code == 303, r.text
    return c


def _answers(page: str, worse: bool = False) -> dict[str, str]:
    out = {}
    for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
        values = re.findall(rf'name="{q}" value="([^"]+)"', page)
        out[q] = values[-1] if worse else values[0]
    return out


# -- every request's queries use an index ---------------------------------------------------------
def _scans(sql_seen: list[str], db: sqlite3.Connection) -> list[tuple[str, str]]:
    """(statement, plan line) for every full scan of a table that grows with the project."""
    found = []
    for sql in dict.fromkeys(sql_seen):
        if not re.match(r"\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", sql, re.IGNORECASE):
            continue
        for row in db.execute("EXPLAIN QUERY PLAN " + sql):
            detail = row[-1]
            if re.match(rf"SCAN ({'|'.join(BIG_TABLES)})\b", detail) or re.match(r"SCAN [a-z] ", detail + " "):
                found.append((sql, detail))
    return found


def test_every_request_query_uses_an_index(folders, tmp_path, monkeypatch):
    review = _review(folders, tmp_path, overlap=1.0)
    seen: list[str] = []
    for store in review.stores:  # the writer, and each reader connection as a thread opens it
        store._db.set_trace_callback(seen.append)
    connect = ReviewStore._connect

    def traced(self):
        db = connect(self)
        db.set_trace_callback(seen.append)
        return db

    monkeypatch.setattr(ReviewStore, "_connect", traced)
    asha, ravi, admin = _client(review, "asha"), _client(review, "ravi"), _client(review, "admin")
    shared = next(i for i in review.desk.assigned("asha") if i in review.desk.assigned("ravi")
                  and review.desk.find(i)[1].workflow == "trans-keywords")
    for c, worse in ((asha, False), (ravi, True)):
        page = c.get(f"/item/{shared}").text
        data = {"item": shared, "csrf": _csrf(page), **_answers(page, worse)}
        assert c.post("/verdict", data=data).status_code == 303
    page = asha.get(asha.get("/next").headers["location"]).text
    item = re.search(r'data-item="([^"]+)"', page).group(1)
    asha.post("/verdict", data={"item": item, "csrf": _csrf(page), **_answers(page)})
    asha.post("/undo", data={"item": item, "csrf": _csrf(page)})
    asha.get("/progress")
    disputes = admin.get("/admin").text
    assert f'data-item="{shared}"' in disputes
    admin.post("/adjudicate", data={"item": shared, "verdict": "correct", "csrf": _csrf(disputes)})
    page = admin.get(f"/item/{shared}").text
    keyword = re.findall(r'<option value="([^"]+)"', page)[0]
    admin.post("/fix", data={"item": shared, "csrf": _csrf(page), "old": keyword, "new": "नयाशब्द"})
    assert len(seen) > 30 and any("INSERT INTO verdicts" in s for s in seen)
    db = sqlite3.connect(review.stores[0].path)
    assert _scans(seen, db) == []
    # and the check itself can fail: the old way of finding what stands read every verdict
    assert _scans(["SELECT * FROM verdicts WHERE withdrawn = 0 ORDER BY id"], db)
    db.close()
    review.desk.close()


# -- what stands equals a recount from the log ----------------------------------------------------
def _recount(store: ReviewStore) -> dict:
    """What stands, computed the slow way from the log and the assignments alone."""
    db = sqlite3.connect(store.path)
    latest = {}
    for item, name, vid, verdict, adj in db.execute(
            "SELECT item_id, annotator, id, verdict, adjudication FROM verdicts WHERE withdrawn = 0 ORDER BY id"):
        latest[item, name] = (vid, verdict, adj)
    pairs = db.execute("SELECT item_id, annotator FROM assignments").fetchall()
    positions = dict(db.execute("SELECT id, position FROM items"))
    db.close()
    tally: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for item, name in pairs:
        cell = tally[name, item.split("/", 1)[0]]
        cell["assigned"] += 1
        if (item, name) in latest:
            cell["done"] += 1
            cell["correct"] += latest[item, name][1] == "correct"
    by_item: dict[str, list] = defaultdict(list)
    for (item, _), value in latest.items():
        by_item[item].append(value)
    disputes = sorted(i for i, vs in by_item.items() if not any(v[2] for v in vs) and len({v[1] for v in vs}) > 1)
    queues = defaultdict(list)
    for item, name in sorted(pairs, key=lambda p: (p[1], positions[p[0]], p[0])):
        queues[name].append(item)
    return {"latest": latest, "disputes": disputes,
            "tally": {k: (c["assigned"], c["done"], c["correct"]) for k, c in tally.items()},
            "next": {name: next((i for i in q if (i, name) not in latest), None) for name, q in queues.items()},
            "queues": dict(queues)}


def _check(review) -> None:
    for store in review.stores:
        slow = _recount(store)
        assert {k: (v.verdict, v.adjudication) for k, v in store.latest().items()} == \
            {k: (v[1], bool(v[2])) for k, v in slow["latest"].items()}
        assert {(r["annotator"], r["language"]): (r["assigned"], r["done"], r["correct"])
                for r in store.tally()} == {k: v for k, v in slow["tally"].items() if v[0]}
        assert [item.id for item, _ in store.disputes()] == slow["disputes"] and \
            store.dispute_count() == len(slow["disputes"])
        for name, queue in slow["queues"].items():
            assert store.next_open(name) == slow["next"][name]
            assert store.assigned(name) == queue and store.queue_length(name) == len(queue)
        db = store._db
        db.execute("BEGIN IMMEDIATE")  # the incremental path equals a rebuild from the log
        kept = standing.snapshot(db)
        standing.rebuild(db)
        assert standing.snapshot(db) == kept
        db.execute("ROLLBACK")
    desk = review.desk
    rows = desk.progress_rows(None)
    assert sum(r["done"] for r in rows) == sum(v[1] for s in review.stores for v in _recount(s)["tally"].values())
    assert desk.disagreement_count() == len(desk.disagreements())


def test_what_stands_equals_a_recount_after_random_work(folders, tmp_path):
    review = _review(folders, tmp_path, overlap=0.6, seed=5)
    desk, rng = review.desk, random.Random(2126)
    names = ["asha", "ravi"]
    items = {i.id: i for s in review.stores for i in s.items()}
    keyword_items = [i for i in items.values() if i.workflow == "trans-keywords"]
    for step in range(600):
        name = rng.choice(names)
        mine = desk.assigned(name)
        item_id = rng.choice(mine[:12] if rng.random() < 0.8 else mine)  # crowd a few items: disputes
        roll = rng.random()
        if roll < 0.55:
            questions = workflows()[items[item_id].workflow]["questions"]
            answers = {q["id"]: rng.choice(q["options"])["value"] for q in questions}
            # the override only counts (and is recorded) on a row failing validation called correct
            assert desk.judge(name, item_id, answers, f"step {step}", override=True) in ("correct", "incorrect")
        elif roll < 0.8:
            desk.withdraw(name, item_id)
        elif roll < 0.9:
            desk.adjudicate("admin", rng.choice(list(items)[:12]), rng.choice(["correct", "incorrect"]))
        elif roll < 0.95:
            desk.withdraw("admin", rng.choice(list(items)[:12]))  # an adjudication withdrawn
        else:
            item = rng.choice(keyword_items[:4])
            row = review.stores[0].item(item.id).row
            words = [w for kw in row.kwargs for v in kw.values() for w in (v if isinstance(v, list) else [v])
                     if isinstance(w, str) and w in row.prompt]
            if words:
                desk.fix_keyword(name, item.id, words[0], f"शब्द{step}")
        if step % 50 == 49:
            _check(review)
    assert desk.disagreement_count() > 0 and any(v.adjudication for v in desk.latest().values())
    _check(review)
    desk.close()


def test_a_database_of_the_earlier_layout_is_upgraded(folders, tmp_path):
    review = _review(folders[:1], tmp_path, overlap=1.0)
    store = review.stores[0]
    item = store.assigned("asha")[0]
    store.save(HumanVerdict(item, "asha", "trans-keywords", {"x": "y"}, "", None, None, "correct"))
    store.save(HumanVerdict(item, "ravi", "trans-keywords", {"x": "y"}, "", None, None, "incorrect"))
    review.desk.close()
    db = sqlite3.connect(store.path)  # back to the first layout: the log and assignments only
    for table in ("current", "tally", "disputes"):
        db.execute(f"DROP TABLE {table}")
    db.execute("PRAGMA user_version = 0")
    db.commit()
    db.close()
    old = ReviewStore(folders[0], read_only=True)  # read as it is (a copy upgraded in memory)
    assert old.dispute_count() == 1 and old.standing(item, "ravi").verdict == "incorrect"
    old.close()
    assert not sqlite3.connect(store.path).execute("SELECT name FROM sqlite_master WHERE name = 'current'").fetchall()
    again = _review(folders[:1], tmp_path, overlap=1.0)
    assert again.stores[0].dispute_count() == 1 and again.desk.next_for("asha") != item
    _check(again)
    again.desk.close()


def test_wal_mode(folders, tmp_path):
    review = _review(folders, tmp_path)
    assert all(store.journal_mode() == "wal" for store in review.stores)
    db = sqlite3.connect(review.stores[0].path)  # the file's own mode, as any other process sees it
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    review.desk.close()
    with pytest.raises(InputError, match="sync is one of"):
        ReviewStore(folders[0], sync="sometimes")


# -- a changed assignment -------------------------------------------------------------------------
def test_a_changed_overlap_is_refused_or_reassigned_keeping_verdicts(folders, tmp_path):
    review = _review(folders, tmp_path, overlap=0.2)
    before = {s.folder: s.all_assignments() for s in review.stores}
    item = review.desk.assigned("asha")[0]
    review.desk.judge("asha", item, {q["id"]: q["options"][0]["value"] for q in
                                     workflows()[review.desk.find(item)[1].workflow]["questions"]})
    review.desk.close()
    with pytest.raises(InputError) as refused:
        _review(folders, tmp_path, overlap=0.5)
    said = str(refused.value)
    assert "\n" not in said and "--overlap 0.2 --seed 0 to asha, ravi" in said and "--overlap 0.5" in said
    assert "--reassign" in said
    with pytest.raises(InputError, match="--seed 0 to asha, ravi.*asks --overlap 0.2 --seed 7"):
        _review(folders, tmp_path, overlap=0.2, seed=7)
    same = _review(folders, tmp_path, overlap=0.2)  # the same settings: nothing changes
    assert {s.folder: s.all_assignments() for s in same.stores} == before
    same.desk.close()
    again = _review(folders, tmp_path, overlap=0.5, reassign=True)
    total = sum(s.item_count() for s in again.stores)
    both = set(again.desk.assigned("asha")) & set(again.desk.assigned("ravi"))
    assert 0.35 * total <= len(both) <= 0.65 * total  # shared out again with the new overlap
    assert (item, "asha") in again.desk.latest() and item in again.desk.assigned("asha")  # the verdict stays
    _check(again)
    again.desk.close()
    restarted = _review(folders, tmp_path, overlap=0.5)  # the new settings are now the recorded ones
    restarted.desk.close()


def test_a_changed_annotators_file_is_refused(folders, tmp_path):
    _review(folders, tmp_path).desk.close()
    path = annotators_file(tmp_path)
    team = json.loads(path.read_text(encoding="utf-8"))
    team["mira"] = "mira-token-0123456789"
    path.write_text(json.dumps(team), encoding="utf-8")
    with pytest.raises(InputError, match="to asha, ravi .*asks --overlap 0.2 --seed 0 to asha, mira, ravi"):
        open_review(folders, read_annotators(path))


# -- the real command line and server -------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(folders, annotators: Path, port: int, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "indicifeval", "build", "review", "serve", *map(str, folders),
                             "--annotators", str(annotators), "--port", str(port), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _up(proc: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read()) from None
            time.sleep(0.1)
    raise RuntimeError("the review server did not start")


def _refused(folders, annotators: Path, port: int, *extra: str) -> str:
    proc = _serve(folders, annotators, port, *extra)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1 and "review:" not in out and "Traceback" not in err, (out, err)
    lines = [line for line in err.splitlines() if line.strip() and not line.startswith("note:")]
    assert len(lines) == 1, err
    return lines[0]


def test_a_busy_port_is_one_line_naming_it(folders, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = _refused(folders, annotators_file(tmp_path), port)
    assert f"port {port}" in line and "--port" in line and "Errno" not in line


def test_a_changed_overlap_is_refused_on_the_command_line(folders, tmp_path):
    _review(folders, tmp_path).desk.close()
    line = _refused(folders, annotators_file(tmp_path), _free_port(), "--overlap", "0.4")
    assert "--overlap 0.2" in line and "--overlap 0.4" in line and "--reassign" in line


def test_a_second_server_is_refused_and_a_killed_one_loses_no_acknowledged_verdict(folders, tmp_path):
    annotators, port = annotators_file(tmp_path), _free_port()
    first = _serve(folders, annotators, port)
    try:
        _up(first, port)
        line = _refused(folders[1:], annotators, _free_port())
        assert "already served by another review server" in line and f"pid {first.pid}" in line
        acknowledged = []
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", follow_redirects=False) as c:
            page = c.get("/login").text
            assert c.post("/login", data={"token": token("asha"), "csrf": _csrf(page)}).status_code == 303
            for _ in range(5):
                page = c.get(c.get("/next").headers["location"]).text
                item = re.search(r'data-item="([^"]+)"', page).group(1)
                r = c.post("/verdict", data={"item": item, "csrf": _csrf(page), **_answers(page)})
                assert r.status_code == 303
                acknowledged.append(item)
        first.send_signal(signal.SIGKILL)  # no chance to flush or close anything
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    saved = set()
    for folder in folders:
        store = ReviewStore(folder, read_only=True)
        saved |= {i for (i, name) in store.latest() if name == "asha"}
        store.close()
    assert set(acknowledged) <= saved and len(acknowledged) == 5
