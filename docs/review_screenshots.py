"""Make the review app's screenshots in docs/ (needs Playwright and Chromium):

    python docs/review_screenshots.py [--chromium /usr/bin/chromium]

Builds a Hindi and an Urdu Trans folder from the bundled sample with the fake translator and
an Urdu Ground folder with the fake prompt writer (over a corpus written from the sample's Urdu
words), serves the review app on a free port, has two annotators disagree on a Ground item, and
photographs an item page, an Urdu item, a Ground item with its context and the admin page."""

from __future__ import annotations

import argparse
import json
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

NAMES = ("review-item.png", "review-urdu.png", "review-ground.png", "review-admin.png")


def urdu_corpus(path: Path) -> Path:
    """600 documents of one to three paragraphs, from the words of the sample's Urdu rows."""
    from indicifeval.dataset import load_rows
    from indicifeval.text.words import words

    rng = random.Random(0)
    vocab = sorted({w for r in load_rows("sample") if r.language == "ur" for w in words(r.prompt)
                    if not w.isascii() and not w.isdigit()})
    with path.open("w", encoding="utf-8") as fh:
        for i in range(600):
            text = "\n\n".join(" ".join(" ".join(rng.choices(vocab, k=rng.randint(5, 12))) + "۔"
                                          for _ in range(rng.randint(2, 5))) for _ in range(rng.choice((1, 1, 2, 3))))
            fh.write(json.dumps({"doc_id": f"ur-{i:05d}", "text": text}, ensure_ascii=False) + "\n")
    return path


def login(browser, url: str, secret: str):
    page = browser.new_page(viewport={"width": 1100, "height": 1000})
    page.goto(url + "/login")
    page.keyboard.type(secret)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return page


def judge(page, url: str, item: str, keys: str, comment: str) -> None:
    page.goto(url + "/item/" + quote(item))
    for key in keys:
        page.keyboard.press(key)
    page.locator("#comment").fill(comment)
    page.keyboard.press("Escape")
    with page.expect_navigation():
        page.keyboard.press("Enter")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from indicifeval.builder.ground.pipeline import Generator, MiningOptions, build_ground
    from indicifeval.builder.trans.pipeline import EngineSpec, build_trans

    here = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        folders = []
        for lang in ("hi", "ur"):
            out = Path(tmp) / lang
            build_trans(out, lang, "sample", EngineSpec("mock", "fake", {"answers": "fake:0.3"}))
            folders.append(out)
        plan = Path(tmp) / "plan.json"
        plan.write_text(json.dumps({"keyword_frequency": {"2": 1}, "forbidden_word": 1, "number_sentences": {"3": 1},
                                    "number_paragraphs": {"2": 1}, "first_word": 1}), encoding="utf-8")
        ground = Path(tmp) / "ur-ground"
        build_ground(ground, "ur", str(urdu_corpus(Path(tmp) / "ur.jsonl")), str(plan),
                     Generator(options={"answers": "fake:0"}), executor="serial", mining=MiningOptions(top_k=300))
        folders.append(ground)
        tokens = {"asha": "asha-token-0123456789", "ravi": "ravi-token-0123456789",
                  "admin": {"token": "admin-token-0123456789", "role": "admin"}}
        (Path(tmp) / "a.json").write_text(json.dumps(tokens), encoding="utf-8")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "indicifeval", "build", "review", "serve", *map(str, folders),
                                   "--annotators", str(Path(tmp) / "a.json"), "--port", str(port), "--overlap", "1"])
        try:
            time.sleep(4)
            url = f"http://127.0.0.1:{port}"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                judge(login(browser, url, str(tokens["asha"])), url, "ur/ground/1", "111", "ٹھیک ہے")
                judge(login(browser, url, str(tokens["ravi"])), url, "ur/ground/1", "212",
                      "جملہ غیر فطری ہے، اور سیاق کے بغیر سمجھ نہیں آتا")
                page = login(browser, url, tokens["admin"]["token"])  # type: ignore[index]
                rows = [json.loads(x) for x in (folders[0] / "trans" / "rows.jsonl").read_text("utf-8").splitlines()]
                row = next(r for r in rows if r["status"] == "needs-review" and any(kw.get("keywords")
                                                                                    for kw in r["kwargs"]))
                page.goto(url + "/item/" + quote(f"hi/trans/{row['key']}"))
                page.keyboard.press("1")
                page.screenshot(path=str(here / "review-item.png"), full_page=True)
                page.goto(url + "/item/" + quote("ur/trans/en-trans-03-pass"))
                page.screenshot(path=str(here / "review-urdu.png"))
                page.goto(url + "/item/" + quote("ur/ground/1"))
                page.keyboard.press("1")
                page.keyboard.press("Enter")  # a question left open: named, nothing saved
                page.screenshot(path=str(here / "review-ground.png"), full_page=True)
                page.goto(url + "/admin")
                page.screenshot(path=str(here / "review-admin.png"), full_page=True)
                browser.close()
        finally:
            server.kill()
    print("wrote", ", ".join(str(here / n) for n in NAMES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
