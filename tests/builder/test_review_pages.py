"""What the review app shows and enforces, over HTTP on the real app (Starlette's test client):
items are candidates read through the one candidates reader, ids made by RowId, and databases
stored before that still read; the desk works through the store's public methods; the admin
lands on the disagreements; instructions are shown in words (the checker's description, in the
row's language and in English) with the raw id beside; the build folder's guidelines are shown,
escaped, with defaults when there are none; a row failing validation is flagged and called
correct only with the explicit override."""

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

from markupsafe import escape  # noqa: E402  (as the pages escape)
from starlette.testclient import TestClient  # noqa: E402

import indicifeval.builder.review.desk as desk_module  # noqa: E402
from indicifeval.builder.candidates import read_candidates  # noqa: E402
from indicifeval.builder.review.agreement import agreement_table  # noqa: E402
from indicifeval.builder.review.app import create_app  # noqa: E402
from indicifeval.builder.review.guidelines import blocks  # noqa: E402
from indicifeval.builder.review.items import OVERRIDE, edited, load_items, validation_errors  # noqa: E402
from indicifeval.builder.review.serve import export_verdicts, open_review, read_annotators  # noqa: E402
from indicifeval.builder.review.store import ReviewStore  # noqa: E402
from indicifeval.checkers import render_description  # noqa: E402
from indicifeval.cli import main  # noqa: E402
from indicifeval.core.jsonl import read_jsonl  # noqa: E402
from indicifeval.languages import get_profile  # noqa: E402
from indicifeval.records import Candidate, Row, RowId  # noqa: E402
from tests.builder.review_fixtures import annotators_file, ground_folder, token, trans_folder  # noqa: E402

INVALID = "ta/ground/ta-ground-01-pass"  # the sample's Ground row: no relation, which the validator refuses


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


def answers(page: str, good: bool = True) -> dict[str, str]:
    out = {}
    for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
        values = re.findall(rf'name="{q}" value="([^"]+)" data-key="\d" data-ok="(yes|no)"', page)
        out[q] = next(v for v, ok in values if (ok == "yes") == good)
    return out


def post_verdict(c: TestClient, item: str, good: bool = True, **extra):
    page = c.get(f"/item/{quote(item)}").text
    return c.post("/verdict", data={"item": item, "csrf": csrf(page), **answers(page, good), **extra})


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


# -- the admin's landing page --------------------------------------------------------------------
def test_the_admin_lands_on_the_disagreements_and_is_done_only_when_there_are_none(review):
    admin, asha, ravi = client(review, "admin"), client(review, "asha"), client(review, "ravi")
    items = [i for i in review.desk.assigned("asha") if i.startswith("hi/")][:3]
    assert admin.get("/next").status_code == 200 and "Nothing left to review or adjudicate" in admin.get("/").text
    for item in items:  # asha finds them correct, ravi does not
        assert post_verdict(asha, item).status_code == 303
        assert post_verdict(ravi, item, good=False).status_code == 303
    landing = admin.get("/next")
    assert landing.status_code == 303 and landing.headers["location"] == "/admin"
    page = admin.get("/admin").text
    assert "Disagreements to adjudicate (3)" in page and page.index("Disagreements") < page.index("Progress")
    assert page.count('class="dispute"') == 3
    for item in items:
        page = admin.get("/admin").text
        assert admin.post("/adjudicate", data={"item": item, "verdict": "incorrect",
                                               "csrf": csrf(page)}).status_code == 303
    done = admin.get("/next")
    assert done.status_code == 200 and "Nothing left to review or adjudicate" in done.text
    assert "Nothing left" not in asha.get(asha.get("/next").headers["location"]).text  # asha still has work


# -- instructions in words -----------------------------------------------------------------------
def test_instructions_are_shown_in_words_in_the_rows_language_and_in_english(review):
    admin = client(review, "admin")
    item = next(i for i in review.desk.items() if i.language == "hi" and any(  # a list kwarg: keywords
        isinstance(v, list) for kw in i.row.kwargs for v in kw.values()))
    page = admin.get(f"/item/{quote(item.id)}").text
    for iid, kw in zip(item.row.instruction_id_list, item.row.kwargs):
        for code in ("hi", "en"):
            assert str(escape(render_description(iid, kw, get_profile(code)))) in page, (iid, code)
        raw = f' <bdi class="raw-kwargs">{escape(json.dumps(kw, ensure_ascii=False))}</bdi>' if kw else ""
        assert f"<code>{iid}</code>{raw}</small>" in page  # the raw id and kwargs (JSON), small, for experts
    assert re.search(r'class="described script-Deva" dir="ltr" lang="hi"', page)
    assert re.search(r'class="described-en" lang="en" dir="ltr"', page)
    assert not re.search(r"\w=\[&#39;", page)  # no Python repr of kwargs (keywords=['…'])


