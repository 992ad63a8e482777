"""Releasing reviewed build folders (hi, ta, ur, written by hand from the bundled sample):
final verdicts (majority, adjudication, a tie left disputed), the release tags (gold where a
person confirmed or edited, silver where machine output was accepted, parallel across all
three languages), dropping and accepting, the validator's refusal; then the hub layout read
back by `datasets` and by the project's loader, the dataset card, and a push to a fake hub."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indicifeval.builder import BuildFolder
from indicifeval.builder.release import finalize, licence_of, publish
from indicifeval.core.errors import InputError, OutputError
from indicifeval.dataset import hub_record, load_dataset, load_rows
from indicifeval.dataset.stats import load_stats
from indicifeval.records import HumanVerdict
from indicifeval.records.layout import GROUND_ROWS, REVIEW_AGREEMENT, REVIEW_VERDICTS, TRANS_ROWS

TOKEN = "hf_releasetestTOKEN0123456789"
KEYS = ("01", "02", "03", "04", "05")
ENGINES = {"hi": "facebook/nllb-200-distilled-600M", "ta": "ai4bharat/indictrans2-en-indic-1B",
           "ur": "facebook/m2m100_418M"}
# (item, annotator, verdict, edit, adjudication): two annotators overlap on hi; a tie on
# hi trans-03 stays disputed, one on hi trans-04 is adjudicated; ta trans-04 was edited
VERDICTS = {
    "hi": [("trans/trans-01", "asha", "correct", None, False), ("trans/trans-01", "ravi", "correct", None, False),
           ("trans/trans-02", "asha", "incorrect", None, False), ("trans/trans-02", "ravi", "correct", None, False),
           ("trans/trans-02", "asha", "correct", None, False),  # asha changed her mind: her latest counts
           ("trans/trans-03", "asha", "correct", None, False), ("trans/trans-03", "ravi", "incorrect", None, False),
           ("trans/trans-04", "asha", "correct", None, False), ("trans/trans-04", "ravi", "incorrect", None, False),
           ("trans/trans-04", "meera", "correct", None, True),
           ("ground/ground-01", "asha", "incorrect", None, False),
           ("ground/ground-03", "ravi", "correct", None, False)],
    "ta": [(f"trans/trans-{k}", "asha", "correct", {"keyword": "x"} if k == "04" else None, False)
           for k in KEYS[:4]],
    "ur": [(f"trans/trans-{k}", "ravi", "incorrect" if k == "02" else "correct", None, False) for k in KEYS[:4]],
}


def _sample(language: str, subset: str, number: str) -> dict:
    row = next(r for r in load_rows("sample") if r.key == f"{language}-{subset}-{number}-pass")
    return {**hub_record(row), "key": f"{subset}-{number}", "language": language, "subset": subset}


def _jsonl(path: Path, records: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def _build(root: Path, language: str) -> Path:
    folder = root / f"build-{language}"
    build = BuildFolder(folder).create(language)
    record = build.begin("translate", {"inputs": {}, "params": {"language": language},
                                       "model": {"backend": "seq2seq", "model": ENGINES[language]}}, [])
    build.finish(record, {"rows": 5}, [])
    trans = []
    for number in KEYS:
        row = _sample(language, "trans", number)
        row.update(status="needs-review" if language == "ur" and number == "05" else "auto-ok", reasons=[],
                   warnings=[], provenance={"engine": "seq2seq"})
        trans.append(row)
    trans[0]["tags"] = ["sample", "silver translation", "parallel", "incorrect"]  # earlier release tags go
    _jsonl(folder / TRANS_ROWS, trans)
    if language == "hi":
        for name, params, model in (("shards", {"corpus": "hf://datasets/ai4bharat/sangraha/verified/hin"}, None),
                                    ("generate", {}, {"backend": "gemini-batch", "model": "gemini-2.5-pro"})):
            build.finish(build.begin(name, {"inputs": {}, "params": params, "model": model}, []), {}, [])
        ground = [_sample("hi", "ground", "01"), _sample("hi", "ground", "03")]  # 01 lacks a relation
        ground[1]["tags"] = ["Poem", "gold prompt"]
        for row in ground:
            row.update(status="auto-ok", reasons=[], warnings=[], provenance={"corpus": "sangraha"})
        _jsonl(folder / GROUND_ROWS, ground)
        (folder / "review").mkdir()
        estimate = {"value": 0.5, "low": 0.1, "high": 0.9, "items": 4}  # as `build review agreement` writes it
        (folder / REVIEW_AGREEMENT).write_text(json.dumps({"format_version": 1, "bootstrap": 100, "seed": 0, "rows": [
            {"language": "hi", "question": "verdict", "items_rated_twice": 4, "annotators": 2,
             "cohen_kappa": estimate, "gwet_ac1": {"value": None, "low": None, "high": None, "items": 4}}]}),
            encoding="utf-8")
    _jsonl(folder / REVIEW_VERDICTS, [
        HumanVerdict(f"{language}/{item}", who, "check", {"meaning": "kept"}, edit=edit, verdict=v,
                     adjudication=adj, at=f"2025-01-01T10:{i:02d}:00+0530").to_json()
        for i, (item, who, v, edit, adj) in enumerate(VERDICTS[language])])
    return folder


@pytest.fixture
def builds(tmp_path: Path) -> list[Path]:
    return [_build(tmp_path, lang) for lang in ("hi", "ta", "ur")]


def _released(out: Path) -> dict[str, list[str]]:
    lines = (out / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    return {f"{r['language']}/{r['subset']}/{r['key']}": r["tags"] for r in map(json.loads, lines)}


def test_final_verdicts_tags_and_parallel(builds: list[Path], tmp_path: Path):
    report = finalize(builds, tmp_path / "release")
    tags = _released(tmp_path / "release")
    assert report.disputed == ["hi/trans/trans-03"]
    assert report.counts["hi"]["trans"] == {"released": 3, "correct": 3, "incorrect": 0, "dropped": 0,
                                            "disputed": 1, "unreviewed": 1}
    assert report.counts["ur"]["trans"]["incorrect"] == 1 and report.released == 3 + 2 + 4 + 4
    assert tags["hi/trans/trans-01"] == ["sample", "correct", "gold translation", "gold prompt", "parallel"]
    assert tags["hi/trans/trans-02"][:2] == ["sample", "correct"]  # 2 correct against none, after asha's change
    assert "parallel" in tags["hi/trans/trans-04"]  # the adjudication settled the tie
    assert tags["ta/trans/trans-04"] == ["sample", "correct", "gold translation", "gold prompt", "parallel"]
    assert tags["ur/trans/trans-02"] == ["sample", "incorrect"]  # looked at and refused: neither gold nor silver
    assert "parallel" not in tags["ta/trans/trans-02"] and "parallel" not in tags["ta/trans/trans-03"]
    assert {k.split("/")[2] for k, t in tags.items() if "parallel" in t} == {"trans-01", "trans-04"}
    assert tags["hi/ground/ground-03"] == ["Poem", "gold prompt"]  # released Ground rows have no `correct` tag
    assert tags["hi/ground/ground-01"] == ["sample", "incorrect"]  # kept, its validator error known
    assert report.incorrect_with_errors == ["hi/ground/ground-01"]
    assert not any(k.endswith("trans-05") or k == "hi/trans/trans-03" for k in tags)
    info = json.loads((tmp_path / "release" / "release.json").read_text(encoding="utf-8"))
    hi = info["builds"][0]
    assert hi["agreement"]["rows"][0]["cohen_kappa"]["value"] == 0.5 and hi["manifest"]["language"] == "hi"
    assert hi["stages"]["translate"]["model"]["model"] == ENGINES["hi"]
    assert hi["stages"]["shards"]["params"]["corpus"].endswith("sangraha/verified/hin")
    assert hi["corpus"] == {"name": "hf://datasets/ai4bharat/sangraha/verified/hin", "hub_id": "ai4bharat/sangraha",
                            "path": "verified/hin", "revision": None, "license": None}
    assert [b["folder"] for b in info["builds"]] == ["build-hi", "build-ta", "build-ur"]  # by name, not path
    assert info["builds"][1]["corpus"] is None  # a Trans build has none
    assert info["counts"]["ta"]["trans"]["released"] == 4 and info["disputed"] == ["hi/trans/trans-03"]


def test_drop_incorrect_and_accept_unreviewed(builds: list[Path], tmp_path: Path):
    report = finalize(builds, tmp_path / "release", drop_incorrect=True, accept_unreviewed=True)
    tags = _released(tmp_path / "release")
    assert "ur/trans/trans-02" not in tags and "hi/ground/ground-01" not in tags
    assert report.dropped == 2 and report.incorrect == 0
    assert tags["hi/trans/trans-05"] == ["sample", "correct", "silver translation", "silver prompt"]
    assert "ur/trans/trans-05" not in tags  # needs-review and unreviewed: never released
    assert report.counts["ur"]["trans"]["unreviewed"] == 1 and report.counts["hi"]["trans"]["unreviewed"] == 0
    assert "parallel" not in tags["ta/trans/trans-05"]  # not correct in ur


def test_refuses_a_row_the_validator_refuses(builds: list[Path], tmp_path: Path):
    verdicts = builds[0] / REVIEW_VERDICTS
    adjudication = HumanVerdict("hi/ground/ground-01", "meera", "check", {}, verdict="correct", adjudication=True)
    verdicts.write_text(verdicts.read_text(encoding="utf-8") + json.dumps(adjudication.to_json()) + "\n",
                        encoding="utf-8")
    with pytest.raises(InputError, match="hi/ground/ground-01.*relation_missing") as caught:
        finalize(builds, tmp_path / "release")
    assert caught.value.file and caught.value.file.endswith(GROUND_ROWS)
    assert not (tmp_path / "release").exists()


def test_refuses_bad_inputs(builds: list[Path], tmp_path: Path):
    rows = builds[1] / TRANS_ROWS
    rows.write_text(rows.read_text(encoding="utf-8").replace('"auto-ok"', '"ok"', 1), encoding="utf-8")
    with pytest.raises(InputError, match="status") as caught:
        finalize(builds, tmp_path / "release")
    assert caught.value.line == 1 and caught.value.field == "status"
    with pytest.raises(InputError, match="two build folders"):
        finalize([builds[0], builds[0]], tmp_path / "release")
    with pytest.raises(OutputError, match="build"):
        finalize(builds[2:], builds[0])


@pytest.fixture
def release(builds: list[Path], tmp_path: Path) -> Path:
    finalize(builds, tmp_path / "release")
    return tmp_path / "release"


def test_publish_reads_back_everywhere(release: Path, tmp_path: Path):
    datasets = pytest.importorskip("datasets")
    stray = release / "hub" / "indicifeval-trans" / "bn-00000-of-00001.parquet"
    stray.parent.mkdir(parents=True)
    stray.write_bytes(b"old")  # an earlier publish's split: removed
    written = publish(release)
    hub = release / "hub"
    assert not stray.exists() and hub / "README.md" in written
    split = datasets.load_dataset(str(hub), "indicifeval-trans", split="hi", cache_dir=str(tmp_path / "cache"))
    assert len(split) == 3
    by_key = {r["key"]: r for r in split}
    assert "parallel" in by_key["trans-01"]["tags"] and by_key["trans-01"]["prompt"]
    assert len(load_dataset("trans", "hi", source=hub)) == 3
    assert len(load_rows(hub)) == 13
    card = (hub / "README.md").read_text(encoding="utf-8")
    front = card.split("---")[1]
    for line in ("- config_name: indicifeval-trans", "- config_name: indicifeval-ground", "  - split: ur",
                 "    path: indicifeval-trans/ur-*.parquet", "license: cc-by-4.0", "- ta", "- text-generation"):
        assert line + "\n" in front
    assert "| indicifeval-trans | hi | 3 |" in card and "| hi | trans | 3 | 3 | 0 | 0 | 1 | 1 |" in card
    assert "| `parallel` | 2 | 2 | 2 |" in card and "| `Poem` | 1 |" in card
    assert "| hi | verdict | 4 | 2 | 0.500 [0.10, 0.90] | — |" in card
    assert "CC-BY-NC-4.0" in card and "non-commercial use only" in card and "**Warning:**" in card
    assert "| translation | `seq2seq ai4bharat/indictrans2-en-indic-1B` | — | ta | MIT |" in card
    assert "sangraha/verified/hin` | — | hi | CC-BY-4.0 |" in card  # a corpus the licence table knows
    assert "| `gemini-batch gemini-2.5-pro` | — | hi | see the model card |" in card
    assert (hub / "provenance" / "release.json").is_file()
    # the paper's dataset tables of what is published, in the card and in full beside it
    statistics = json.loads((hub / "provenance" / "statistics.json").read_text(encoding="utf-8"))
    assert statistics == json.loads(json.dumps(load_stats(release).to_json())) | {"name": statistics["name"],
                                                                                   "kind": statistics["kind"]}
    assert "## Dataset statistics" in card and card.index("## Tags") < card.index("## Dataset statistics")
    assert "## Dataset statistics" in card and card.index("## Dataset statistics") < card.index("## Human review")
    manifest = json.loads((hub / "provenance" / "hi-trans+ground.manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages"]["translate"]["identity"]["model"]["model"] == ENGINES["hi"]


def test_licence_table():
    assert licence_of("sarvamai/sarvam-translate")[0] == "GPL-3.0"
    assert licence_of("facebook/NLLB-200-3.3B")[1] and licence_of("m2m100_1.2B") == ("MIT", None)
    assert licence_of("some/new-model") == ("see the model card", None)


class FakeHub:
    def __init__(self, fail: bool = False):
        self.calls: list[tuple[str, tuple, dict]] = []
        self.fail = fail

    def __getattr__(self, name: str):
        def call(*args, **kwargs):
            self.calls.append((name, args, kwargs))
            if self.fail:
                raise RuntimeError(f"401 Unauthorized for token {kwargs.get('token')}")

        return call


def test_push_one_commit_with_the_token_from_the_environment(release: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RELEASE_TOKEN", TOKEN)
    hub = FakeHub()
    publish(release, push="me/indicifeval-test", revision="v1", api=hub, token_env="RELEASE_TOKEN")
    names = [name for name, _, _ in hub.calls]
    assert names == ["create_repo", "create_branch", "upload_folder"]
    _, args, repo = hub.calls[0]
    assert args == ("me/indicifeval-test",) and repo["repo_type"] == "dataset" and repo["exist_ok"]
    assert hub.calls[1][2]["branch"] == "v1" and hub.calls[1][2]["exist_ok"]
    upload = hub.calls[2][2]
    assert upload["folder_path"] == str(release / "hub") and upload["repo_type"] == "dataset"
    assert upload["revision"] == "v1" and upload["token"] == TOKEN and "13 rows" in upload["commit_message"]
    for path in tmp_path.rglob("*"):
        assert not path.is_file() or TOKEN.encode() not in path.read_bytes(), path
    plain = FakeHub()
    publish(release, push="me/indicifeval-test", api=plain, token_env="RELEASE_TOKEN")
    assert [n for n, _, _ in plain.calls] == ["create_repo", "upload_folder"] and plain.calls[1][2]["revision"] is None
    with pytest.raises(OutputError) as caught:
        publish(release, push="me/indicifeval-test", api=FakeHub(fail=True), token_env="RELEASE_TOKEN")
    assert "401" in str(caught.value) and TOKEN not in str(caught.value)
    monkeypatch.delenv("RELEASE_TOKEN")
    unused = FakeHub()
    with pytest.raises(InputError, match="RELEASE_TOKEN"):
        publish(release, push="me/indicifeval-test", api=unused, token_env="RELEASE_TOKEN")
    assert unused.calls == []
