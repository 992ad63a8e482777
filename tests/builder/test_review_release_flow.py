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
from indicifeval.runs.backends.spec import ModelSpec  # noqa: E402
from tests.builder.review_fixtures import annotators_file, token, trans_folder  # noqa: E402


def _review_everything(review, name: str, disagree_on: set[str]) -> int:
    c = TestClient(create_app(review), follow_redirects=False)
    form = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)  # the login form's own
    assert c.post("/login", data={"token": token(name), "csrf": form}).status_code == 303
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
    shared = [i for i in review.desk.assigned("asha") if i in review.desk.assigned("ravi")]
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


def _client(review, name: str) -> TestClient:
    c = TestClient(create_app(review), follow_redirects=False)
    form = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)  # the login form's own
    assert c.post("/login", data={"token": token(name), "csrf": form}).status_code == 303
    return c


def _post(c: TestClient, path: str, item: str, **extra) -> None:
    page = c.get(f"/item/{item}").text
    data = {"item": item, "csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1), **extra}
    if path == "/verdict":
        for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
            data[q] = re.findall(rf'name="{q}" value="([^"]+)"', page)[0]
    assert c.post(path, data=data).status_code == 303


def test_a_keyword_fix_reopens_the_item_survives_a_rebuild_and_reaches_the_release(tmp_path):
    from indicifeval.builder.review.serve import hold_folders
    from indicifeval.builder.trans.pipeline import build_trans
    from indicifeval.core.errors import BusyError

    folder = trans_folder(tmp_path, "hi")
    review = open_review([folder], read_annotators(annotators_file(tmp_path)), overlap=1.0, seed=0)
    store = review.stores[0]
    item = next(i for i in store.items() if i.workflow == "trans-keywords"
                and i.id in review.desk.assigned("asha") and i.id in review.desk.assigned("ravi"))
    ident = item.id
    asha, ravi = _client(review, "asha"), _client(review, "ravi")
    _post(asha, "/verdict", ident)  # approved
    keyword = re.findall(r'<option value="([^"]+)"', ravi.get(f"/item/{ident}").text)[0]
    _post(ravi, "/fix", ident, old=keyword, new="संशोधितशब्द")
    assert "asha" not in {a for (i, a) in store.latest() if i == ident}  # the approval was reopened
    _post(ravi, "/verdict", ident)
    _post(asha, "/verdict", ident)  # asha judges the edited row
    with hold_folders([folder]), pytest.raises(BusyError):  # no rebuild while the review serves
        build_trans(folder, "hi", "sample", ModelSpec.of("mock", "fake", {"answers": "fake:0"}), force=["validate"])
    build_trans(folder, "hi", "sample", ModelSpec.of("mock", "fake", {"answers": "fake:0"}), force=["validate"])
    assert "संशोधितशब्द" not in (folder / "trans" / "rows.jsonl").read_text(encoding="utf-8")  # the machine's rows

    other = next(i for i in store.items() if i.id != ident and i.id in review.desk.assigned("asha")
                 and i.id in review.desk.assigned("ravi"))
    _post(asha, "/verdict", other.id)
    page = ravi.get(f"/item/{other.id}").text
    data = {"item": other.id, "csrf": re.search(r'name="csrf" value="([^"]+)"', page).group(1)}
    for q in dict.fromkeys(re.findall(r'name="(q_[a-z]+)"', page)):
        data[q] = re.findall(rf'name="{q}" value="([^"]+)"', page)[-1]  # ravi disagrees
    assert ravi.post("/verdict", data=data).status_code == 303
    from indicifeval.builder.review.store import ReviewStore
    from indicifeval.records import HumanVerdict

    store.save(HumanVerdict(other.id, "admin", other.workflow, {}, "", None, "2999-01-01T00:00:00+0000",
                            "correct", adjudication=True))  # after any export: none was made
    for s in review.stores:
        s.close()
    assert not (folder / "review" / "verdicts.jsonl").exists()
    release = tmp_path / "release"
    assert main(["build", "finalize", str(folder), "--out", str(release)]) == 0
    rows = {f"hi/trans/{r['key']}": r for r in map(json.loads, (release / "rows.jsonl").read_text().splitlines())}
    assert "संशोधितशब्द" in rows[ident]["prompt"] and keyword not in json.dumps(rows[ident]["kwargs"],
                                                                                   ensure_ascii=False)
    assert "correct" in rows[other.id]["tags"]  # the adjudication, read from the database
    reader = ReviewStore(folder, read_only=True)
    (edit,) = reader.edits(ident)
    reader.close()
    assert edit["annotator"] == "ravi" and edit["before"]["prompt"] != edit["after"]["prompt"]