# -- guidelines ----------------------------------------------------------------------------------
def test_guidelines_from_the_build_folder_escaped_with_defaults_when_absent(review, folders):
    admin = client(review, "admin")
    item = review.desk.items()[0].id
    page = admin.get(f"/item/{quote(item)}").text
    assert 'id="guidelines"' in page and 'data-source="default"' in page and "review/guidelines.md" in page
    path = folders[0] / "review" / "guidelines.md"
    path.write_text("# हिंदी टीम\n\nRead the <b>whole</b> prompt.\nThen judge it.\n\n- keywords: <script>x()</script>\n"
                    "- numbers\n  as digits\n\n1. first\n2. second\n", encoding="utf-8")
    page = admin.get(f"/item/{quote(item)}").text
    panel = page[page.index('id="guidelines"'):page.index("</details>")]
    assert 'data-source="review/guidelines.md"' in panel and "<h3>हिंदी टीम</h3>" in panel
    assert "<p>Read the &lt;b&gt;whole&lt;/b&gt; prompt. Then judge it.</p>" in panel
    assert "<ul><li>keywords: &lt;script&gt;x()&lt;/script&gt;</li><li>numbers as digits</li></ul>" in panel
    assert "<ol><li>first</li><li>second</li></ol>" in panel and "<script>x()" not in page
    assert 'data-source="default"' in admin.get(f"/item/{quote(INVALID)}").text  # another folder: its own (none)
    path.write_bytes(b"\xff\xfe not text")
    page = admin.get(f"/item/{quote(item)}").text
    assert page.count("could not be read") == 1 and 'data-source="default"' in page
    assert blocks("a\nb\n\n* c\n* d\ne") == [{"kind": "p", "text": "a b"}, {"kind": "ul", "items": ["c", "d"]},
                                            {"kind": "p", "text": "e"}]


def test_the_guidelines_file_is_named_in_serve_help(capsys):
    with pytest.raises(SystemExit):
        main(["build", "review", "serve", "--help"])
    assert "review/guidelines.md" in " ".join(capsys.readouterr().out.split())


# -- a row failing validation ------------------------------------------------------------------
def test_a_row_failing_validation_is_flagged_and_correct_only_with_the_override(review, folders):
    asha, admin = client(review, "asha"), client(review, "admin")
    item = review.desk.find(INVALID)[1]
    errors = validation_errors(item)
    assert errors and all(e.startswith("validate relation_missing: ") for e in errors)
    page = asha.get(f"/item/{quote(INVALID)}").text
    flag = page[page.index('id="invalid"'):]
    assert "This row fails validation" in flag and str(escape(errors[0])) in flag
    assert f'name="{OVERRIDE}"' in page and "approve despite the validation error" in page
    refused = post_verdict(asha, INVALID, comment="looks fine")
    assert refused.status_code == 422 and OVERRIDE in refused.text and "fails validation" in refused.text
    assert 'aria-invalid="true"' in refused.text and "looks fine" in refused.text  # the answers and comment kept
    assert (INVALID, "asha") not in review.desk.latest()
    assert post_verdict(asha, INVALID, good=False).status_code == 303  # incorrect needs no override
    assert OVERRIDE not in review.desk.latest()[INVALID, "asha"].answers
    assert post_verdict(asha, INVALID, **{OVERRIDE: "yes"}).status_code == 303
    saved = review.desk.latest()[INVALID, "asha"]
    assert saved.verdict == "correct" and saved.answers[OVERRIDE] == "yes"
    assert f'name="{OVERRIDE}" id="override" value="yes" checked' in asha.get(f"/item/{quote(INVALID)}").text
    clean = next(i for i in review.desk.assigned("asha") if i.startswith("hi/"))
    assert 'id="invalid"' not in asha.get(f"/item/{quote(clean)}").text
    assert post_verdict(asha, clean).status_code == 303 and OVERRIDE not in review.desk.latest()[clean, "asha"].answers
    # the adjudicator too; and the override is no question for agreement
    assert post_verdict(client(review, "ravi"), INVALID, good=False).status_code == 303
    page = admin.get("/admin").text
    assert "approved despite the validation error" in page
    no = admin.post("/adjudicate", data={"item": INVALID, "verdict": "correct", "csrf": csrf(page)})
    assert no.status_code == 422 and OVERRIDE in no.text and not review.desk.latest().get((INVALID, "admin"))
    yes = admin.post("/adjudicate", data={"item": INVALID, "verdict": "correct", "csrf": csrf(page), OVERRIDE: "yes"})
    assert yes.status_code == 303 and review.desk.latest()[INVALID, "admin"].answers[OVERRIDE] == "yes"
    path, _ = export_verdicts(folders[1])
    records = [r for _, r in read_jsonl(path)]
    assert any(r["answers"].get(OVERRIDE) == "yes" for r in records)
    assert {row["question"] for row in agreement_table(records, bootstrap=0)} == {
        "meaningful", "constraint", "context", "verdict"}
    # and the release takes the reviewers' word: the row is released as correct, and said to be so
    from indicifeval.builder.release.finalize import finalize

    report = finalize([folders[1]], folders[1].parent / "release")
    assert report.approved_despite_validation == [INVALID] and "approved despite the validator" in str(report)
    info = json.loads((report.out / "release.json").read_text(encoding="utf-8"))
    assert info["approved_despite_validation"] == [INVALID]
    released = [json.loads(line) for line in (report.out / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["language"], r["subset"], r["key"]) for r in released] == [tuple(INVALID.split("/"))]
    assert "incorrect" not in released[0]["tags"] and "gold prompt" in released[0]["tags"]


def test_the_builds_validate_reasons_flag_a_row_and_an_edit_replaces_them(review):
    item = next(i for i in review.desk.items() if i.workflow == "trans-keywords")
    said = "validate prompt_language: most letters are not in the language's script"
    flagged = type(item)(item.id, item.position, item.workflow, item.candidate.with_findings([said], []),
                         item.source, item.findings)
    assert validation_errors(flagged) == [said] and validation_errors(item) == []
    after = edited(flagged.candidate, item.row, [])  # the validator's say on the edited row replaces it
    assert said not in after.reasons and after.row == item.row
    error = {"severity": "error", "check": "keyword_in_prompt", "message": "gone"}
    assert edited(item.candidate, item.row, [error]).reasons == ("validate keyword_in_prompt: gone",)
