"""What the review app shows annotators and the adjudicator (over HTTP, Starlette's test client,
on an Urdu Ground folder made by the Ground pipeline): each Ground item's source context,
marked where its constraint applies exactly as the checker counts it, escaped; a save with a
question left open refused (422) with the questions named and the answers given kept; right
to left wherever Urdu text appears; disagreements with every annotator's answers and comments
side by side."""

from __future__ import annotations

import json
import re
import shutil
from html import unescape
from pathlib import Path
from urllib.parse import quote, unquote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from markupsafe import escape  # noqa: E402  (as the pages escape)
from starlette.testclient import TestClient  # noqa: E402

from indicifeval.builder.candidates import parse_candidate  # noqa: E402
from indicifeval.builder.review.app import create_app  # noqa: E402
from indicifeval.builder.review.context import context_view  # noqa: E402
from indicifeval.builder.review.items import unanswered  # noqa: E402
from indicifeval.builder.review.serve import open_review, read_annotators  # noqa: E402
from indicifeval.checkers import render_description  # noqa: E402
from indicifeval.core.errors import Source  # noqa: E402
from indicifeval.languages import get_profile  # noqa: E402
from indicifeval.text.keywords import count_keyword  # noqa: E402
from indicifeval.text.normalize import match_key  # noqa: E402
from tests.builder.review_fixtures import (  # noqa: E402
    HOSTILE,
    annotators_file,
    built_ground_folder,
    ground_folder,
    token,
    trans_folder,
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("annotators")
    return root, built_ground_folder(root, "ur"), trans_folder(root, "hi")


@pytest.fixture
def urdu(built, tmp_path):
    """A fresh copy of the Urdu Ground folder, reviewed by asha and ravi on every item."""
    root, folder, _ = built
    copy = Path(shutil.copytree(folder, tmp_path / folder.name))
    return copy, open_review([copy], read_annotators(annotators_file(tmp_path)), overlap=1.0)


def client(review, name: str) -> TestClient:
    c = TestClient(create_app(review), follow_redirects=False)
    r = c.post("/login", data={"token": token(name), "csrf": csrf(c.get("/login").text)})
    assert r.status_code == 303, r.text
    return c


def csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def rows(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "ground" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]


def section(page: str, start: str, end: str = "</section>") -> str:
    at = page.index(start)
    return page[at:page.index(end, at)]


def kwargs_of(row: dict) -> dict:
    return {k: v for kw in row["kwargs"] for k, v in kw.items() if v is not None}


def test_every_ground_item_shows_its_context_marked_where_the_constraint_applies(urdu):
    folder, review = urdu
    admin = client(review, "admin")
    contexts = {json.loads(x)["id"]: json.loads(x) for x in
                (folder / "ground" / "contexts.jsonl").read_text(encoding="utf-8").splitlines()}
    seen = set()
    for row in rows(folder):
        page = admin.get(f"/item/{quote('ur/ground/' + str(row['key']))}").text
        context = section(page, '<section class="context')
        assert 'dir="rtl" lang="ur"' in context and "script-Arab" in context
        text = contexts[row["provenance"]["context_id"]]["text"]
        shown = unescape(re.sub(r"<[^>]+>", "", context.split(">", 1)[1]))
        assert " ".join(re.sub(r"¶\d+|\d+", " ", shown).split()) == " ".join(text.split())  # the whole passage
        marks = [unescape(m) for m in re.findall(r"<mark>(.*?)</mark>", context)]
        kw, ids = kwargs_of(row), row["instruction_id_list"]
        if ids == ["keywords:frequency"]:
            assert marks == [kw["keyword"]] * kw["frequency"] == [kw["keyword"]] * count_keyword(match_key(text),
                                                                                                   kw["keyword"])
        elif ids == ["keywords:forbidden_words"]:
            (word,) = kw["forbidden_words"]
            assert len(marks) == count_keyword(match_key(text), word) >= 2 and set(marks) == {word}
        elif ids == ["length_constraints:nth_paragraph_first_word"]:
            assert marks == [kw["first_word"]] and re.search(r'data-paragraph="1"><mark>', context)
        else:
            assert not marks
        if "length_constraints:number_sentences" in ids:
            assert context.count("data-sentence=") == kw["num_sentences"]
        if "length_constraints:number_paragraphs" in ids:
            assert context.count("data-paragraph=") == kw["num_paragraphs"] and "¶2" in context
        seen.add(tuple(ids))
    assert len(seen) == 6  # keyword, forbidden word, first word, sentences, paragraphs, both


def test_the_context_is_escaped_and_marked_through_joiners(urdu):
    folder, review = urdu
    path = folder / "ground" / "contexts.jsonl"
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    row = next(r for r in rows(folder) if r["instruction_id_list"] == ["keywords:frequency"])
    keyword = kwargs_of(row)["keyword"]
    joined = keyword[:2] + "\u200c" + keyword[2:]  # the same word to a reader, and to the checker
    record = next(r for r in records if r["id"] == row["provenance"]["context_id"])
    record["text"] = f"{HOSTILE} {keyword}، {joined}۔\n\n<b>{keyword}</b>{keyword}"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    page = client(review, "admin").get(f"/item/{quote('ur/ground/' + str(row['key']))}").text
    context = section(page, '<section class="context')
    assert "<script>window.pwned" not in page and "<img src=x" not in page and "<b>" not in context
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in context
    marks = [unescape(m) for m in re.findall(r"<mark>(.*?)</mark>", context)]
    assert marks == [keyword, joined, keyword, keyword] == [keyword, joined] + [keyword] * (
        count_keyword(match_key(record["text"]), keyword) - 2)  # "</b>" is no letter: a word ends there
    assert "marked 4 times in the context; the prompt asks exactly" in page


def test_rows_without_a_recorded_context_say_so(urdu, built, tmp_path):
    folder, review = urdu
    row = rows(folder)[0]
    candidate = parse_candidate({**row, "provenance": {**row["provenance"], "context_id": "no-such-context"}},
                                Source("test", 1))
    gone = context_view(folder, candidate)
    assert gone["missing"] and "no-such-context" in gone["missing"] and not gone["paragraphs"]
    sample = ground_folder(tmp_path, "ta")  # the bundled sample's rows: no provenance
    other = open_review([sample], read_annotators(annotators_file(tmp_path)), overlap=0)
    page = client(other, "admin").get("/item/" + quote(other.desk.items()[0].id)).text
    assert 'id="context-missing"' in page and "No source context is recorded" in page
    trans = open_review([built[2]], read_annotators(annotators_file(tmp_path)), overlap=0)
    page = client(trans, "admin").get("/item/" + quote(trans.desk.items()[0].id)).text
    assert "Source context" not in page and 'id="source"' in page  # Trans rows show their English source


def test_a_save_with_open_questions_is_refused_and_names_them(urdu):
    folder, review = urdu
    asha = client(review, "asha")
    item = unquote(asha.get("/next").headers["location"].removeprefix("/item/"))
    page = asha.get(f"/item/{quote(item)}").text
    r = asha.post("/verdict", data={"item": item, "csrf": csrf(page),
                                    "q_meaningful": "yes", "comment": "رائے"})
    assert r.status_code == 422 and not review.desk.latest()
    said = unescape(section(r.text, 'id="unanswered"', "</p>"))
    assert "Not saved: answer questions 2. Is the constraint stated clearly and correctly?; " \
           "3. Does it need an external context the model cannot have?" in said
    assert 'role="alert"' in said and "hidden" not in said.split(">", 1)[0]
    fieldsets = re.findall(r'<fieldset class="([^"]+)" data-question="([a-z]+)"', r.text)
    assert fieldsets == [("question", "meaningful"), ("question unanswered", "constraint"),
                         ("question unanswered", "context")]
    assert re.search(r'name="q_meaningful" value="yes"[^>]* checked', r.text) and ">رائے</textarea>" in r.text
    bad = asha.post("/verdict", data={"item": item, "csrf": csrf(page),
                                      "q_meaningful": "yes", "q_constraint": "perhaps", "q_context": "no"})
    assert bad.status_code == 422 and "2. Is the constraint stated clearly and correctly? (not one of its options)" \
        in unescape(bad.text) and "3. Does it need" not in unescape(section(bad.text, 'id="unanswered"', "</p>"))
    ok = asha.post("/verdict", data={"item": item, "csrf": csrf(page),
                                     "q_meaningful": "yes", "q_constraint": "yes", "q_context": "no"})
    assert ok.status_code == 303 and len(review.desk.latest()) == 1
    fresh = asha.get(f"/item/{quote(item)}").text
    assert re.search(r'id="unanswered" role="alert" hidden', fresh) and "question unanswered" not in fresh
    assert unanswered("ground", {"meaningful": "yes", "constraint": "no", "context": "yes"}) == []


def _judge(c: TestClient, item: str, answers: dict[str, str], comment: str) -> None:
    page = c.get(f"/item/{quote(item)}").text
    r = c.post("/verdict", data={"item": item, "csrf": csrf(page), "comment": comment,
                                 **{f"q_{k}": v for k, v in answers.items()}})
    assert r.status_code == 303


def test_right_to_left_wherever_urdu_appears_and_not_elsewhere(urdu, built, tmp_path):
    folder, review = urdu
    asha, ravi, admin = (client(review, n) for n in ("asha", "ravi", "admin"))
    item = "ur/ground/1"
    _judge(asha, item, {"meaningful": "yes", "constraint": "yes", "context": "no"}, "")
    _judge(ravi, item, {"meaningful": "no", "constraint": "yes", "context": "no"}, "")
    page = asha.get(f"/item/{quote(item)}").text
    assert re.search(r'class="prompt script-Arab" id="prompt" dir="rtl" lang="ur"', page)
    assert re.search(r'id="context" dir="rtl" lang="ur"', page) and 'id="comment" rows="2" dir="auto"' in page
    admin_page = admin.get("/admin").text
    assert re.search(r'<p class="prompt script-Arab" dir="rtl" lang="ur">', section(admin_page, 'class="dispute"'))
    native = '<span class="native script-Arab" dir="rtl" lang="ur">اردو</span>'
    assert native in admin_page and native in asha.get("/progress").text
    for n in range(1, len(rows(folder)) + 1):
        if n != 1:
            _judge(asha, f"ur/ground/{n}", {"meaningful": "yes", "constraint": "yes", "context": "no"}, "")
    done = asha.get(asha.get("/next").headers.get("location", "/next"))
    assert "Nothing left to review" in done.text and native in done.text
    hindi = open_review([built[2]], read_annotators(annotators_file(tmp_path)), overlap=0)
    hi_admin = client(hindi, "admin")
    hi_page = hi_admin.get("/item/" + quote(hindi.desk.items()[0].id)).text
    assert 'dir="rtl"' not in hi_page and re.search(r'id="prompt" dir="ltr" lang="hi"', hi_page)
    assert 'dir="rtl"' not in hi_admin.get("/progress").text


def test_disagreements_show_each_annotators_answers_and_comments(urdu):
    folder, review = urdu
    asha, ravi, admin = (client(review, n) for n in ("asha", "ravi", "admin"))
    row = next(r for r in rows(folder) if r["instruction_id_list"] == ["keywords:forbidden_words"])
    item = f"ur/ground/{row['key']}"
    _judge(asha, item, {"meaningful": "yes", "constraint": "yes", "context": "no"}, "ٹھیک ہے")
    _judge(ravi, item, {"meaningful": "yes", "constraint": "no", "context": "yes"}, HOSTILE + " غیر واضح")
    page = admin.get("/admin").text
    dispute = section(page, f'<section class="dispute" data-item="{item}"')
    assert "<script>window.pwned" not in page and "<img src=x" not in page
    assert f'<td data-annotator="ravi" dir="auto">{HOSTILE} غیر واضح</td>' in unescape(dispute)
    assert re.findall(r'<th class="annotator">(\w+)</th>', dispute) == ["asha", "ravi"]
    table = re.findall(r'<tr class="question( differ)?" data-question="(\w+)"><th scope="row">(\d)\. ([^<]+)</th>'
                       r'<td class="answer (ok|not-ok)" data-annotator="asha" data-value="(\w+)">([^<]+)</td>'
                       r'<td class="answer (ok|not-ok)" data-annotator="ravi" data-value="(\w+)">([^<]+)</td></tr>',
                       dispute)
    assert [(d, q, n, a_ok, a, r_ok, r) for d, q, n, _, a_ok, a, _, r_ok, r, _ in table] == [
        ("", "meaningful", "1", "ok", "yes", "ok", "yes"),
        (" differ", "constraint", "2", "ok", "yes", "not-ok", "no"),
        (" differ", "context", "3", "ok", "no", "not-ok", "yes")]
    assert table[2][6] == "No, answerable as it is" and table[2][9] == "Yes"
    assert re.search(r'<td data-annotator="asha"><b>correct</b></td><td data-annotator="ravi"><b>incorrect</b>',
                     dispute)
    assert '<td data-annotator="asha" dir="auto">ٹھیک ہے</td>' in dispute
    words = row["kwargs"][0]["forbidden_words"]  # the instruction in words, Urdu and English; its data for experts
    urdu, english = (render_description("keywords:forbidden_words", {"forbidden_words": words}, get_profile(code))
                     for code in ("ur", "en"))
    assert escape(urdu) in dispute and escape(english) in dispute and "forbidden_words=" not in dispute
    raw = escape(json.dumps({"forbidden_words": words}, ensure_ascii=False))
    assert f'<code>keywords:forbidden_words</code> <bdi class="raw-kwargs">{raw}</bdi>' in dispute
    assert 'dir="rtl" lang="ur">' in dispute  # with the row: prompt and instructions
    r = admin.post("/adjudicate", data={"item": item, "verdict": "incorrect", "csrf": csrf(page)})
    assert r.status_code == 303 and f'data-item="{item}"' not in admin.get("/admin").text
