"""Multi-turn conversations in Multi-IF's format (hi, en, ta, bn), written by the test as JSON
lines and CSV, scored turn by turn. The expected verdicts were decided by hand, reading each
answer against each instruction, not by running the scorer."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.dataset.multiturn import load_conversations, write_conversations_jsonl, write_multi_if
from indicifeval.records import RowScore, read_scores
from indicifeval.scoring.multiturn import score_conversations

NO_COMMA, EXISTS, SENTENCES = "punctuation:no_comma", "keywords:existence", "length_constraints:number_sentences"
JSON, TITLE, FORBIDDEN = "detectable_format:json_format", "detectable_format:title", "keywords:forbidden_words"
LOWER, END = "change_case:english_lowercase", "startend:end_checker"


def _turns(*turns: tuple[str, list[tuple[str, dict]]]) -> dict:
    out: dict = {}
    for n, (prompt, instructions) in enumerate(turns, start=1):
        out[f"turn_{n}_prompt"] = json.dumps({"role": "user", "content": prompt}, ensure_ascii=False)
        out[f"turn_{n}_instruction_id_list"] = json.dumps([i for i, _ in instructions])
        out[f"turn_{n}_kwargs"] = json.dumps([json.dumps(k, ensure_ascii=False) for _, k in instructions])
    return out


RIVER_HI, RIVER_BN = {"keywords": ["नदी"]}, {"keywords": ["নদী"]}
CONVERSATIONS = [
    # turn 3 adds json_format, which conflicts with turn 1's no_comma (and turn 2's sentence count):
    # Multi-IF's lists drop them, so the commas of the JSON answer break nothing
    {"key": "hi-1", "language": "Hindi", **_turns(
        ("गंगा नदी के बारे में लिखें। उत्तर में अल्पविराम न हो।", [(NO_COMMA, {}), (EXISTS, RIVER_HI)]),
        ("अब 3 से कम वाक्यों में लिखें।", [(NO_COMMA, {}), (EXISTS, RIVER_HI),
                                        (SENTENCES, {"num_sentences": 3, "relation": "less than"})]),
        ("अब पूरा उत्तर JSON में दें।", [(EXISTS, RIVER_HI), (JSON, {})]))},
    # turn 3's answer breaks turn 1's lowercase instruction
    {"key": "en-1", "language": "English", **_turns(
        ("Write about the Ganga, all in lowercase letters.", [(LOWER, {})]),
        ("End with 'Is there anything else I can help with?'",
         [(LOWER, {}), (END, {"end_phrase": "Is there anything else I can help with?"})]),
        ("Now mention the word river.", [(LOWER, {}), (END, {"end_phrase": "Is there anything else I can help with?"}),
                                         (EXISTS, {"keywords": ["river"]})]))},
    # turn 3's answer breaks turn 1's no-comma instruction in its last line only: loose passes
    {"key": "ta-1", "language": "Tamil", **_turns(
        ("சென்னை பற்றி எழுதுங்கள். காற்புள்ளி வேண்டாம்.", [(NO_COMMA, {})]),
        ("<<தலைப்பு>> போன்ற தலைப்பு சேர்க்கவும்.", [(NO_COMMA, {}), (TITLE, {})]),
        ("கடல் என்ற சொல்லைப் பயன்படுத்த வேண்டாம்.", [(NO_COMMA, {}), (TITLE, {}),
                                                  (FORBIDDEN, {"forbidden_words": ["கடல்"]})]))},
    # turn 2 is never answered: turns 2 and 3 score as missing, though turn 3 has an answer
    {"key": "bn-1", "language": "Bengali", **_turns(
        ("পদ্মা নদী সম্পর্কে লিখুন।", [(EXISTS, RIVER_BN)]),
        ("অন্তত ২টি বাক্যে লিখুন।", [(EXISTS, RIVER_BN), (SENTENCES, {"num_sentences": 2, "relation": "at least"})]),
        ("কমা ব্যবহার করবেন না।", [(EXISTS, RIVER_BN), (SENTENCES, {"num_sentences": 2, "relation": "at least"}),
                                  (NO_COMMA, {})]))},
    # two turns only (turn 3 "None"); Bengali sentences end at । (Multi-IF's punkt sees one)
    {"key": "bn-2", "language": "Bengali", **_turns(
        ("পদ্মা নদী সম্পর্কে লিখুন।", [(EXISTS, RIVER_BN)]),
        ("অন্তত ২টি বাক্যে লিখুন।", [(EXISTS, RIVER_BN), (SENTENCES, {"num_sentences": 2, "relation": "at least"})])),
     "turn_3_prompt": "None", "turn_3_instruction_id_list": "None", "turn_3_kwargs": "None"},
]
ANSWERS = [
    {"key": "hi-1", "responses": ["गंगा भारत की सबसे पवित्र नदी है। यह हिमालय से निकलती है।",
                                  "गंगा एक नदी है। यह हिमालय से निकलती है।",
                                  '{"नदी": "गंगा", "लंबाई": "2525 किमी"}']},
    {"key": "en-1", "responses": ["the ganga is a long river in india.",
                                  "the ganga flows east. is there anything else i can help with?",
                                  "The Ganga is a river. is there anything else i can help with?"]},
    {"key": "ta-1", "turn": 1, "response": "சென்னை ஒரு பெரிய நகரம்."},
    {"key": "ta-1", "turn": 2, "response": "<<சென்னை>>\nசென்னை ஒரு அழகான நகரம்."},
    {"key": "ta-1", "turn": 3, "response": "<<சென்னை>>\nசென்னை, ஒரு கடற்கரை நகரம்."},
    {"key": "bn-1", "turn": 1, "response": "পদ্মা একটি বড় নদী।"},
    {"key": "bn-1", "turn": 3, "response": "পদ্মা একটি নদী। এটি বড়।"},
    {"key": "bn-2", "responses": ["পদ্মা নদী।", "পদ্মা একটি নদী। এটি বাংলাদেশে বয়ে যায়।"]},
]
T, F = True, False
# (key, turn) -> (strict, loose, missing), decided by hand
EXPECTED = {
    ("hi-1", 1): ([T, T], [T, T], F), ("hi-1", 2): ([T, T, T], [T, T, T], F), ("hi-1", 3): ([T, T], [T, T], F),
    ("en-1", 1): ([T], [T], F), ("en-1", 2): ([T, T], [T, T], F), ("en-1", 3): ([F, T, T], [F, T, T], F),
    ("ta-1", 1): ([T], [T], F), ("ta-1", 2): ([T, T], [T, T], F), ("ta-1", 3): ([F, T, T], [T, T, T], F),
    ("bn-1", 1): ([T], [T], F), ("bn-1", 2): ([F, F], [F, F], T), ("bn-1", 3): ([F, F, F], [F, F, F], T),
    ("bn-2", 1): ([T], [T], F), ("bn-2", 2): ([T, T], [T, T], F),
}


def _write(tmp_path: Path) -> tuple[Path, Path, Path]:
    jsonl, table, answers = tmp_path / "conv.jsonl", tmp_path / "conv.csv", tmp_path / "answers.jsonl"
    jsonl.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in CONVERSATIONS), encoding="utf-8")
    names = list(CONVERSATIONS[0])
    with table.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=names)
        writer.writeheader()
        for c in CONVERSATIONS:
            writer.writerow({n: c.get(n, "") for n in names})
    answers.write_text("".join(json.dumps(a, ensure_ascii=False) + "\n" for a in ANSWERS), encoding="utf-8")
    return jsonl, table, answers


def _expected_figures(turn: int) -> dict:
    cells = [v for (_, t), v in EXPECTED.items() if t == turn]
    strict = sum(all(s) for s, _, _ in cells) / len(cells)
    loose = sum(all(lo) for _, lo, _ in cells) / len(cells)
    n = sum(len(s) for s, _, _ in cells)
    inst_s, inst_l = sum(sum(s) for s, _, _ in cells) / n, sum(sum(lo) for _, lo, _ in cells) / n
    return {"prompt_level_strict_acc": strict, "inst_level_strict_acc": inst_s, "prompt_level_loose_acc": loose,
            "inst_level_loose_acc": inst_l, "multi_if": (strict + inst_s + loose + inst_l) / 4, "prompts": len(cells)}


def test_reader_reads_both_formats_alike_and_writers_round_trip(tmp_path):
    jsonl, table, _ = _write(tmp_path)
    from_jsonl, from_csv = load_conversations(jsonl), load_conversations(table)
    assert from_jsonl == from_csv
    assert [c.language for c in from_jsonl] == ["hi", "en", "ta", "bn", "bn"]
    assert [len(c.turns) for c in from_jsonl] == [3, 3, 3, 3, 2]
    assert from_csv[3].source.line == 5  # the header is line 1
    hi = from_jsonl[0]
    assert hi.turns[2].instruction_id_list == (EXISTS, JSON)  # no_comma dropped, as the data says
    row = hi.turn_row(3)
    assert (row.key, row.language, row.subset, row.prompt) == ("hi-1", "hi", "multiturn", "अब पूरा उत्तर JSON में दें।")
    for name in ("mi.jsonl", "mi.csv"):
        assert load_conversations(write_multi_if(from_jsonl, tmp_path / name)) == from_jsonl
    assert load_conversations(write_conversations_jsonl(from_jsonl, tmp_path / "own.jsonl")) == from_jsonl
    written = json.loads((tmp_path / "mi.jsonl").read_text(encoding="utf-8").splitlines()[4])
    assert written["language"] == "Bengali" and written["turn_3_prompt"] == "None"
    assert json.loads(json.loads(written["turn_2_kwargs"])[1]) == {"num_sentences": 2, "relation": "at least"}


@pytest.mark.parametrize("which", [0, 1])
def test_per_turn_verdicts_match_hand_decided_ones(tmp_path, which):
    data = _write(tmp_path)[which]
    result = score_conversations(data, ANSWERS, allow_missing=True)
    got = {(s.key, s.turn): (s.strict, s.loose, s.response_missing) for s in result.scores}
    assert got == EXPECTED
    for turn in (1, 2, 3):
        block = result.summary["per_turn"][str(turn)]
        for name, value in _expected_figures(turn).items():
            assert block[name] == pytest.approx(value), (turn, name)
    assert result.summary["per_language_turn"]["bn"]["2"]["prompts"] == 2
    assert result.summary["per_language_turn"]["bn"]["3"]["prompts"] == 1


def test_cli_end_to_end(tmp_path):
    _, table, answers = _write(tmp_path)
    out = tmp_path / "out"
    assert main(["score", "--data", str(table), "--responses", str(answers), "--out", str(out), "--allow-missing",
                 "--quiet"]) == 0
    scores = list(read_scores(out / "scores.jsonl"))
    assert {(s.key, s.turn): (s.strict, s.loose, s.response_missing) for s in scores} == EXPECTED
    lines = (out / "scores.jsonl").read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line)["turn"] in (1, 2, 3) for line in lines)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["per_turn"]["3"]["multi_if"] == pytest.approx(_expected_figures(3)["multi_if"])
    answered = [json.loads(line) for line in (out / "responses.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(a["key"], a["turn"]) for a in answered][:3] == [("hi-1", 1), ("hi-1", 2), ("hi-1", 3)]
    assert answered[-4]["response"] is None  # bn-1 turn 3: its answer follows an unanswered turn
    rows = [json.loads(line) for line in (out / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows[0]["turns"][2]["instruction_id_list"] == [EXISTS, JSON]
    # without --allow-missing, the unanswered turn is an error naming it
    assert main(["score", "--data", str(table), "--responses", str(answers), "--out", str(tmp_path / "o2"),
                 "--quiet"]) == 1


def test_row_score_turn_is_written_only_when_set():
    score = RowScore("k", "hi", "multiturn", [NO_COMMA], [True], [True], True, True, [""], False, "fixed", "x")
    assert "turn" not in score.to_json()
    score.turn = 2
    assert RowScore.from_json(score.to_json()).turn == 2


def _bad(tmp_path: Path, **change) -> InputError:
    record = {**CONVERSATIONS[0], **change}
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(CONVERSATIONS[1]) + "\n" + json.dumps(record, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_conversations(path)
    assert caught.value.file == str(path) and caught.value.line == 2
    return caught.value


def test_bad_conversations_name_file_line_and_field(tmp_path):
    assert _bad(tmp_path, turn_2_kwargs=json.dumps(["{}"])).field == "turn_2_kwargs"
    assert _bad(tmp_path, turn_3_instruction_id_list=json.dumps([EXISTS, "no:such"])).field == \
        "turn_3_instruction_id_list[1]"
    assert _bad(tmp_path, turn_1_prompt="plain text").field == "turn_1_prompt"
    bad_kwarg = json.dumps(["{}", json.dumps({"keywords": ["नदी"]}),
                            json.dumps({"num_sentences": 3, "relation": "roughly"})])
    assert _bad(tmp_path, turn_2_kwargs=bad_kwarg).field.startswith("turn_2_kwargs[2]")
    assert "turn 2 is absent" in _bad(tmp_path, turn_2_prompt="None").message
    assert "no language profile" in _bad(tmp_path, language="German").message
    assert _bad(tmp_path, language="Klingon").field == "language"


def test_bad_answers(tmp_path):
    jsonl, _, _ = _write(tmp_path)
    with pytest.raises(InputError, match="turn must be a whole number"):
        score_conversations(jsonl, [{"key": "hi-1", "turn": 0, "response": "x"}], allow_missing=True)
    with pytest.raises(InputError, match="a second answer for key 'hi-1' turn 1"):
        score_conversations(jsonl, [{"key": "hi-1", "responses": ["a"]}, {"key": "hi-1", "turn": 1, "response": "b"}],
                            allow_missing=True)
    with pytest.raises(InputError, match="key 'bn-1' turn 2"):
        score_conversations(jsonl, ANSWERS)


def test_validate_knows_turns(tmp_path):
    jsonl, _, _ = _write(tmp_path)
    assert main(["validate", str(jsonl), "--quiet", "--skip", "language_named,prompt_language"]) == 0
    # turn 3 keeps turn 1's no_comma beside json_format, which contradicts it: an error naming the turn
    kept = json.dumps([json.dumps(k) for k in ({}, {"keywords": ["नदी"]}, {})])
    bad = {**CONVERSATIONS[0], "turn_3_instruction_id_list": json.dumps([NO_COMMA, EXISTS, JSON]),
           "turn_3_kwargs": kept}
    path = tmp_path / "conflict.jsonl"
    path.write_text(json.dumps(bad, ensure_ascii=False) + "\n", encoding="utf-8")
    findings = tmp_path / "findings.jsonl"
    assert main(["validate", str(path), "--quiet", "--findings", str(findings)]) == 1
    found = [json.loads(line) for line in findings.read_text(encoding="utf-8").splitlines()]
    conflict = [f for f in found if f["check"] == "turn_conflict"]
    assert len(conflict) == 1 and conflict[0]["severity"] == "error"
    assert conflict[0]["row"] == "hi/multiturn/hi-1/turn_3"
    assert conflict[0]["line"] == 1 and "turn_3_instruction_id_list" in conflict[0]["message"]
