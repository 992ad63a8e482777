"""The whole human step through the command line: build folders for three languages, two
annotators and an admin in the app, export, agreement, finalize, publish; the release loads
with `datasets.load_dataset` and is run by `indicifeval run --data`."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("starlette")
datasets = pytest.importorskip("datasets")

from starlette.testclient import TestClient  # noqa: E402

from indicifeval.builder.review.app import create_app  # noqa: E402
from indicifeval.builder.review.serve import open_review, read_annotators  # noqa: E402
from indicifeval.cli import main  # noqa: E402
from tests.builder.review_fixtures import annotators_file, token, trans_folder  # noqa: E402


def _review_everything(review, name: str, disagree_on: set[str]) -> int:
    c = TestClient(create_app(review), follow_redirects=False)
    c.post("/login", data={"token": token(name)})
    n = 0
    while (location := c.get("/next").headers.get("location")) is not None:
        page = c.get(location).text
        item = re.search(r'data-item="([^"]+)"', page).group(1)
        data = {"item": item, "csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1)}
        for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
            values = re.findall(rf'name="{q}" value="([^"]+)"', page)
            data[q] = values[-1] if item in disagree_on and q == "q_meaningful" else values[0]
        assert c.post("/verdict", data=data).status_code == 303
        n += 1
    return n


def test_build_review_finalize_publish_and_run(tmp_path, capsys):
    folders = [trans_folder(tmp_path, lang) for lang in ("hi", "ta", "ur")]
    annotators = annotators_file(tmp_path)
    review = open_review(folders, read_annotators(annotators), overlap=0.5, seed=3)
    shared = [i for i in review.assigned("asha") if i in review.assigned("ravi")]
    disputed = {shared[0]}  # ravi says no where asha says yes
    assert _review_everything(review, "asha", set()) and _review_everything(review, "ravi", disputed)
    for store in review.stores:
        store.close()
    from indicifeval.builder.review.store import ReviewStore

    reader = ReviewStore(folders[0], read_only=True)  # as the build report reads it
    progress = reader.progress()
    reader.close()
    assert set(progress) == {"asha", "ravi"}
    assert all(assigned == done > 0 for assigned, done in progress.values())

    argv = [str(f) for f in folders]
    assert main(["build", "review", "export", *argv]) == 0
    assert main(["build", "review", "agreement", *argv, "--bootstrap", "200"]) == 0
    agreement = json.loads((folders[0] / "review" / "agreement.json").read_text(encoding="utf-8"))
    assert {r["question"] for r in agreement["rows"]} >= {"meaningful", "verdict"}

    release = tmp_path / "release"
    assert main(["build", "finalize", *argv, "--out", str(release)]) == 0
    rows = [json.loads(x) for x in (release / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    disputed_key = shared[0].split("/", 2)[2]
    assert all(not (r["language"] == shared[0][:2] and str(r["key"]) == disputed_key) for r in rows)
    assert all("correct" in r["tags"] and "gold prompt" in r["tags"] for r in rows)
    parallel = {str(r["key"]) for r in rows if "parallel" in r["tags"]}
    assert parallel and disputed_key not in parallel

    assert main(["build", "publish", str(release)]) == 0
    hub = release / "hub"
    split = datasets.load_dataset(str(hub), "indicifeval-trans", split="ta")
    assert len(split) == sum(r["language"] == "ta" for r in rows)
    assert "indicifeval-trans" in (hub / "README.md").read_text(encoding="utf-8")

    out = tmp_path / "run"
    assert main(["run", "--data", str(hub), "--backend", "mock", "--model", "echo", "--out", str(out),
                 "--languages", "hi,ur"]) == 0
    generations = (out / "generations.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(generations) == sum(r["language"] in ("hi", "ur") for r in rows)

    assert main(["build", "report", *argv, "--out", str(tmp_path / "report.html")]) == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Review progress" in page and "gwet_ac1" in page
    capsys.readouterr()
