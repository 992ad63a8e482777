"""What a published release says about itself: no path of the building machine anywhere in it
(built with both pipelines and mock backends, models named by local paths, a corpus given
relatively, an older folder's recorded paths), the licence (from the corpus recorded at
`build ground`, combined, refused when unknown), Ground tags as the published dataset has
them, agreement at full precision, and the relation convention with the authors' export."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
from indicifeval.builder.licences import decide, terms
from indicifeval.builder.release.compat import relation_kwargs, to_authors
from indicifeval.builder.release.portable import portable_text
from indicifeval.builder.review.serve import write_agreement
from indicifeval.builder.trans.pipeline import build_trans
from indicifeval.checkers.registry import PAPER_RELATIONS
from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.core.files import sha256_of
from indicifeval.dataset import load_rows
from indicifeval.records import HumanVerdict
from indicifeval.records.layout import REVIEW_VERDICTS
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.scoring.engine import score_row
from tests.builder.corpus_fixture import corpus_path
from tests.conftest import shared_path

pytest.importorskip("pyarrow")
LANG = "ne"


def _writer(root: Path) -> Path:
    """A model named by a local path: its identity records where it is (resolved)."""
    model = root / "models" / "local-writer"
    model.mkdir(parents=True, exist_ok=True)
    return model


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One Trans and one Ground build folder (fake engines), made once and copied by the tests."""
    root = tmp_path_factory.mktemp("builds")
    corpus = root / "corpus" / f"{LANG}.jsonl"
    corpus.parent.mkdir()
    shutil.copyfile(corpus_path(LANG, root), corpus)
    trans_model = root / "models" / "local-translator"
    trans_model.mkdir(parents=True)
    build_trans(root / "t-ne", LANG, "sample", ModelSpec.of("mock", str(trans_model), {"answers": "fake:0"}))
    build_ground(root / "g-ne", LANG, str(corpus), None, ModelSpec.of("mock", str(_writer(root)),
                                                                   options={"answers": "fake:0.2"}),
                 executor="serial", mining=MiningOptions(top_k=300))
    return {"root": root, "trans": root / "t-ne", "ground": root / "g-ne", "corpus": corpus}


def _copy(made: dict[str, Path], tmp_path: Path, *names: str) -> list[Path]:
    out = []
    for name in names:
        shutil.copytree(made[name], tmp_path / made[name].name)
        out.append(tmp_path / made[name].name)
    return out


def _cli(*argv: str) -> int:
    return main([*map(str, argv)])


def _card(hub: Path) -> tuple[str, str]:
    text = (hub / "README.md").read_text(encoding="utf-8")
    return text.split("---")[1], text


