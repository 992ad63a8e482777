"""Dataset statistics (``indicifeval.dataset.stats``): on the released ne rows, every table equals
a count made here with plain json and collections (and the figures the reference comparison
gives); on rows written here, every input kind (JSONL, the hub's layout, a build folder with its
statuses, finalize's and publish's release folders) and the comparison of two datasets."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.builder import BuildFolder
from indicifeval.builder.release import finalize
from indicifeval.core.errors import InputError
from indicifeval.dataset import hub_record, load_rows, write_hub_layout
from indicifeval.dataset.stats import (
    CONTEXT_REQUIRED_STYLES,
    VERIFICATION_TAGS,
    compare,
    dataset_stats,
    load_input,
    load_stats,
    markdown,
    stats_tables,
)
from indicifeval.dataset.validation import validate
from indicifeval.records.layout import GROUND_ROWS, TRANS_ROWS, TRANS_SOURCE
from tests.conftest import shared_path

RELEASE = ("data", "indicifeval-ne")
EN_SOURCE = ("data", "indicifeval-en-source", "verified_dataset-en.jsonl")
RELATIONS = {"relation", "let_relation", "capital_relation"}
TAKES_RELATION = {"keywords:frequency": "relation", "keywords:letter_frequency": "let_relation",
                  "length_constraints:number_sentences": "relation", "length_constraints:number_words": "relation",
                  "change_case:capital_word_frequency": "capital_relation"}
INTS = {"num_highlights", "num_words", "num_placeholders", "num_bullets", "num_sections", "capital_frequency",
        "num_paragraphs", "let_frequency", "frequency", "num_sentences", "nth_paragraph"}


def _plain(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _independent(rows: list[dict]) -> dict:
    """The tables, counted with nothing but json and collections."""
    ids = Counter(i for r in rows for i in r["instruction_id_list"])
    tags = Counter(t for r in rows for t in set(r["tags"]))
    numeric: dict = {}
    relations: dict = {}
    for r in rows:
        for iid, kw in zip(r["instruction_id_list"], r["kwargs"]):
            for name, value in kw.items():
                if name in INTS and value is not None:
                    numeric.setdefault(iid, {}).setdefault(name, Counter())[value] += 1
                if name in RELATIONS and value is not None:
                    relations.setdefault(iid, {}).setdefault(name, Counter())[value] += 1
            if iid in TAKES_RELATION and kw.get(TAKES_RELATION[iid]) is None:
                relations.setdefault(iid, {}).setdefault(TAKES_RELATION[iid], Counter())["(none)"] += 1
    parallel = [r for r in rows if "parallel" in r["tags"]]
    chars = [len(r["prompt"]) for r in rows]
    words = [len(r["prompt"].split()) for r in rows]
    return {"rows": len(rows), "instructions": sum(ids.values()), "ids": ids,
            "rows_with": Counter(i for r in rows for i in set(r["instruction_id_list"])),
            "categories": Counter(i.split(":")[0] for i in ids.elements()),
            "per_row": Counter(len(r["instruction_id_list"]) for r in rows),
            "resp_lang": Counter(r["resp_lang"] for r in rows), "tags": tags,
            "other_rows": sum(1 for r in rows if set(r["tags"]) - set(VERIFICATION_TAGS)),
            "numeric": numeric, "relations": relations, "parallel": len(parallel),
            "parallel_instructions": sum(len(r["instruction_id_list"]) for r in parallel),
            "chars": (min(chars), statistics.median(chars), sum(chars) / len(chars), max(chars)),
            "words": (min(words), statistics.median(words), sum(words) / len(words), max(words))}


@pytest.mark.parametrize("subset", ["trans", "ground"])
def test_released_rows_equal_an_independent_count(subset: str):
    path = shared_path(*RELEASE, f"indicifeval-{subset}-ne.jsonl")
    plain = _independent(_plain(path))
    stats = load_stats(path)
    s = stats.subsets[subset]
    assert stats.splits == {"ne": {subset: (plain["rows"], plain["instructions"])}}
    assert (s.rows, s.instructions) == (plain["rows"], plain["instructions"])
    assert s.instruction_ids == dict(plain["ids"]) and s.categories == dict(plain["categories"])
    assert s.per_row == dict(plain["per_row"]) and s.resp_lang == dict(plain["resp_lang"])
    assert {**s.verification_tags, **s.other_tags} == dict(plain["tags"])
    assert s.rows_with_other_tags == plain["other_rows"]
    assert s.numeric == {i: {k: dict(c) for k, c in kws.items()} for i, kws in plain["numeric"].items()}
    assert s.relations == {i: {k: dict(c) for k, c in kws.items()} for i, kws in plain["relations"].items()}
    assert s.rows_with == dict(plain["rows_with"])
    (v,) = stats.verification
    assert (v.parallel, v.parallel_instructions) == (plain["parallel"], plain["parallel_instructions"])
    for tag in VERIFICATION_TAGS:
        assert getattr(v, tag.replace(" ", "_")) == plain["tags"][tag]
    for name in ("chars", "words"):
        got = getattr(s, name)
        assert (got.min, got.median, got.max) == (plain[name][0], plain[name][1], plain[name][3])
        assert got.mean == pytest.approx(plain[name][2], rel=1e-12)


def test_released_trans_figures():
    stats = load_stats(shared_path(*RELEASE, "indicifeval-trans-ne.jsonl"), source=shared_path(*EN_SOURCE))
    (v,) = stats.verification
    assert (v.rows, v.correct, v.incorrect, v.parallel, v.parallel_correct, v.parallel_instructions) == \
        (490, 468, 22, 321, 321, 480)
    assert (v.gold_prompt, v.silver_prompt, v.gold_translation, v.silver_translation) == (440, 35, 91, 377)
    t = stats.subsets["trans"]
    assert (t.instructions, len(t.instruction_ids), t.per_row) == (743, 24, {1: 285, 2: 157, 3: 48})
    assert list(t.instruction_ids.items())[:6] == [
        ("punctuation:no_comma", 64), ("length_constraints:number_words", 50),
        ("detectable_format:number_highlighted_sections", 47), ("length_constraints:number_sentences", 46),
        ("keywords:forbidden_words", 45), ("combination:repeat_prompt", 40)]
    assert (t.resp_lang["src"], t.resp_lang["en"], len(t.resp_lang) - 2) == (417, 39, 23)
    assert t.rows_with_other_tags == 126 and t.context_required is None
    src = stats.source
    assert src is not None and (src.rows, src.same, src.differ, src.not_in_source) == (490, 451, 39, 0)
    assert src.dropped == {"language:response_language": 39} and src.added == {}
    en = {str(r["key"]): r for r in _plain(shared_path(*EN_SOURCE))}
    ne = _plain(shared_path(*RELEASE, "indicifeval-trans-ne.jsonl"))
    changed = {f"ne/trans/{r['key']}" for r in ne
               if r["instruction_id_list"] != en[str(r["key"])]["instruction_id_list"]}
    assert changed == set(src.differing)


def test_released_ground_figures():
    stats = load_stats(shared_path(*RELEASE, "indicifeval-ground-ne.jsonl"))
    g = stats.subsets["ground"]
    assert g.instruction_ids == {"length_constraints:nth_paragraph_first_word": 162, "keywords:frequency": 127,
                                 "keywords:forbidden_words": 25, "length_constraints:number_sentences": 24,
                                 "length_constraints:number_paragraphs": 3}
    assert g.per_row == {1: 341} and g.resp_lang == {"src": 341}
    assert g.verification_tags == {"gold prompt": 24, "silver prompt": 317}
    assert len(g.other_tags) == 16 and g.context_required == 46
    plain = _plain(shared_path(*RELEASE, "indicifeval-ground-ne.jsonl"))
    assert g.context_required == sum(1 for r in plain if {"Summarization", "Formal Rewrite", "Informal Rewrite"}
                                     & set(r["tags"]))
    assert g.numeric["keywords:frequency"]["frequency"] == {1: 29, 2: 28, 3: 23, 4: 26, 5: 21}
    assert g.numeric["length_constraints:number_paragraphs"]["num_paragraphs"] == {1: 3}
    assert g.relations == {"keywords:frequency": {"relation": {"(none)": 127}},
                           "length_constraints:number_sentences": {"relation": {"(none)": 24}}}


def test_context_required_styles_agree_with_the_builders_templates():
    from importlib import resources

    text = resources.files("indicifeval.builder.ground").joinpath("templates.json").read_text(encoding="utf-8")
    styles = json.loads(text)["styles"]
    assert set(CONTEXT_REQUIRED_STYLES) == {s["name"] for s in styles if s["context_required"]}


# --- rows written here ---------------------------------------------------------------------

def _sample(subset: str, number: str, key: str, tags: list[str]) -> dict:
    row = next(r for r in load_rows("sample") if r.key == f"hi-{subset}-{number}-pass")
    return {**hub_record(row), "key": key, "language": "hi", "subset": subset, "tags": tags}


def _jsonl(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _build(root: Path) -> Path:
    """A hi build folder: five Trans rows (one needs review) with their English source, one of
    whose instruction lists differs, and two Ground rows (one style needs the context)."""
    folder = root / "build-hi"
    BuildFolder(folder).create("hi")
    trans = [{**_sample("trans", n, f"t{n}", []), "status": "needs-review" if n == "05" else "auto-ok",
              "reasons": [], "warnings": [], "provenance": {}} for n in ("01", "02", "03", "04", "05")]
    _jsonl(folder / TRANS_ROWS, trans)
    source = [{"key": r["key"], "prompt": "English.", "instruction_id_list": r["instruction_id_list"],
               "kwargs": r["kwargs"]} for r in trans]
    source[1] = {**source[1], "instruction_id_list": [*source[1]["instruction_id_list"], "detectable_format:title"],
                 "kwargs": [*source[1]["kwargs"], {}]}
    _jsonl(folder / TRANS_SOURCE, source)
    ground = [{**_sample("ground", "03", key, [style]), "status": "auto-ok", "reasons": [], "warnings": [],
               "provenance": {}} for key, style in (("g1", "Summarization"), ("g2", "Poem"))]
    _jsonl(folder / GROUND_ROWS, ground)
    return folder


def test_a_build_folder_shows_statuses_and_no_verification(tmp_path: Path):
    stats = load_stats(_build(tmp_path))
    assert stats.kind == "build" and not stats.tagged and stats.has_statuses
    assert stats.subsets["trans"].statuses == {"auto-ok": 4, "needs-review": 1}
    assert stats.subsets["ground"].statuses == {"auto-ok": 2}
    assert stats.subsets["ground"].context_required == 1 and stats.subsets["ground"].other_tags == {
        "Poem": 1, "Summarization": 1}
    src = stats.source  # the build's own English rows, as validate takes them
    assert src is not None and (src.same, src.differ, src.dropped) == (4, 1, {"detectable_format:title": 1})
    assert src.differing == ("hi/trans/t02",)
    text = markdown(stats_tables(stats), f"Dataset statistics: {stats.name}")
    assert "no row has a verification tag" in text and "| build status | needs-review | 1 | 20.0 |" in text


def test_release_folders_from_finalize_and_the_hub_layout(tmp_path: Path):
    release = tmp_path / "release"
    finalize([_build(tmp_path)], release, accept_unreviewed=True)
    stats = load_stats(release)
    assert stats.kind == "release" and stats.tagged and not stats.has_statuses
    trans = next(v for v in stats.verification if v.subset == "trans")
    # needs-review and unreviewed: left out; the rest accepted as silver, parallel (one language)
    assert (trans.rows, trans.correct, trans.silver_translation, trans.parallel) == (4, 4, 4, 4)
    assert trans.parallel_instructions == sum(stats.subsets["trans"].per_row[k] * k
                                              for k in stats.subsets["trans"].per_row)
    published = tmp_path / "published"
    write_hub_layout(published / "hub", load_rows(release / "rows.jsonl"), "test")
    (published / "release.json").write_text((release / "release.json").read_text(encoding="utf-8"), encoding="utf-8")
    for data in (published, published / "hub"):
        again = load_stats(data)
        assert again.kind in ("release", "hub") and again.to_json()["subsets"] == stats.to_json()["subsets"]
        assert again.verification == stats.verification
    for data in (release, published):  # validate reads both release folders too, through the same reader
        assert validate(data).rows == sum(s.rows for s in stats.subsets.values())


def test_compare_lists_every_differing_instruction_list(tmp_path: Path):
    rows = [_sample("trans", n, f"t{n}", ["correct"]) for n in ("01", "02", "03")]
    other = [dict(r) for r in rows]
    other[2] = {**other[2], "instruction_id_list": other[2]["instruction_id_list"][:1],
                "kwargs": other[2]["kwargs"][:1], "tags": ["incorrect"]}
    a = dataset_stats(load_rows(rows), name="a")
    b = dataset_stats(other[1:], name="b")  # row dicts are parsed as load_rows parses them
    result = compare(a, b)
    assert (result.lists.matched, result.lists.same, result.lists.only_a, result.lists.only_b) == (2, 1, 1, 0)
    ((row, ids_a, ids_b),) = result.lists.differing
    assert row == "hi/trans/t03" and len(ids_a) == 2 and ids_b == ids_a[:1]
    splits = next(t for t in result.tables if t.name == "splits")
    assert splits.rows[0] == (("hi", "trans"), ((3, 2, -1), (7, 4, -3)))  # 2+3+2 against 3+1
    verification = next(t for t in result.tables if t.name == "verification")
    cells = dict(zip(verification.columns, verification.rows[0][1]))
    assert cells["correct"] == (3, 1, -2) and cells["incorrect"] == (0, 1, 1)
    data = json.loads(json.dumps(result.to_json()))
    assert data["format_version"] == 1 and data["instruction_lists"]["differing"][0]["row"] == "hi/trans/t03"
    assert "| hi/trans/t03 | 2 | 1 | A only: detectable_format:number_highlighted_sections |" in result.to_markdown()
    same = compare(a, a)
    assert same.lists.differ == 0 and "matching instruction lists for every Trans row" in same.to_markdown()
    ground = dataset_stats([_sample("ground", "03", "g", ["Poem"])])
    assert "instruction-lists" not in {t.name for t in compare(ground, ground).all_tables()}
    shares = next(t for t in compare(a, ground).tables if t.name == "instructions/ground")
    assert shares.rows[0][1] == ((None, 1, None), (None, 100.0, None))  # A has no Ground table: "–"
    other_ground = dataset_stats([_sample("ground", "01", "g", ["Poem"])])
    shares = next(t for t in compare(ground, other_ground).tables if t.name == "instructions/ground")
    assert dict(shares.rows)[("keywords:frequency",)] == ((0, 1, 1), (0.0, 100.0, 100.0))  # a row A lacks: 0


def test_bad_input_is_one_located_error(tmp_path: Path):
    with pytest.raises(InputError, match="no such file"):
        load_input(tmp_path / "missing.jsonl")
    bad = _jsonl(tmp_path / "bad.jsonl", [{"key": 1, "prompt": "p", "instruction_id_list": ["nope:x"], "kwargs": [{}],
                                           "language": "hi"}])
    with pytest.raises(InputError, match="unknown instruction id") as caught:
        load_input(bad)
    assert caught.value.line == 1 and caught.value.field == "instruction_id_list"
    twice = _jsonl(tmp_path / "twice.jsonl", [_sample("trans", "01", "k", []), _sample("trans", "02", "k", [])])
    with pytest.raises(InputError, match="duplicate key"):
        load_input(twice)
    (tmp_path / "rel").mkdir()
    (tmp_path / "rel" / "release.json").write_text("{}", encoding="utf-8")
    with pytest.raises(InputError, match="release folder without"):
        load_input(tmp_path / "rel")
    with pytest.raises(InputError, match="no Trans rows"):
        load_stats(_jsonl(tmp_path / "g.jsonl", [_sample("ground", "03", "g", [])]), source=tmp_path / "g.jsonl")
