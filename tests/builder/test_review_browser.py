"""The review app in a real browser: headless Chromium (Debian's, through Playwright) against
the app served by `indicifeval build review serve` in its own process. Two annotators log in
and annotate with the keyboard only; Urdu is right to left; a keyword fix re-validates; a
hostile prompt runs nothing; forged requests are refused; a killed server loses no saved
verdict; on an Urdu Ground project, two annotators and an admin see each item's source context
marked, are told which questions are open when they save too early, read Urdu right to left
on every page, and the admin adjudicates with both annotators' answers and comments side by
side. Skips without Playwright or Chromium."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = os.environ.get("INDICIFEVAL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM:
    pytest.skip("no Chromium executable (Debian: apt install chromium)", allow_module_level=True)
pytest.importorskip("uvicorn")

from indicifeval.builder.review.store import ReviewStore  # noqa: E402
from tests.builder.review_fixtures import (  # noqa: E402
    HOSTILE,
    annotators_file,
    built_ground_folder,
    ground_folder,
    token,
    trans_folder,
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, folders: list[Path], annotators: Path, *extra: str):
        self.folders, self.annotators, self.port, self.extra = folders, annotators, _free_port(), extra
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        argv = [sys.executable, "-m", "indicifeval", "build", "review", "serve", *map(str, self.folders),
                "--annotators", str(self.annotators), "--port", str(self.port), *self.extra]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.proc.poll() is not None:
                    why = self.proc.stderr.read().decode() if self.proc.stderr else "server died"
                    raise RuntimeError(why) from None
                time.sleep(0.1)
        raise RuntimeError("the review server did not start")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    folders = [trans_folder(root, "hi", hostile=True), trans_folder(root, "ur"), ground_folder(root)]
    server = Server(folders, annotators_file(root)).start()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield server, browser, folders
        browser.close()
    server.kill()


def _login(browser, server: Server, name: str):
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#token:focus")  # the login page gives the token field the focus
    page.keyboard.type(token(name))
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()
    assert "/login" not in page.url, f"{name} was not let in"
    return context, page


def _verdicts(folders: list[Path]) -> list[tuple]:
    out = []
    for folder in folders:
        db = sqlite3.connect(folder / "review" / "review.sqlite")
        out += db.execute("SELECT item_id, annotator, verdict FROM verdicts WHERE withdrawn = 0").fetchall()
        db.close()
    return out


def _annotate(page, n: int) -> list[str]:
    """Answer ``n`` items with the keyboard only: "1" for each question, then Enter."""
    done = []
    for _ in range(n):
        item = page.get_attribute("#item", "data-item")
        for _ in range(page.locator("fieldset.question").count()):
            page.keyboard.press("1")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        done.append(item)
    return done


def test_two_annotators_with_the_keyboard_only(setup):
    server, browser, folders = setup
    (ca, asha), (cr, ravi) = _login(browser, server, "asha"), _login(browser, server, "ravi")
    started = time.perf_counter()
    done_a = _annotate(asha, 6)
    done_r = _annotate(ravi, 6)
    per_item = (time.perf_counter() - started) / 12
    saved = {(i, a) for i, a, _ in _verdicts(folders)}
    assert {(i, "asha") for i in done_a} <= saved and {(i, "ravi") for i in done_r} <= saved
    # n and p move between items, u withdraws the verdict
    asha.goto(server.url + "/item/" + quote(done_a[0]))
    asha.keyboard.press("n")
    asha.wait_for_url("**/item/**")
    assert asha.get_attribute("#item", "data-item") != done_a[0]
    asha.goto(server.url + "/item/" + quote(done_a[0]))
    with asha.expect_navigation():
        asha.keyboard.press("u")
    assert (done_a[0], "asha") not in {(i, a) for i, a, _ in _verdicts(folders)}
    print(f"\nkeyboard review: {per_item * 1000:.0f} ms per item (browser, server and SQLite)")
    ca.close()
    cr.close()


def test_urdu_renders_right_to_left(setup):
    server, browser, folders = setup
    context, page = _login(browser, server, "admin")
    page.goto(server.url + "/item/" + quote("ur/trans/en-trans-01-pass"))
    prompt = page.locator("#prompt")
    assert prompt.evaluate("e => getComputedStyle(e).direction") == "rtl"
    assert "Nastaliq" in prompt.evaluate("e => getComputedStyle(e).fontFamily")
    context.close()


def test_a_hostile_prompt_runs_nothing(setup):
    server, browser, folders = setup
    context, page = _login(browser, server, "admin")
    dialogs: list = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/item/" + quote("hi/trans/en-trans-01-pass"))
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.pwned") is None and not dialogs
    assert "<script>window.pwned = 1</script>" in page.locator("#prompt").inner_text()
    assert page.locator("#prompt img").count() == 0
    context.close()


def test_a_keyword_fix_updates_the_row_and_revalidates(setup):
    server, browser, folders = setup
    context, page = _login(browser, server, "admin")
    rows = [json.loads(x) for x in (folders[0] / "trans" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    row = next(r for r in rows if any(kw.get("keywords") for kw in r["kwargs"]))
    page.goto(server.url + "/item/" + quote(f"hi/trans/{row['key']}"))
    old = page.locator("#fix-old option").first.get_attribute("value")
    page.locator("#fix-new").fill("ब्राउज़रशब्द")
    with page.expect_navigation():
        page.locator("#fix button").click()
    assert "re-validated: 0 errors" in page.locator(".notice").inner_text()
    assert "ब्राउज़रशब्द" in page.locator("#prompt mark").all_inner_texts()
    store = ReviewStore(folders[0], read_only=True)  # the edit is the review's, with who and when
    (edit,) = store.edits(f"hi/trans/{row['key']}")
    store.close()
    fixed = edit["after"]
    assert edit["annotator"] == "admin" and edit["at"]
    assert "ब्राउज़रशब्द" in fixed["prompt"] and old not in json.dumps(fixed["kwargs"], ensure_ascii=False)
    context.close()


def test_forged_and_tokenless_requests_are_refused(setup):
    server, browser, folders = setup
    context, page = _login(browser, server, "asha")
    item = page.get_attribute("#item", "data-item")
    before = len(_verdicts(folders))
    forged = page.request.post(server.url + "/verdict", form={"item": item, "csrf": "forged", "q_meaningful": "yes",
                                                              "q_translation": "yes", "q_keywords": "yes"})
    assert forged.status == 403
    stranger = browser.new_context()
    assert stranger.request.post(server.url + "/verdict", form={"item": item, "csrf": "x"}).status == 403
    page2 = stranger.new_page()
    page2.goto(server.url + "/item/" + quote(item))
    assert page2.url.endswith("/login")
    assert len(_verdicts(folders)) == before
    stranger.close()
    context.close()


def test_killing_the_server_loses_no_saved_verdict(setup, tmp_path):
    server, browser, folders = setup
    copies = [Path(shutil.copytree(f, tmp_path / f.name)) for f in folders]
    own = Server(copies, annotators_file(tmp_path)).start()
    context, page = _login(browser, own, "ravi")
    done = _annotate(page, 4)
    own.kill()  # SIGKILL, with the annotator's session open
    saved = {(i, a) for i, a, _ in _verdicts(copies)}
    assert {(i, "ravi") for i in done} <= saved
    own.start()  # a new process on the same folders: the annotator logs in again and goes on
    context.close()
    context, page = _login(browser, own, "ravi")
    assert page.get_attribute("#item", "data-item") not in done
    own.kill()
    context.close()


def test_a_row_failing_validation_needs_the_override_and_guidelines_show(setup):
    """On a Ground row the validator refuses: the flag, the instructions in words, the folder's
    guidelines (escaped; g hides and shows them); Enter with every answer "yes" saves nothing and
    names the override; a ticks it and Enter saves, the override recorded."""
    server, browser, folders = setup
    item = "ta/ground/ta-ground-01-pass"
    (folders[2] / "review" / "guidelines.md").write_text(
        "# Tamil team\n\nJudge the <img src=x onerror=\"window.pwned = 3\"> prompt.\n\n- one\n- two\n",
        encoding="utf-8")
    context, page = _login(browser, server, "admin")
    dialogs: list = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(server.url + "/item/" + quote(item))
    assert page.locator("#invalid").is_visible() and "relation_missing" in page.locator("#invalid").inner_text()
    described = page.locator("ol.instructions .described")
    assert described.first.is_visible() and described.first.get_attribute("lang") == "ta"
    assert page.locator("ol.instructions .described-en").first.inner_text().startswith("In your response")
    guide = page.locator("#guidelines")
    assert guide.locator("h3").inner_text() == "Tamil team" and guide.locator("li").all_inner_texts() == ["one", "two"]
    assert "<img src=x" in guide.inner_text() and page.locator("#guidelines img").count() == 0
    page.keyboard.press("g")
    sync_api.expect(guide.locator("h3")).to_be_hidden()
    page.reload()  # left closed, it stays closed (the page's script closes it once loaded: wait for it)
    sync_api.expect(page.locator("#guidelines h3")).to_be_hidden()
    page.keyboard.press("g")
    sync_api.expect(guide.locator("h3")).to_be_visible()
    for _ in range(page.locator("fieldset.question").count()):
        page.keyboard.press("1")
    page.keyboard.press("Enter")
    said = page.locator("#unanswered")
    said.wait_for(state="visible")
    assert "fails validation" in said.inner_text() and page.url.endswith(quote(item))
    assert (item, "admin") not in {(i, a) for i, a, _ in _verdicts(folders)}
    page.keyboard.press("a")
    assert page.locator("#override").is_checked()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    db = sqlite3.connect(folders[2] / "review" / "review.sqlite")
    (answers,) = db.execute("SELECT answers FROM verdicts WHERE item_id = ? AND annotator = ?",
                            (item, "admin")).fetchone()
    db.close()
    assert json.loads(answers)["approve_despite_validation"] == "yes"
    assert page.evaluate("() => window.pwned") is None and not dialogs
    context.close()


@pytest.fixture(scope="module")
def urdu(setup, tmp_path_factory):
    """An Urdu Ground folder made by the Ground pipeline (rows with provenance, their contexts),
    served with every item to both annotators."""
    _, browser, _ = setup
    root = tmp_path_factory.mktemp("urdu")
    folder = built_ground_folder(root, "ur")
    server = Server([folder], annotators_file(root), "--overlap", "1").start()
    yield server, browser, folder
    server.kill()


def _direction(page, selector: str) -> str:
    return page.locator(selector).first.evaluate("e => getComputedStyle(e).direction")


def _ground_rows(folder: Path) -> list[dict]:
    return [json.loads(x) for x in (folder / "ground" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]


def test_two_annotators_and_an_admin_on_an_urdu_ground_project(urdu):
    server, browser, folder = urdu
    rows = {f"ur/ground/{r['key']}": r for r in _ground_rows(folder)}
    (ca, asha), (cr, ravi), (cd, admin) = (_login(browser, server, n) for n in ("asha", "ravi", "admin"))
    dialogs: list = []
    for page in (asha, ravi, admin):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    # the source context, right to left, marked where the constraint applies
    first = asha.get_attribute("#item", "data-item")
    row = rows[first]
    assert row["instruction_id_list"] == ["keywords:frequency"]
    context = asha.locator("#context")
    assert context.is_visible() and _direction(asha, "#context") == "rtl" and _direction(asha, "#prompt") == "rtl"
    marks = asha.locator("#context mark")
    keyword, times = row["kwargs"][0]["keyword"], row["kwargs"][0]["frequency"]
    assert marks.all_inner_texts() == [keyword] * times
    assert marks.first.evaluate("e => getComputedStyle(e).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")

    # Enter with questions open saves nothing and names them; then the keyboard goes on as before
    asha.keyboard.press("1")
    asha.keyboard.press("Enter")
    said = asha.locator("#unanswered")
    said.wait_for(state="visible")
    text = said.inner_text()
    assert "2. Is the constraint stated clearly and correctly?" in text and "3. Does it need an external" in text
    assert "1. Is the prompt" not in text and asha.locator("fieldset.question.unanswered").count() == 2
    assert asha.get_attribute("fieldset.question.current", "data-question") == "constraint"
    assert asha.get_attribute("#item", "data-item") == first and (first, "asha") not in {
        (i, a) for i, a, _ in _verdicts([folder])}
    asha.keyboard.press("1")
    asha.keyboard.press("1")
    assert not said.is_visible() and asha.locator("fieldset.question.unanswered").count() == 0
    asha.keyboard.press("c")
    asha.keyboard.type("ٹھیک ہے")
    asha.keyboard.press("Escape")
    with asha.expect_navigation():
        asha.keyboard.press("Enter")
    # the Save button too, with a question open, names it
    asha.keyboard.press("1")
    asha.locator("#save").click()
    said.wait_for(state="visible")
    assert "2. Is the constraint" in said.inner_text()
    assert (first, "asha") in {(i, a) for i, a, _ in _verdicts([folder])}

    # ravi disagrees on the same item, with a hostile comment
    ravi.goto(server.url + "/item/" + quote(first))
    ravi.keyboard.press("2")
    ravi.keyboard.press("1")
    ravi.keyboard.press("2")
    ravi.locator("#comment").fill(HOSTILE + " غیر فطری")
    ravi.keyboard.press("Escape")  # out of the comment box: Enter saves again
    with ravi.expect_navigation():
        ravi.keyboard.press("Enter")

    # the first word, numbered sentences and paragraphs are marked in their contexts
    for item, r in rows.items():
        ids, kw = r["instruction_id_list"], {k: v for x in r["kwargs"] for k, v in x.items() if v is not None}
        admin.goto(server.url + "/item/" + quote(item))
        assert _direction(admin, "#context") == "rtl"
        if ids == ["length_constraints:nth_paragraph_first_word"]:
            assert admin.locator("#context mark").all_inner_texts() == [kw["first_word"]]
        if "length_constraints:number_sentences" in ids:
            assert admin.locator("#context .sentence").count() == kw["num_sentences"]
        if "length_constraints:number_paragraphs" in ids:
            assert admin.locator("#context .para").count() == kw["num_paragraphs"]

    # the admin lands on the disagreement: progress and the disagreement, right to left, side by side
    admin.goto(server.url + "/")
    assert admin.url.endswith("/admin") and "Disagreements to adjudicate (1)" in admin.locator("h1").first.inner_text()
    assert _direction(admin, "table.progress .native") == "rtl"
    dispute = admin.locator(f'section.dispute[data-item="{first}"]')
    assert _direction(admin, f'section.dispute[data-item="{first}"] .prompt') == "rtl"
    assert dispute.locator("th.annotator").all_inner_texts() == ["asha", "ravi"]
    meaningful = dispute.locator('tr[data-question="meaningful"] td')
    assert meaningful.all_inner_texts() == ["Yes", "No"]
    assert dispute.locator('tr[data-question="context"] td').all_inner_texts() == ["No, answerable as it is", "Yes"]
    comments = dispute.locator("tr.comment td")
    assert comments.all_inner_texts() == ["ٹھیک ہے", HOSTILE + " غیر فطری"]
    assert comments.first.evaluate("e => getComputedStyle(e).direction") == "rtl"
    assert admin.evaluate("() => window.pwned") is None and not dialogs
    with admin.expect_navigation():
        dispute.locator('button[value="incorrect"]').click()
    assert admin.locator(f'section.dispute[data-item="{first}"]').count() == 0

    # progress and done pages, right to left, once asha has judged all her items
    asha.goto(server.url + "/progress")
    assert _direction(asha, "table.progress .native") == "rtl"
    asha.goto(server.url + "/next")
    while asha.locator("#item").count():
        for _ in range(asha.locator("fieldset.question").count()):
            asha.keyboard.press("1")
        with asha.expect_navigation():
            asha.keyboard.press("Enter")
    assert "Nothing left to review" in asha.content() and _direction(asha, "table.progress .native") == "rtl"
    admin.goto(server.url + "/")  # nothing left to adjudicate: the admin is done too
    assert "Nothing left to review or adjudicate" in admin.content()
    assert {i for i, a, _ in _verdicts([folder]) if a == "asha"} == set(rows)
    for c in (ca, cr, cd):
        c.close()
