"""Make the review app's screenshots in docs/ (needs Playwright and Chromium):

    python docs/review_screenshots.py [--chromium /usr/bin/chromium]

Builds a Hindi and an Urdu Trans folder from the bundled sample with the fake translator,
serves the review app on a free port and photographs an item page, an Urdu item and the admin
page."""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from indicifeval.builder.trans.pipeline import EngineSpec, build_trans

    here = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        folders = []
        for lang in ("hi", "ur"):
            out = Path(tmp) / lang
            build_trans(out, lang, "sample", EngineSpec("mock", "fake", {"answers": "fake:0.3"}))
            folders.append(out)
        tokens = {"asha": "asha-token-0123456789", "admin": {"token": "admin-token-0123456789", "role": "admin"}}
        (Path(tmp) / "a.json").write_text(json.dumps(tokens), encoding="utf-8")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "indicifeval", "build", "review", "serve", *map(str, folders),
                                   "--annotators", str(Path(tmp) / "a.json"), "--port", str(port)])
        try:
            time.sleep(4)
            url = f"http://127.0.0.1:{port}"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 1100, "height": 1000})
                page.goto(url + "/login")
                page.keyboard.type(tokens["admin"]["token"])  # type: ignore[index]
                with page.expect_navigation():
                    page.keyboard.press("Enter")
                rows = [json.loads(x) for x in (folders[0] / "trans" / "rows.jsonl").read_text("utf-8").splitlines()]
                row = next(r for r in rows if r["status"] == "needs-review" and any(kw.get("keywords")
                                                                                    for kw in r["kwargs"]))
                page.goto(url + "/item/" + quote(f"hi/trans/{row['key']}"))
                page.keyboard.press("1")
                page.screenshot(path=str(here / "review-item.png"), full_page=True)
                page.goto(url + "/item/" + quote("ur/trans/en-trans-03-pass"))
                page.screenshot(path=str(here / "review-urdu.png"))
                page.goto(url + "/admin")
                page.screenshot(path=str(here / "review-admin.png"))
                browser.close()
        finally:
            server.kill()
    print("wrote", ", ".join(str(here / n) for n in ("review-item.png", "review-urdu.png", "review-admin.png")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
