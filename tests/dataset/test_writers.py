"""The row writers beside the readers: JSON lines and the hub's parquet layout round-trip
through our loader and through the `datasets` library, as the hub would serve them."""

import json

import pytest

from indicifeval.checkers import KWARG_NAMES
from indicifeval.dataset import load_dataset, load_rows, write_hub_layout, write_rows_jsonl

pytest.importorskip("pyarrow")


def test_jsonl_round_trip(tmp_path):
    rows = load_rows("sample")
    write_rows_jsonl(tmp_path / "rows.jsonl", rows)
    first = json.loads((tmp_path / "rows.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["format_version"] == 1
    again = load_rows(tmp_path / "rows.jsonl")
    assert [r.to_record() for r in again] == [r.to_record() for r in rows]


def test_hub_layout_round_trip_through_our_loader_and_datasets(tmp_path, monkeypatch):
    rows = load_rows("sample")
    written = write_hub_layout(tmp_path / "hub", rows)
    assert (tmp_path / "hub" / "README.md") in written
    assert (tmp_path / "hub" / "indicifeval-trans" / "hi-00000-of-00001.parquet").is_file()
    assert not (tmp_path / "hub" / "indicifeval-ground" / "en-00000-of-00001.parquet").exists()
    ours = load_dataset("trans,ground", "all", tmp_path / "hub").rows
    key = {r.id: r.to_record() for r in rows}
    assert {r.id: r.to_record() for r in ours} == key  # language and subset from the layout, kwargs cleaned
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    split = datasets.load_dataset(str(tmp_path / "hub"), "indicifeval-trans", split="ta")
    assert len(split) == sum(1 for r in rows if (r.language, r.subset) == ("ta", "trans"))
    assert set(split[0]["kwargs"][0]) == set(KWARG_NAMES)  # all 24 names, unused ones null, as the hub serves
    via_hub = load_dataset("trans", "ta", "hub", repo=str(tmp_path / "hub")).rows
    assert [r.to_record() for r in via_hub] == [key[r.id] for r in via_hub]


def test_a_split_whose_keys_mix_numbers_and_text_is_written_with_text_keys(tmp_path):
    pytest.importorskip("pyarrow")
    from dataclasses import replace

    rows = [r for r in load_rows("sample") if r.language == "hi" and r.subset == "trans"]
    mixed = [replace(r, key=i if i % 2 else f"k{i}") for i, r in enumerate(rows)]
    write_hub_layout(tmp_path / "hub", mixed)
    back = load_dataset("trans", "hi", tmp_path / "hub").rows
    assert sorted(str(r.key) for r in back) == sorted(str(r.key) for r in mixed)


def test_another_suites_kwargs_are_kept_in_the_hub_layout_and_an_ifeval_release_is_as_it_was(tmp_path):
    """IFEval rows keep the hub's 24 kwarg names, no more; rows of another suite carry their own
    names after them (IFBench's ``options``, float ``percentage``...), and read back as written."""
    pytest.importorskip("pyarrow")
    from indicifeval.checkers import KWARG_NAMES
    from indicifeval.dataset import hub_record, load_rows, write_hub_layout
    from indicifeval.dataset.writers import kwarg_names

    ifeval = [r for r in load_rows("sample") if r.language == "hi"][:2]
    assert kwarg_names(ifeval) == KWARG_NAMES and list(hub_record(ifeval[0])["kwargs"][0]) == list(KWARG_NAMES)
    others = [r for r in load_rows("sample-ifbench") if r.language == "hi" and any(kw for kw in r.kwargs)][:3]
    assert others and set(kwarg_names(others)) > set(KWARG_NAMES)
    write_hub_layout(tmp_path / "hub", [*ifeval, *others])
    back = {r.key: r for r in load_rows(tmp_path / "hub")}
    for row in [*ifeval, *others]:
        assert back[row.key].kwargs == row.kwargs and back[row.key].instruction_id_list == row.instruction_id_list
