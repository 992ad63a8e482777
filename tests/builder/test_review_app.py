"""The review app over HTTP (Starlette's test client): every route, the token and CSRF
guards, assignment with overlap, hostile prompts escaped, the keyword fix re-validated and
written back, undo, adjudication, export."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from indicifeval.builder.candidates import candidate_record  # noqa: E402
from indicifeval.builder.review.app import CSP, create_app  # noqa: E402
from indicifeval.builder.review.serve import export_verdicts, open_review, read_annotators  # noqa: E402
from indicifeval.core.errors import InputError  # noqa: E402
from tests.builder.review_fixtures import annotators_file, ground_folder, token, trans_folder  # noqa: E402


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("review")
    return root, [trans_folder(root, "hi", hostile=True), trans_folder(root, "ur"), ground_folder(root)]


@pytest.fixture
def folders(built, tmp_path):
    """Fresh copies of the built folders: each test starts with no verdicts."""
    root, dirs = built
    copies = [Path(shutil.copytree(d, tmp_path / d.name)) for d in dirs]
    return tmp_path, copies


@pytest.fixture
def review(folders):
    root, dirs = folders
    return open_review(dirs, read_annotators(annotators_file(root)), overlap=0.2)


def client(review, name: str | None = None) -> TestClient:
    c = TestClient(create_app(review), follow_redirects=False)
    if name:
        r = c.post("/login", data={"token": token(name), "csrf": csrf(c.get("/login").text)})
        assert r.status_code == 303 and r.headers["location"] == "/next"
    return c


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def first_item(c: TestClient) -> tuple[str, str]:
    r = c.get("/next")
    assert r.status_code == 303
    page = c.get(r.headers["location"])
    assert page.status_code == 200
    return re.search(r'data-item="([^"]+)"', page.text).group(1), page.text


def answer_all(page: str) -> dict[str, str]:
    """The first option of every question (all ok in every workflow)."""
    out = {}
    for name in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
        out[name] = re.search(rf'name="{name}" value="([^"]+)"', page).group(1)
    return out


def test_nothing_without_a_token(review):
    c = client(review)
    assert c.get("/next").headers["location"] == "/login"
    assert c.get("/item/hi/trans/en-trans-01-pass").headers["location"] == "/login"
    assert c.get("/admin").status_code == 303 and c.get("/progress").status_code == 303
    assert c.post("/verdict", data={"item": "x", "csrf": "x"}).status_code == 403
    assert c.post("/login", data={"token": "wrong-token-0123456789"}).status_code == 403
    login = c.get("/login")
    assert login.headers["content-security-policy"] == CSP and "<form" in login.text


def test_assignment_shares_the_items_with_overlap(review):
    items = sum(len(s.items()) for s in review.stores)
    asha, ravi = review.desk.assigned("asha"), review.desk.assigned("ravi")
    both = set(asha) & set(ravi)
    assert set(asha) | set(ravi) == {i.id for s in review.stores for i in s.items()}
    assert 0.1 * items <= len(both) <= 0.3 * items
    assert review.desk.assigned("admin") == []


def test_a_verdict_needs_the_sessions_csrf_token(review):
    c = client(review, "asha")
    item, page = first_item(c)
    data = {"item": item, **answer_all(page)}
    assert c.post("/verdict", data={**data, "csrf": "forged"}).status_code == 403
    assert c.post("/verdict", data=data).status_code == 403
    other = client(review, "ravi")  # another session's token is no better
    _, other_page = first_item(other)
    assert c.post("/verdict", data={**data, "csrf": csrf(other_page)}).status_code == 403
    assert not review.desk.latest()
    r = c.post("/verdict", data={**data, "csrf": csrf(page), "comment": "fine"})
    assert r.status_code == 303 and r.headers["location"] == "/next"
    saved = review.desk.latest()[item, "asha"]
    assert saved.verdict == "correct" and saved.comment == "fine"
    assert first_item(c)[0] != item  # resumes at the next open item


def test_an_annotator_sees_only_their_items_and_not_the_admin_page(review):
    c = client(review, "asha")
    theirs = [i for i in review.desk.assigned("ravi") if i not in review.desk.assigned("asha")][0]
    assert c.get(f"/item/{quote(theirs)}").status_code == 404
    assert c.get("/admin").status_code == 403


def test_hostile_prompt_text_is_escaped(review):
    admin = client(review, "admin")
    hostile = next(i.id for s in review.stores for i in s.items() if "<script>" in i.row.prompt)
    page = admin.get(f"/item/{quote(hostile)}")
    assert page.status_code == 200 and page.headers["content-security-policy"] == CSP
    assert "<script>window.pwned" not in page.text and "<img src=x" not in page.text
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in page.text
    assert page.text.count("<script") == 1  # the app's own, from /static


def test_urdu_is_right_to_left_with_its_fonts(review):
    admin = client(review, "admin")
    urdu = next(i.id for s in review.stores for i in s.items() if i.language == "ur")
    page = admin.get(f"/item/{quote(urdu)}").text
    assert re.search(r'class="prompt script-Arab" id="prompt" dir="rtl" lang="ur"', page)
    assert "Noto Nastaliq Urdu" in admin.get("/fonts.css").text


def _disagree(yes, no, item):
    """``yes`` finds ``item`` correct, ``no`` answers that it is not meaningful."""
    for c, good in ((yes, True), (no, False)):
        page = c.get(f"/item/{quote(item)}").text
        answers = answer_all(page)
        if not good:
            answers["q_meaningful"] = "no"
        assert c.post("/verdict", data={"item": item, "csrf": csrf(page), **answers}).status_code == 303


def test_undo_and_adjudication(review):
    asha, ravi, admin = client(review, "asha"), client(review, "ravi"), client(review, "admin")
    shared = next(i for i in review.desk.assigned("asha") if i in review.desk.assigned("ravi"))
    _disagree(asha, ravi, shared)
    page = asha.get(f"/item/{quote(shared)}").text
    assert 'id="undo"' in page
    asha.post("/undo", data={"item": shared, "csrf": csrf(page)})
    assert (shared, "asha") not in review.desk.latest()
    page = asha.get(f"/item/{quote(shared)}").text
    asha.post("/verdict", data={"item": shared, "csrf": csrf(page), **answer_all(page)})
    disputes = admin.get("/admin").text
    assert f'data-item="{shared}"' in disputes
    admin.post("/adjudicate", data={"item": shared, "verdict": "correct", "csrf": csrf(disputes)})
    assert review.desk.latest()[shared, "admin"].adjudication
    assert f'data-item="{shared}"' not in admin.get("/admin").text
    assert asha.post("/adjudicate", data={"item": shared, "verdict": "correct",
                                          "csrf": csrf(page)}).status_code == 403


def test_a_keyword_fix_is_stored_with_the_verdicts_not_in_the_rows_file(review, folders):
    admin = client(review, "admin")
    store, item = next((s, i) for s in review.stores for i in s.items() if i.workflow == "trans-keywords")
    keyword = re.findall(r'<option value="([^"]+)"', admin.get(f"/item/{quote(item.id)}").text)[0]
    page = admin.get(f"/item/{quote(item.id)}").text
    r = admin.post("/fix", data={"item": item.id, "csrf": csrf(page), "old": keyword, "new": "नयाशब्द"})
    assert "keyword+fixed" in r.headers["location"] or "keyword%20fixed" in r.headers["location"]
    fixed = store.item(item.id)
    assert "नयाशब्द" in fixed.row.prompt and keyword not in json.dumps(fixed.row.kwargs)
    assert not [f for f in fixed.findings if f["severity"] == "error"]  # re-validated: still consistent
    rows = [json.loads(x) for x in (store.folder / "trans" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    written = next(r for r in rows if str(r["key"]) == item.key)
    assert "नयाशब्द" not in written["prompt"]  # the build's output stays the machine's; the edit is the review's
    (edit,) = store.edits(item.id)
    assert edit["annotator"] == "admin" and edit["detail"] == {"from": keyword, "to": "नयाशब्द"} and edit["at"]
    assert keyword in json.dumps(edit["before"]["kwargs"], ensure_ascii=False)
    assert edit["after"] == candidate_record(fixed.candidate)  # the row as the rows file holds one
    page = admin.get(f"/item/{quote(item.id)}").text
    admin.post("/verdict", data={"item": item.id, "csrf": csrf(page), **answer_all(page)})
    assert review.desk.latest()[item.id, "admin"].edit["keywords"] == [{"from": keyword, "to": "नयाशब्द"}]
    bad = admin.post("/fix", data={"item": item.id, "csrf": csrf(page), "old": "nokeyword", "new": "x"})
    assert "not+one" in bad.headers["location"] or "not%20one" in bad.headers["location"]


def test_progress_export_and_logout(review, folders):
    asha = client(review, "asha")
    item, page = first_item(asha)
    asha.post("/verdict", data={"item": item, "csrf": csrf(page), **answer_all(page)})
    assert "<td>asha</td>" in asha.get("/progress").text
    folder = next(s.folder for s in review.stores if s.item(item))
    path, n = export_verdicts(folder)
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert n == len(lines) >= 1 and all(line["verdict"] in ("correct", "incorrect") for line in lines)
    page = asha.get("/progress").text
    assert asha.post("/logout", data={"csrf": csrf(page)}).status_code == 303
    assert asha.get("/next").headers["location"] == "/login"


def test_bad_annotator_files_are_clear_errors(tmp_path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"asha": "short"}), encoding="utf-8")
    with pytest.raises(InputError, match="at least 16"):
        read_annotators(path)
    path.write_text(json.dumps({"a": "x" * 20, "b": "x" * 20}), encoding="utf-8")
    with pytest.raises(InputError, match="share a token"):
        read_annotators(path)


def test_tokens_are_only_stored_hashed(review, folders):
    root, dirs = folders
    for folder in dirs:
        data = (folder / "review" / "review.sqlite").read_bytes()
        assert token("asha").encode() not in data and token("admin").encode() not in data


def test_the_admin_page_shows_a_bounded_number_of_disagreements(review, monkeypatch):
    """However many are open, the page holds the first ADMIN_DISPUTES and says how many there are;
    adjudicating one brings in the next."""
    from indicifeval.builder.review import app as app_module

    asha, ravi, admin = client(review, "asha"), client(review, "ravi"), client(review, "admin")
    shared = [i for i in review.desk.assigned("asha") if i in review.desk.assigned("ravi")][:2]
    assert len(shared) == 2
    for item in shared:
        _disagree(asha, ravi, item)
    monkeypatch.setattr(app_module, "ADMIN_DISPUTES", 1)
    page = admin.get("/admin").text
    assert page.count('class="dispute"') == 1 and "Disagreements to adjudicate (2)" in page and "The first 1" in page
    first = re.search(r'class="dispute" data-item="([^"]+)"', page).group(1)
    admin.post("/adjudicate", data={"item": first, "verdict": "correct", "csrf": csrf(page)})
    page = admin.get("/admin").text
    assert page.count('class="dispute"') == 1 and "Disagreements to adjudicate (1)" in page and first not in page
