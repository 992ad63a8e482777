"""The other suites' English files read as rows for a Trans build: IFBench's test file (IFEval's
shape), open-instruct's RL-training rows (messages and a ground_truth literal) and NeMo Gym's
(top level or verifier_metadata), each tagged with its suite; a line of no known shape is an
error naming the file, line and field."""

import json

import pytest

from indicifeval.core.errors import InputError
from indicifeval.dataset.foreign import read_suite_rows


def _write(path, records):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


IDS = ["punctuation:no_comma", "length_constraints:number_words"]
KWARGS = [{}, {"num_words": 50, "relation": "at least"}]


def test_the_three_shapes_read_as_english_trans_rows_tagged_with_their_suite(tmp_path):
    ifbench = _write(tmp_path / "ifbench.jsonl", [{"key": "7", "prompt": "Write.", "instruction_id_list": IDS,
                                                   "kwargs": KWARGS}])
    rows = read_suite_rows(ifbench, "ifbench")
    assert [(r.key, r.language, r.subset, r.tags) for r in rows] == [("7", "en", "trans", ("ifbench",))]
    truth = str([{"instruction_id": IDS, "kwargs": KWARGS}])  # a Python literal, as open-instruct writes it
    rl = _write(tmp_path / "rl.jsonl", [
        {"messages": [{"role": "user", "content": "Write a poem."}], "ground_truth": truth, "dataset": "ifeval"},
        {"messages": [{"role": "system", "content": "x"}, {"role": "user", "content": "Tell."}],
         "ground_truth": json.dumps([json.dumps({"instruction_id": IDS[:1], "kwargs": [None]})])},
        {"id": 44654, "responses_create_params": {"input": [{"role": "user", "content": "Answer."}]},
         "verifier_metadata": {"instruction_id_list": IDS, "kwargs": [None, KWARGS[1]]}},
        {"id": 9, "prompt": "Go.", "instruction_id_list": IDS[:1], "kwargs": [None]},
    ])
    rows = read_suite_rows(rl, "open-instruct")
    assert [r.prompt for r in rows] == ["Write a poem.", "Tell.", "Answer.", "Go."]
    assert [r.key for r in rows] == [1, 2, 44654, 9]  # the line, or the row's own id
    assert rows[0].instruction_id_list == tuple(IDS) and rows[0].kwargs[1]["num_words"] == 50
    assert all(r.tags == ("open-instruct",) for r in rows)


@pytest.mark.parametrize("record, field", [
    ({"messages": [{"role": "user", "content": "x"}], "ground_truth": "{not a literal"}, "ground_truth"),
    ({"messages": [{"role": "user", "content": "x"}], "ground_truth": "[{'kwargs': []}]"}, "ground_truth"),
    ({"messages": [{"role": "assistant", "content": "x"}], "ground_truth": str([{"instruction_id": IDS[:1]}])},
     "messages"),
    ({"id": 1, "kwargs": [{}]}, "instruction_id_list"),
    ({"key": 1, "prompt": "x", "instruction_id_list": ["made:up"], "kwargs": [{}]}, "instruction_id_list"),
])
def test_a_line_of_no_known_shape_names_its_file_line_and_field(tmp_path, record, field):
    path = _write(tmp_path / "bad.jsonl", [{"key": 1, "prompt": "ok", "instruction_id_list": IDS[:1],
                                            "kwargs": [{}]}, record])
    with pytest.raises(InputError) as err:
        read_suite_rows(path, "open-instruct")
    assert err.value.line == 2 and err.value.field == field and "bad.jsonl" in str(err.value)


def test_the_nemo_gym_example_rows_read_as_rows_once_every_id_has_a_checker(tmp_path):
    """NeMo Gym's own example rows (its instruction-following mix: IFEval's and open-instruct's ids)."""
    from tests.conftest import FIXTURES

    rows = read_suite_rows(FIXTURES / "nemo_gym" / "verify_requests.jsonl", "open-instruct")
    assert len(rows) >= 10 and {r.key for r in rows} >= {44654, 8654}
