"""What the review app shows and enforces, over HTTP on the real app (Starlette's test client):
items are candidates read through the one candidates reader, ids made by RowId, and databases
stored before that still read; the desk works through the store's public methods."""

from __future__ import annotations

import ast
import json
import re
import shutil
import sqlite3
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import indicifeval.builder.review.desk as desk_module  # noqa: E402
from indicifeval.builder.candidates import read_candidates  # noqa: E402
from indicifeval.builder.review.app import create_app  # noqa: E402
from indicifeval.builder.review.items import load_items  # noqa: E402
from indicifeval.builder.review.serve import open_review, read_annotators  # noqa: E402
from indicifeval.builder.review.store import ReviewStore  # noqa: E402
from indicifeval.core.jsonl import read_jsonl  # noqa: E402
from indicifeval.records import Candidate, Row, RowId  # noqa: E402
from tests.builder.review_fixtures import annotators_file, ground_folder, token, trans_folder  # noqa: E402

INVALID = "ta/ground/ta-ground-01-pass"  # the sample's Ground row: no English source


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("pages")
    return [trans_folder(root, "hi"), ground_folder(root)]


@pytest.fixture
def folders(built, tmp_path):
    return [Path(shutil.copytree(d, tmp_path / d.name)) for d in built]


@pytest.fixture
def review(folders, tmp_path):
    return open_review(folders, read_annotators(annotators_file(tmp_path)), overlap=1.0)


def client(review, name: str) -> TestClient:
    c = TestClient(create_app(review), follow_redirects=False)
    r = c.post("/login", data={"token": token(name), "csrf": csrf(c.get("/login").text)})
    assert r.status_code == 303
    return c


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


# -- typed items --------------------------------------------------------------------------------
def test_items_are_candidates_from_the_candidates_reader_with_rowid_ids(folders):
    for folder in folders:
        subset = "ground" if "ground" in folder.name else "trans"
        items = load_items(folder)
        assert [i.candidate for i in items] == read_candidates(folder / subset / "rows.jsonl", subset=subset)
        assert all(isinstance(i.candidate, Candidate) and isinstance(i.row, Row) for i in items)
        assert [i.id for i in items] == [str(RowId.of(i.language, i.subset, i.row.key)) for i in items]
        if subset == "trans":  # the English row each was made from
            assert all(isinstance(i.source, Row) and i.source.language == "en" and str(i.source.key) == i.key
                       for i in items)
        else:
            assert [i.source for i in items] == [None] * len(items)


def test_the_desk_uses_only_the_stores_public_methods():
    tree = ast.parse(Path(desk_module.__file__).read_text(encoding="utf-8"))
    private = [f"line {n.lineno}: {ast.unparse(n)}" for n in ast.walk(tree) if isinstance(n, ast.Attribute)
               and n.attr.startswith("_") and not n.attr.startswith("__")
               and not (isinstance(n.value, ast.Name) and n.value.id == "self")]
    assert not private, private


def test_a_database_stored_before_typed_items_reads_as_it_did(review, folders):
    """Item rows stored as the rows file's lines (as every earlier version stored them), the
    English row as its line, no English row as JSON null: read back as the same candidates."""
    store = review.stores[0]
    before = {i.id: i for i in store.items()}
    raw = {f"hi/trans/{r['key']}": r for _, r in read_jsonl(folders[0] / "trans" / "rows.jsonl")}
    english = {str(r["key"]): r for _, r in read_jsonl(folders[0] / "trans" / "source.jsonl")}
    db = sqlite3.connect(store.path)
    for item_id, record in raw.items():
        db.execute("UPDATE items SET row = ?, source = ? WHERE id = ?",
                   (json.dumps(record, ensure_ascii=False), json.dumps(english[record["key"]], ensure_ascii=False),
                    item_id))
    db.commit()
    db.close()
    assert {i.id: i for i in store.items()} == before
    ground = review.stores[1]
    assert sqlite3.connect(ground.path).execute("SELECT DISTINCT source FROM items").fetchall() == [("null",)]
    old = ReviewStore(folders[1], read_only=True)
    assert [i.source for i in old.items()] == [None] * 6
    old.close()
    admin = client(review, "admin")
    assert all(admin.get(f"/item/{quote(i)}").status_code == 200 for i in [*raw, INVALID])
