"""``rewards.profile``: k answers per prompt, each prompt classed zero/one/flat/mixed by its
rewards; the answers read from JSON lines (a line per sample or a list of k), several files
and run folders; bad input named by file, line and field; a profile read back and checked
against the rows it is applied to."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from indicifeval.core.errors import InputError
from indicifeval.dataset import load_rows
from indicifeval.records import Row
from indicifeval.rewards import score_batch
from indicifeval.rewards.profile import (
    CLASSES,
    class_of,
    profile_of,
    profile_rewards,
    read_profile,
    write_profile,
)
from indicifeval.testing.hacks import hack_cases
from tests.rewards.test_rewards_api import _responses

ROWS = load_rows("sample")
TEXTS = _responses("sample")
PATTERNS = {"one": ("pass",) * 4, "zero": ("fail",) * 4, "mixed": ("pass", "fail", "hack", "pass")}


def _item(row: Row, text: str) -> dict:
    return {"key": row.key, "language": row.language, "subset": row.subset, "response": text}


def _honest(row: Row, which: str) -> str:
    return TEXTS[str(row.key).rsplit("-", 1)[0] + f"-{which}"]


def _rewards(rows: list[Row], texts: list[str], reward: str = "all", implicit="all") -> list[float]:
    data = {r.id: r for r in rows}
    items = [{**_item(r, t), "instruction_id_list": list(r.instruction_id_list), "kwargs": list(r.kwargs),
              "prompt": r.prompt} for r, t in zip(rows, texts)]
    assert len(data) == len(set(data))
    return [s.reward for s in score_batch(items, reward=reward, implicit=implicit)]


def _plan() -> list[tuple[Row, str, list[str]]]:
    """(row, its expected class, its 4 answers), for the sample's rows whose passing answer
    scores 1 and failing one 0: in each language, in turn one, zero, mixed (a hack among them)."""
    passing = _rewards(ROWS, [_honest(r, "pass") for r in ROWS])
    failing = _rewards(ROWS, [_honest(r, "fail") for r in ROWS])
    hacks = {row.id: answer for _, row, answer in (c for lang in ("hi", "ta") for c in hack_cases(lang))}
    plan, turn = [], Counter()
    for row, good, bad in zip(ROWS, passing, failing):
        if good != 1.0 or bad != 0.0:
            continue
        cls = ("one", "zero", "mixed")[turn[row.language] % 3]
        turn[row.language] += 1
        texts = {"pass": _honest(row, "pass"), "fail": _honest(row, "fail"), "hack": hacks.get(row.id, "")}
        plan.append((row, cls, [texts[w] for w in PATTERNS[cls]]))
    return plan


PLAN = _plan()


def _lines(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def _answers_file(path: Path, plan=PLAN) -> Path:
    """Half the rows as a line per sample, half as one line of k responses (keys alone where
    they are unique, as the sample's are)."""
    records = []
    for n, (row, _, texts) in enumerate(plan):
        if n % 2:
            records.append({"key": row.key, "responses": texts})
        else:
            records += [_item(row, t) for t in texts]
    return _lines(path, records)


def test_class_of():
    assert [class_of(r) for r in ([0, 0], [1.0, 1], [0.5, 0.5], [0, 1], [0.5, 1], [1])] == \
           ["zero", "one", "flat", "mixed", "mixed", "one"]


def test_every_class_and_the_shares_per_language(tmp_path):
    assert len(PLAN) > 200 and {c for _, c, _ in PLAN} == {"one", "zero", "mixed"}
    profile = profile_rewards(ROWS, [_answers_file(tmp_path / "a.jsonl")], data="sample")
    got = {p.id: p for p in profile.prompts}
    assert len(got) == len(PLAN) and profile.unanswered == len(ROWS) - len(PLAN)
    for row, cls, _ in PLAN:
        assert got[row.id].cls == cls and len(got[row.id].rewards) == 4, row.id
    assert got[next(r for r, c, _ in PLAN if c == "mixed").id].rewards == (1.0, 0.0, 0.0, 1.0)
    expected: dict[str, Counter] = defaultdict(Counter)
    for row, cls, _ in PLAN:
        expected[row.language][cls] += 1
        expected["all"][cls] += 1
    summary = profile.summary()
    assert list(summary) == [*dict.fromkeys(r.language for r, _, _ in PLAN), "all"]
    for language, counts in expected.items():
        block = summary[language]
        n = sum(counts.values())
        assert block["prompts"] == n and block["k_min"] == block["k_max"] == 4
        assert block["shares"] == {c: counts[c] / n for c in CLASSES}, language


def test_a_fraction_reward_gives_flat_prompts(tmp_path):
    """Four copies of a failing answer that follows some of its instructions: all the same share,
    strictly between 0 and 1: no gradient either."""
    failing = _rewards(ROWS, [_honest(r, "fail") for r in ROWS], "fraction")
    partial = [r for r, f in zip(ROWS, failing) if 0 < f < 1][:6]
    assert partial
    plan = [(r, "flat", [_honest(r, "fail")] * 4) for r in partial]
    profile = profile_rewards(ROWS, [_answers_file(tmp_path / "a.jsonl", plan)], reward="fraction")
    assert {p.cls for p in profile.prompts} == {"flat"} and profile.reward == "fraction"
    assert profile.summary()["all"]["shares"]["flat"] == 1.0


def test_the_implicit_constraints_pass_through(tmp_path):
    """A hack the plain reward pays for, four times: zero with the implicit constraints (the
    default), one without them."""
    cases = [(row, answer) for _, row, answer in hack_cases("hi")]
    plain = _rewards([r for r, _ in cases], [a for _, a in cases], implicit=None)
    row, answer = next((r, a) for (r, a), p in zip(cases, plain) if p == 1.0)
    path = _lines(tmp_path / "h.jsonl", [_item(row, answer)] * 4)
    assert profile_rewards(ROWS, [path]).prompts[0].cls == "zero"
    plain_profile = profile_rewards(ROWS, [path], implicit="none")
    assert plain_profile.prompts[0].cls == "one" and plain_profile.implicit == ()


def test_several_files_are_several_samples(tmp_path):
    plan = PLAN[:30]
    files = [_lines(tmp_path / f"s{k}.jsonl", [_item(r, texts[k]) for r, _, texts in plan]) for k in range(4)]
    together = profile_rewards(ROWS, [_answers_file(tmp_path / "a.jsonl", plan)])
    apart = profile_rewards(ROWS, files)
    assert [p.to_json() for p in apart.prompts] == [p.to_json() for p in together.prompts]


def test_the_profile_round_trips_and_is_refused_on_other_rows(tmp_path):
    profile = profile_rewards(ROWS, [_answers_file(tmp_path / "a.jsonl")], data="sample")
    path = write_profile(profile, tmp_path / "p.json")
    back = read_profile(path)
    assert [p.to_json() for p in back.prompts] == [p.to_json() for p in profile.prompts]
    assert back.summary() == profile.summary() and json.loads(path.read_text("utf-8"))["data"] == "sample"
    assert profile_of(path, ROWS).prompts == back.prompts
    with pytest.raises(InputError, match="none of the .* rows is in this profile .*'sample'.*another dataset"):
        profile_of(path, load_rows("sample-beyond"))
    changed = [Row(r.key, r.prompt + " और", r.instruction_id_list, r.kwargs, r.language, r.subset) for r in ROWS]
    with pytest.raises(InputError, match="ask something other than when they were profiled") as err:
        profile_of(path, changed)
    assert err.value.file == str(path) and err.value.field == "content_hash"
    (tmp_path / "x.json").write_text('{"rows": 3}', encoding="utf-8")
    with pytest.raises(InputError, match="not a reward profile") as err:
        read_profile(tmp_path / "x.json")
    assert err.value.field == "tool"


@pytest.mark.parametrize("record, field, message", [
    ({"key": "hi-trans-01-pass"}, "response", "missing field"),
    ({"key": "hi-trans-01-pass", "response": None}, "response", "the response is null"),
    ({"key": "hi-trans-01-pass", "responses": ["a", 3]}, "responses", "answer 2 of responses is int"),
    ({"key": "hi-trans-01-pass", "responses": []}, "responses", "non-empty list"),
    ({"key": "nowhere", "response": "a"}, "key", "no row of the data has the key 'nowhere'"),
    ({"key": "hi-trans-01-pass", "language": "ta", "response": "a"}, "key", "no row of the data has ta key"),
    ({"key": ["x"], "response": "a"}, "key", "key must be an integer or a string"),
    ({"key": "hi-trans-01-pass", "subset": 3, "response": "a"}, "subset", "subset must be a string"),
    ({"response": "a"}, "key", "needs the 'key'"),
])
def test_bad_answers_name_the_file_line_and_field(tmp_path, record, field, message):
    path = _lines(tmp_path / "bad.jsonl", [_item(ROWS[0], "fine"), record])
    with pytest.raises(InputError, match=message) as err:
        profile_rewards(ROWS, [path])
    assert (err.value.file, err.value.line, err.value.field) == (str(path), 2, field)


def test_a_key_shared_by_rows_needs_its_language_and_subset(tmp_path):
    rows = [*ROWS[:2], Row(ROWS[0].key, ROWS[0].prompt, ROWS[0].instruction_id_list, ROWS[0].kwargs, "xx", "trans")]
    path = _lines(tmp_path / "a.jsonl", [{"key": ROWS[0].key, "response": "a"}])
    with pytest.raises(InputError, match="2 rows of the data have the key .*give its language and subset") as err:
        profile_rewards(rows, [path])
    assert (err.value.line, err.value.field) == (1, "key")
