"""Row loading and validation: formats, and errors naming file, line and field."""

import json

import pytest

from indicifeval.dataset import InputError, load_responses, load_rows
from indicifeval.dataset.responses import Responses

GOOD = {"key": 7, "prompt": "नमस्ते लिखें",
        "instruction_id_list": ["punctuation:no_comma", "length_constraints:number_words"],
        "kwargs": [{}, {"num_words": 10.0, "relation": "at least", "keyword": None}], "language": "hi"}


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_jsonl_json_and_parquet_agree(tmp_path):
    rows_jsonl = load_rows(write_jsonl(tmp_path / "d.jsonl", [GOOD]))
    (tmp_path / "d.json").write_text(json.dumps([GOOD], ensure_ascii=False), encoding="utf-8")
    rows_json = load_rows(tmp_path / "d.json")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    hub_kwargs = [{name: None for name in ("num_words", "relation", "keyword")} for _ in range(2)]
    hub_kwargs[1].update(num_words=10, relation="at least")
    table = pa.Table.from_pylist([{**GOOD, "kwargs": hub_kwargs}])
    pq.write_table(table, tmp_path / "d.parquet")
    rows_parquet = load_rows(tmp_path / "d.parquet")
    assert rows_jsonl[0].kwargs == rows_json[0].kwargs == rows_parquet[0].kwargs
    assert rows_jsonl[0].kwargs[1] == {"num_words": 10, "relation": "at least"}
    assert isinstance(rows_jsonl[0].kwargs[1]["num_words"], int)


@pytest.mark.parametrize(
    "change,field,line",
    [
        ({"instruction_id_list": ["keywords:nope"], "kwargs": [{}]}, "instruction_id_list", 2),
        ({"kwargs": [{}]}, "kwargs", 2),
        ({"kwargs": [{}, {"num_words": "ten", "relation": "at least"}]}, "kwargs[1].num_words", 2),
        ({"kwargs": [{}, {"num_words": 10.5, "relation": "at least"}]}, "kwargs[1].num_words", 2),
        ({"kwargs": [{}, {"num_words": 10, "relation": "about"}]}, "kwargs[1].relation", 2),
        ({"kwargs": [{}, {"num_words": 10, "relation": "at least", "letter": "a"}]}, "kwargs[1].letter", 2),
        ({"language": "xx"}, "language", 2),
        ({"subset": "other"}, "subset", 2),
    ],
)
def test_bad_rows_name_file_line_and_field(tmp_path, change, field, line):
    path = write_jsonl(tmp_path / "bad.jsonl", [GOOD | {"key": 1}, GOOD | change])
    with pytest.raises(InputError) as err:
        load_rows(path)
    assert err.value.file == str(path) and err.value.line == line and err.value.field == field
    assert str(path) in str(err.value) and f"line {line}" in str(err.value)


def test_missing_field_and_malformed_line(tmp_path):
    record = dict(GOOD)
    del record["prompt"]
    with pytest.raises(InputError) as err:
        load_rows(write_jsonl(tmp_path / "a.jsonl", [record]))
    assert err.value.field == "prompt" and err.value.line == 1
    path = tmp_path / "b.jsonl"
    path.write_text(json.dumps(GOOD) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_rows(path)
    assert err.value.line == 2 and "malformed JSON" in str(err.value)


def test_language_flag_and_row_field(tmp_path):
    record = {k: v for k, v in GOOD.items() if k != "language"}
    with pytest.raises(InputError) as err:
        load_rows(write_jsonl(tmp_path / "a.jsonl", [record]))
    assert err.value.field == "language"
    assert load_rows(tmp_path / "a.jsonl", language="ta")[0].language == "ta"
    mixed = write_jsonl(tmp_path / "m.jsonl", [record | {"key": 8}, GOOD])
    # --language fills in rows without one; a row that says another language is an error, never relabelled
    with pytest.raises(InputError) as err:
        load_rows(mixed, language="ta")
    assert err.value.line == 2 and err.value.field == "language" and "'hi'" in str(err.value)
    assert load_rows(mixed, language="hi")[0].language == "hi"


def test_duplicate_key(tmp_path):
    with pytest.raises(InputError) as err:
        load_rows(write_jsonl(tmp_path / "d.jsonl", [GOOD, GOOD]))
    assert err.value.field == "key" and err.value.line == 2


def test_sample_loads():
    rows = load_rows("sample")
    responses = load_responses("sample")
    assert {r.language for r in rows} >= {"hi", "en"}
    assert all(responses.lookup(r) is not None for r in rows)


def test_response_formats(tmp_path):
    ours = write_jsonl(tmp_path / "r.jsonl", [{"key": 7, "response": "a"}])
    assert load_responses(ours).lookup(load_rows([GOOD])[0]) == "a"
    ifeval = write_jsonl(tmp_path / "i.jsonl", [{"prompt": GOOD["prompt"], "response": "b"}])
    assert load_responses(ifeval).lookup(load_rows([GOOD])[0]) == "b"
    lm = write_jsonl(
        tmp_path / "samples_indicifeval_trans_hi_2026-01-01T00-00-00.jsonl",
        [{"doc_id": 0, "doc": {"key": 7, "prompt": GOOD["prompt"]}, "resps": [["c"]], "filtered_resps": ["c"]}],
    )
    assert load_responses(lm).lookup(load_rows([GOOD])[0]) == "c"


def test_ambiguous_keys_need_language(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", [{"key": 7, "response": "a"}, {"key": 7, "response": "b"}])
    with pytest.raises(InputError):
        load_responses(path).lookup(load_rows([GOOD])[0])
    tagged = write_jsonl(tmp_path / "t.jsonl", [
        {"key": 7, "language": "hi", "subset": "trans", "response": "a"},
        {"key": 7, "language": "ta", "subset": "trans", "response": "b"},
    ])
    assert load_responses(tagged).lookup(load_rows([GOOD])[0]) == "a"
    assert isinstance(load_responses(tagged), Responses)


def test_bad_response_line(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"key": 1, "response": "x"}\n{"key": 2, "response": 5}\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_responses(path)
    assert err.value.line == 2 and err.value.field == "response"


def test_integer_and_string_keys_match(tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", [{"key": "7", "response": "a"}])
    assert load_responses(path).lookup(load_rows([GOOD])[0]) == "a"


def test_a_kwarg_error_counts_one_way_in_its_line(tmp_path):
    """The field path counts as JSON does (kwargs[1] is the second); the message names the
    instruction by its id instead of counting it again from 1 ("instruction 2")."""
    bad = GOOD | {"kwargs": [{}, {"num_words": "ten", "relation": "at least"}]}
    path = write_jsonl(tmp_path / "bad.jsonl", [bad])
    with pytest.raises(InputError) as err:
        load_rows(path)
    text = str(err.value)
    assert "line 1, field 'kwargs[1].num_words'" in text and GOOD["instruction_id_list"][1] in text, text
    assert "instruction 2" not in text and "instruction 1" not in text, text
