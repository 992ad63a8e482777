"""The review app in a real browser: headless Chromium (Debian's, through Playwright) against
the app served by `indicifeval build review serve` in its own process. Two annotators log in
and annotate with the keyboard only; Urdu is right to left; a keyword fix re-validates; a
hostile prompt runs nothing; forged requests are refused; a killed server loses no saved
verdict. Skips without Playwright or Chromium."""

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
from tests.builder.review_fixtures import annotators_file, ground_folder, token, trans_folder  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, folders: list[Path], annotators: Path):
        self.folders, self.annotators, self.port = folders, annotators, _free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        argv = [sys.executable, "-m", "indicifeval", "build", "review", "serve", *map(str, self.folders),
                "--annotators", str(self.annotators), "--port", str(self.port)]
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