def test_no_path_of_the_building_machine_in_anything_published(made, tmp_path, monkeypatch):
    trans, ground = _copy(made, tmp_path, "trans", "ground")
    manifest = json.loads((ground / "manifest.json").read_text(encoding="utf-8"))
    shards = manifest["stages"]["shards"]["identity"]  # as an older version recorded it: the corpus as typed
    shards["params"]["corpus"] = str(made["corpus"])
    shards["inputs"]["corpus"]["path"] = str(made["corpus"])
    note = f"skipped 1 corpus line(s): no text (the first at {made['corpus']}, byte 0)"
    manifest["stages"]["vocab"]["notes"] = [note]
    (ground / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # folders given relatively, the release absolutely
    release = tmp_path / "release"
    assert _cli("build", "finalize", trans.name, ground.name, "--out", release, "--accept-unreviewed") == 0
    assert _cli("build", "publish", release, "--license", "cc-by-4.0") == 0
    assert _cli("build", "publish", release, "--license", "cc-by-4.0", "--relation-compat", "authors") == 0
    published = [p for p in release.rglob("*") if p.is_file()]
    assert {p.name for p in published} >= {"rows.jsonl", "release.json", "README.md", "ne-00000-of-00001.parquet",
                                           "ne-ground.manifest.json"}
    assert any("hub-authors" in p.parts for p in published)
    home = Path.home()
    places = {str(tmp_path), str(tmp_path.resolve()), str(made["root"]), str(made["root"].resolve()),
              str(ground.resolve()), str(trans.resolve())} | ({str(home)} if len(home.parts) > 1 else set())
    for path in published:
        data = path.read_bytes()
        for place in places:
            assert place.encode() not in data, (path.relative_to(release), place)
            assert json.dumps(place)[1:-1].encode() not in data, (path.relative_to(release), place)
    info = json.loads((release / "release.json").read_text(encoding="utf-8"))
    assert [b["folder"] for b in info["builds"]] == ["t-ne", "g-ne"]
    corpus = info["builds"][1]["corpus"]
    assert corpus["name"] == "ne.jsonl" and corpus["sha256"] == sha256_of(made["corpus"])
    stages = info["builds"][1]["manifest"]["stages"]
    assert stages["generate"]["identity"]["model"]["model"] == "local-writer"
    assert stages["vocab"]["notes"] == ["skipped 1 corpus line(s): no text (the first at ne.jsonl, byte 0)"]
    _, card = _card(release / "hub")
    assert f"| corpus | `ne.jsonl` | sha256 `{sha256_of(made['corpus'])}` | ne |" in card
    assert "| translation | `mock local-translator` | — | ne |" in card
    assert "| prompt writing | `mock local-writer` | — | ne |" in card


def test_paths_become_names():
    roots = {"/w/builds/g-ne": "g-ne"}
    assert portable_text("/w/builds/g-ne/ground/keywords.jsonl", roots) == "g-ne/ground/keywords.jsonl"
    assert portable_text("/home/asha/corpora/ne.jsonl") == "ne.jsonl"
    assert portable_text("C:\\Users\\asha\\ne.parquet") == "ne.parquet"
    assert portable_text("cannot read ~/models/m2 (no config)") == "cannot read m2 (no config)"
    for kept in ("hf://datasets/ai4bharat/sangraha/verified/npi", "https://hub.example/a/b", "facebook/nllb-200",
                 "ground/rows.jsonl", "and/or 1/2"):
        assert portable_text(kept, roots) == kept


def _ground_release(folder: Path, tmp_path: Path, name: str = "release") -> Path:
    release = tmp_path / name
    assert _cli("build", "finalize", folder, "--out", release, "--accept-unreviewed") == 0
    return release


def _licence_section(card: str) -> str:
    return card.split("## Licence", 1)[1].split("## ", 1)[0]


def test_the_corpus_licence_recorded_at_build_ground_licenses_the_release(made, tmp_path, capsys):
    (ground,) = _copy(made, tmp_path, "ground")
    args = ("build", "ground", ground, "--lang", LANG, "--corpus", made["corpus"], "--backend", "mock",
            "--model", _writer(made["root"]), "--mock-answers", "fake:0.2", "--executor", "serial", "--top-k", "300",
            "--quiet")
    assert _cli(*args) == 0  # as it was made: nothing runs again
    assert "ran again" not in capsys.readouterr().err
    release = _ground_release(ground, tmp_path, "unlicensed")
    capsys.readouterr()
    assert _cli("build", "publish", release) == 1  # Ground rows, no licence known, none given
    err = capsys.readouterr().err
    assert "licence of the ne corpus ne.jsonl is not known" in err and "--corpus-license" in err
    assert len(err.strip().splitlines()) == 1 and not (release / "hub").exists()

    rows_before = (ground / "ground" / "rows.jsonl").read_text(encoding="utf-8")
    assert _cli(*args, "--corpus-license", "CC-BY-SA-4.0") == 0
    err = capsys.readouterr().err
    assert "rows: ran again (changed: params.provenance.license)" in err
    assert [line for line in err.splitlines() if "ran again" in line] == [
        "rows: ran again (changed: params.provenance.license)"]  # mining and replies untouched
    rows_after = (ground / "ground" / "rows.jsonl").read_text(encoding="utf-8")
    assert rows_after != rows_before and '"license": "CC-BY-SA-4.0"' in rows_after
    strip = lambda text: [{k: v for k, v in json.loads(x).items() if k != "provenance"} for x in text.splitlines()]
    assert strip(rows_after) == strip(rows_before)  # the rows themselves are the same

    release = _ground_release(ground, tmp_path)
    assert _cli("build", "publish", release) == 0
    front, card = _card(release / "hub")
    assert "license: cc-by-sa-4.0\n" in front
    section = _licence_section(card)
    assert "published under `cc-by-sa-4.0`, derived from the corpus licences" in section
    assert "`ne.jsonl`, licensed CC-BY-SA-4.0 (build ground --corpus-license)" in section
    info = json.loads((release / "release.json").read_text(encoding="utf-8"))
    assert info["builds"][0]["corpus"]["license"] == "CC-BY-SA-4.0"

    capsys.readouterr()
    assert _cli("build", "publish", release, "--license", "cc-by-4.0", "--relation-compat", "authors") == 1
    err = capsys.readouterr().err
    assert "drops the share-alike term" in err and not (release / "hub-authors").exists()
    assert _cli("build", "publish", release, "--license", "CC-BY-NC-SA-4.0") == 0  # adds a term: allowed
    front, card = _card(release / "hub")
    assert "license: cc-by-nc-sa-4.0\n" in front and "published under `cc-by-nc-sa-4.0`, as given" in card


def test_trans_only_keeps_the_default_and_names_ifeval(made, tmp_path):
    (trans,) = _copy(made, tmp_path, "trans")
    release = _ground_release(trans, tmp_path)
    assert _cli("build", "publish", release) == 0
    front, card = _card(release / "hub")
    assert "license: cc-by-4.0\n" in front
    section = _licence_section(card)
    assert "published under `cc-by-4.0`, the dataset's default" in section
    assert "IFEval's prompts (google-research/instruction_following_eval, Apache-2.0)" in section
    assert "not the authors' localised set" in section  # the sample's prompts, not the authors' 490
    assert "Ground rows" not in section
    with pytest.raises(InputError, match="not a licence id"):
        decide({}, "cc by 4.0; drop table")


def test_licences_combine():
    ref = lambda licence, name="corpus.jsonl": {"name": name, "license": licence}
    assert decide({"ne": ref("CC-BY-SA-4.0"), "hi": ref("cc-by-4.0")}, None).licence == "cc-by-sa-4.0"
    assert decide({"ne": ref("CC-BY-SA-3.0")}, None).licence == "cc-by-sa-4.0"
    assert decide({"ne": ref("CC0-1.0"), "hi": ref("MIT")}, None).licence == "cc-by-4.0"
    assert decide({"ne": ref("CC-BY-NC-4.0"), "hi": ref("CC-BY-NC-SA-4.0")}, None).licence == "cc-by-nc-sa-4.0"
    assert decide({"hi": ref(None, "hf://datasets/ai4bharat/sangraha/verified/hin")}, None).licence == "cc-by-4.0"
    assert decide({}, None).licence == "cc-by-4.0" and decide({}, None).how == "default"
    for corpora, why in (({"ne": ref("CC-BY-SA-4.0"), "hi": ref("CC-BY-NC-4.0")}, "cannot be combined"),
                         ({"ne": ref("CC-BY-ND-4.0")}, "forbids derived works"),
                         ({"ne": ref("LicenseRef-custom")}, "not one this tool can combine"),
                         ({"ne": ref(None)}, "is not known")):
        with pytest.raises(InputError, match=why):
            decide(corpora, None)
    assert decide({"ne": ref("LicenseRef-custom")}, "other").licence == "other"  # given: the publisher's word
    with pytest.raises(InputError, match="non-commercial"):
        decide({"ne": ref("CC-BY-NC-4.0")}, "cc-by-sa-4.0")
    assert terms("cc-by-nc-sa-4.0") == {"nc", "sa"} and terms("apache-2.0") == set() and terms("gpl-3.0") is None


def _review(folder: Path, decisions: list[tuple[str, str, str]]) -> None:
    path = folder / REVIEW_VERDICTS
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(json.dumps(HumanVerdict(item, who, "check", {"meaningful": "yes"}, verdict=verdict,
                                                    at=f"2025-01-01T10:{i:02d}:00+0000").to_json()) + "\n"
                            for i, (item, who, verdict) in enumerate(decisions)), encoding="utf-8")


