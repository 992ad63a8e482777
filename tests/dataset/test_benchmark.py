"""load_dataset: the hub (through `datasets`, on a local folder in hub layout), a local
parquet export, files, the sample; filters by subset, language, tags and limit."""

import json

import pytest

from indicifeval.checkers import KWARG_NAMES
from indicifeval.dataset import PAPER_TRANS_TAGS, InputError, load_dataset, load_rows
from tests.conftest import shared_path

pa = pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

CONFIGS = {"trans": "indicifeval-trans", "ground": "indicifeval-ground"}
_INT = {"capital_frequency", "frequency", "let_frequency", "nth_paragraph", "num_bullets", "num_highlights",
        "num_paragraphs", "num_placeholders", "num_sections", "num_sentences", "num_words"}
_LIST = {"forbidden_words", "keywords"}
# The hub's schema: one struct type for every kwargs element, with all 24 fields.
SCHEMA = pa.schema([
    ("key", pa.int64()), ("prompt", pa.string()), ("instruction_id_list", pa.list_(pa.string())),
    ("kwargs", pa.list_(pa.struct([(n, pa.int64() if n in _INT
                                    else pa.list_(pa.string()) if n in _LIST else pa.string())
                                   for n in KWARG_NAMES]))),
    ("resp_lang", pa.string()), ("tags", pa.list_(pa.string())),
])


def _hub_record(row, tags):
    kwargs = [{name: kw.get(name) for name in KWARG_NAMES} for kw in row.kwargs]  # 24 names, nulls
    return {"key": len(row.prompt) * 1000 + hash(row.key) % 1000, "prompt": row.prompt,
            "instruction_id_list": list(row.instruction_id_list), "kwargs": kwargs, "resp_lang": "src", "tags": tags}


@pytest.fixture(scope="module")
def hub_folder(tmp_path_factory):
    """The bundled sample, laid out like the hub's parquet export, with a README config."""
    folder = tmp_path_factory.mktemp("IndicIFEval")
    rows = load_rows("sample")
    by_split = {}
    for i, row in enumerate(rows):
        tags = ["correct", "parallel"] if i % 2 == 0 else ["incorrect"]
        by_split.setdefault((row.subset, row.language), []).append(_hub_record(row, tags) | {"key": i})
    configs = []
    for (subset, lang), records in sorted(by_split.items()):
        (folder / CONFIGS[subset]).mkdir(exist_ok=True)
        pq.write_table(pa.Table.from_pylist(records, schema=SCHEMA),
                       folder / CONFIGS[subset] / f"{lang}-00000-of-00001.parquet")
    for subset, config in CONFIGS.items():
        splits = sorted(lang for s, lang in by_split if s == subset)
        files = "\n".join(f"  - split: {lang}\n    path: {config}/{lang}-*.parquet" for lang in splits)
        configs.append(f"- config_name: {config}\n  data_files:\n{files}")
    (folder / "README.md").write_text("---\nconfigs:\n" + "\n".join(configs) + "\n---\n# local copy\n",
                                      encoding="utf-8")
    return folder


def test_local_parquet_layout(hub_folder):
    ds = load_dataset("trans,ground", "all", hub_folder)
    assert len(ds) == 416 and {r.subset for r in ds.rows} == {"trans", "ground"}
    assert ({r.language for r in ds.rows if r.subset == "ground"}
            == {r.language for r in load_rows("sample") if r.subset == "ground"})
    hi = load_dataset("trans", "hi", hub_folder)
    assert {(r.language, r.subset) for r in hi.rows} == {("hi", "trans")}
    assert hi.rows[0].kwargs[0] == {k: v for k, v in hi.rows[0].kwargs[0].items() if v is not None}


def test_filters(hub_folder):
    full = load_dataset("trans", "hi,ta", hub_folder)
    tagged = load_dataset("trans", "hi,ta", hub_folder, tags=PAPER_TRANS_TAGS)
    assert 0 < len(tagged) < len(full) and all({"correct", "parallel"} <= set(r.tags) for r in tagged.rows)
    limited = load_dataset("trans", "hi,ta", hub_folder, limit=3)
    assert len(limited) == 6
    assert load_dataset("trans", "all", hub_folder).info["languages"] == "all"
    with pytest.raises(InputError):
        load_dataset("trans", "xx", hub_folder)
    with pytest.raises(InputError):
        load_dataset("nope", "hi", hub_folder)


def test_hub_code_path_through_datasets(hub_folder, tmp_path, monkeypatch):
    pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    ds = load_dataset("trans,ground", "hi,en", "hub", repo=str(hub_folder), revision=None)
    local = load_dataset("trans,ground", "hi,en", hub_folder)
    assert [r.prompt for r in ds.rows] == [r.prompt for r in local.rows]
    assert [r.kwargs for r in ds.rows] == [r.kwargs for r in local.rows]
    assert ds.info["repo"] == str(hub_folder) and ds.info["revision"] == "main"
    assert {r.subset for r in ds.rows if r.language == "en"} == {"trans"}  # Ground has no en


def test_bad_row_in_parquet_names_file_and_row(tmp_path):
    (tmp_path / "indicifeval-trans").mkdir()
    record = {"key": 1, "prompt": "p", "instruction_id_list": ["keywords:frequency"],
              "kwargs": [{"keyword": "क", "frequency": "two", "relation": None}], "tags": [], "resp_lang": "src"}
    pq.write_table(pa.Table.from_pylist([record]), tmp_path / "indicifeval-trans" / "hi-00000-of-00001.parquet")
    with pytest.raises(InputError) as err:
        load_dataset("trans", "hi", tmp_path)
    assert err.value.line == 1 and err.value.field == "kwargs[0].frequency" and "hi-00000" in err.value.file


def test_real_nepali_parallel_subset():
    path = shared_path("data", "indicifeval-ne", "indicifeval-trans-ne.jsonl")
    assert len(load_dataset("trans", "ne", path, tags=PAPER_TRANS_TAGS)) == 321
    ground = shared_path("data", "indicifeval-ne", "indicifeval-ground-ne.jsonl")
    assert len(load_dataset("ground", "ne", ground)) == 341
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["key"] == 1000