def test_ground_tags_and_agreement_as_released(made, tmp_path):
    trans, ground = _copy(made, tmp_path, "trans", "ground")
    g_rows = [json.loads(x) for x in (ground / "ground" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    t_rows = [json.loads(x) for x in (trans / "trans" / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    refused = f"{LANG}/ground/{g_rows[0]['key']}"
    _review(ground, [(refused, "asha", "incorrect"), (f"{LANG}/ground/{g_rows[1]['key']}", "asha", "correct")])
    # three items rated twice, two agreeing: 2/3, which four decimals cannot hold
    items = [f"{LANG}/trans/{r['key']}" for r in t_rows[:3]]
    _review(trans, [(i, who, "correct") for i in items for who in ("asha", "ravi")][:-1] + [(items[2], "ravi",
                                                                                            "incorrect")])
    _, table = write_agreement(trans, bootstrap=50)
    written = json.loads((trans / "review" / "agreement.json").read_text(encoding="utf-8"))
    raw = next(r for r in written["rows"] if r["language"] == LANG and r["question"] == "verdict")["raw_agreement"]
    assert raw["value"] == 2 / 3 and raw == next(r for r in table if r["language"] == LANG
                                                 and r["question"] == "verdict")["raw_agreement"]
    release = tmp_path / "release"
    assert _cli("build", "finalize", trans, ground, "--out", release, "--accept-unreviewed") == 0
    info = json.loads((release / "release.json").read_text(encoding="utf-8"))
    assert info["builds"][0]["agreement"] == written  # whole, as written
    rows = [json.loads(x) for x in (release / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    ground_tags = {f"{LANG}/ground/{r['key']}": r["tags"] for r in rows if r["subset"] == "ground"}
    styles = {f"{LANG}/ground/{r['key']}": [t for t in r["tags"] if t not in ("correct", "gold prompt",
                                                                               "silver prompt")] for r in g_rows}
    assert ground_tags[refused] == [*styles[refused], "incorrect"]  # kept, tagged
    assert ground_tags[f"{LANG}/ground/{g_rows[1]['key']}"] == [*styles[f"{LANG}/ground/{g_rows[1]['key']}"],
                                                                "gold prompt"]
    assert all(len(tags) == 2 and tags[1] == "silver prompt" and "correct" not in tags
               for key, tags in ground_tags.items() if key not in (refused, f"{LANG}/ground/{g_rows[1]['key']}"))
    assert all("correct" in r["tags"] for r in rows if r["subset"] == "trans" and f"{LANG}/trans/{r['key']}"
               not in items[2:])
    assert _cli("build", "publish", release, "--license", "cc-by-4.0") == 0
    card = (release / "hub" / "README.md").read_text(encoding="utf-8")
    assert f"| {LANG} | verdict | 3 |" in card and "0.667" in card and "0.6666" not in card


def _signature(rows) -> dict[str, set[tuple]]:
    """instruction id -> the (kwarg names set, relation values) its rows carry."""
    out: dict[str, set[tuple]] = {}
    names = relation_kwargs()
    for row in rows:
        for instruction, kwargs in zip(row.instruction_id_list, row.kwargs, strict=True):
            out.setdefault(instruction, set()).add(
                (tuple(sorted(kwargs)), tuple(sorted((k, kwargs.get(k)) for k in names if k in kwargs))))
    return out


def test_the_authors_export_has_the_released_convention(made, tmp_path):
    released_ground = load_rows(shared_path("data", "indicifeval-ne", "indicifeval-ground-ne.jsonl"),
                                language=LANG, subset="ground")
    released_trans = load_rows(shared_path("data", "indicifeval-ne", "indicifeval-trans-ne.jsonl"),
                               language=LANG, subset="trans")
    trans, ground = _copy(made, tmp_path, "trans", "ground")
    release = tmp_path / "release"
    assert _cli("build", "finalize", trans, ground, "--out", release, "--accept-unreviewed") == 0
    assert _cli("build", "publish", release, "--license", "cc-by-4.0") == 0
    assert _cli("build", "publish", release, "--license", "cc-by-4.0", "--relation-compat", "authors") == 0
    ours = load_rows(release / "hub")
    compat = load_rows(release / "hub-authors")
    exact = sum(kw.get("relation") == "exactly" for r in ours if r.subset == "ground" for kw in r.kwargs)
    assert exact > 0  # our release states the relation
    assert [r.id for r in compat] == [r.id for r in ours] and compat == to_authors(ours)
    for mine, theirs in ((_signature(r for r in compat if r.subset == "ground"), _signature(released_ground)),
                         (_signature(r for r in compat if r.subset == "trans"), _signature(released_trans))):
        for instruction, shapes in mine.items():
            if instruction in theirs:  # field for field: the same kwargs, relation values the release has
                assert shapes <= theirs[instruction], instruction
    for row in compat:
        for kwargs in row.kwargs:
            assert all(kwargs[k] in PAPER_RELATIONS for k in relation_kwargs() if k in kwargs)
    # nothing lost for our scorer: a missing relation reads "exactly" again
    by_id = {r.id: r for r in compat}
    for row in ours:
        if row.subset == "ground":
            for response in ("", row.prompt, row.prompt + " " + row.prompt):
                assert score_row(by_id[row.id], response or "x") == score_row(row, response or "x")
    _, card = _card(release / "hub")
    front, compat_card = _card(release / "hub-authors")
    assert f"`relation: \"exactly\"` ({exact} in this release" in card and "ValueError" in card
    assert "--relation-compat authors" in card
    assert "**This export is lossy.**" in compat_card and "draw `less than` or `at least` at random" in compat_card
    assert "pretty_name: IndicIFEval (the authors' relation convention, lossy)" in front
