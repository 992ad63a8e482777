"""Ground batch transports, offline: exact request lines for OpenAI (and vLLM run-batch) and
Gemini; imports of hand-written provider output with everything providers do (any order, error
lines of each shape, truncation, junk, a BOM, unknown and duplicate keys); a round trip through
a fake provider that fails some items, re-exporting only what is missing; the answer parser."""

from __future__ import annotations

import json
import random

import pytest

from indicifeval.builder.ground.answers import parse_json_answer
from indicifeval.core.errors import InputError
from indicifeval.records import GenerationTask
from indicifeval.runs.backends.batch import TRANSPORTS, ImportResult, export_batch, import_batch
from indicifeval.runs.backends.batch_gemini import gemini_schema

SCHEMA = {"type": "object",
          "properties": {"instruction": {"type": "string"}, "constraint": {"type": "string"},
                         "unsafe": {"type": "boolean"}},
          "required": ["instruction", "constraint", "unsafe"], "additionalProperties": False}
PARAMS = {"max_tokens": 2048, "temperature": 0.9, "top_p": 0.95}
SYSTEM = "You write instructions for a language model."
USER = "संदर्भ: नदी किनारे एक गाँव था।\nWrite one instruction."


def task(uid, system=True):
    messages = ([{"role": "system", "content": SYSTEM}] if system else []) + [{"role": "user", "content": USER}]
    return GenerationTask(uid=uid, context_id=f"ctx-{uid}", instruction_id="length_constraints:number_words",
                          kwargs={"num_words": 50, "relation": "at least"}, messages=messages, style="direct",
                          response_schema=SCHEMA, params=dict(PARAMS))


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write(path, rows, bom=False):
    text = "\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in rows) + "\n"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


# --- request lines ---------------------------------------------------------------------------

OPENAI_BODY = {"model": "gpt-4.1-mini", "max_tokens": 2048, "temperature": 0.9, "top_p": 0.95,
               "response_format": {"type": "json_schema", "json_schema": {
                   "name": "ground_prompt", "schema": SCHEMA, "strict": True}}}
GEMINI_CONFIG = {"maxOutputTokens": 2048, "temperature": 0.9, "topP": 0.95, "responseMimeType": "application/json",
                 "responseSchema": {"type": "object",
                                    "properties": {"instruction": {"type": "string"},
                                                   "constraint": {"type": "string"},
                                                   "unsafe": {"type": "boolean"}},
                                    "required": ["instruction", "constraint", "unsafe"]}}


def test_openai_request_lines_are_exact(tmp_path):
    path = tmp_path / "in.jsonl"
    assert export_batch("openai-batch", [task("a"), task("b", system=False)], "gpt-4.1-mini", path) == 2
    assert lines(path) == [
        {"custom_id": "a", "method": "POST", "url": "/v1/chat/completions",
         "body": {**OPENAI_BODY, "messages": [{"role": "system", "content": SYSTEM},
                                              {"role": "user", "content": USER}]}},
        {"custom_id": "b", "method": "POST", "url": "/v1/chat/completions",
         "body": {**OPENAI_BODY, "messages": [{"role": "user", "content": USER}]}},
    ]
    assert "नदी" in path.read_text(encoding="utf-8")  # written as UTF-8, not \u escapes


def test_gemini_request_lines_are_exact(tmp_path):
    path = tmp_path / "in.jsonl"
    assert export_batch("gemini-batch", [task("a"), task("b", system=False)], "gemini-2.5-flash", path) == 2
    assert lines(path) == [
        {"key": "a", "request": {"contents": [{"role": "user", "parts": [{"text": USER}]}],
                                 "systemInstruction": {"parts": [{"text": SYSTEM}]},
                                 "generationConfig": GEMINI_CONFIG}},
        {"key": "b", "request": {"contents": [{"role": "user", "parts": [{"text": USER}]}],
                                 "generationConfig": GEMINI_CONFIG}},
    ]
    assert "additionalProperties" not in path.read_text(encoding="utf-8")


def test_gemini_schema_keeps_property_names_and_drops_what_gemini_rejects():
    schema = {"$schema": "x", "type": "object", "additionalProperties": False,
              "properties": {"additionalProperties": {"type": ["string", "null"]},
                             "tags": {"type": "array", "items": {"type": "string", "additionalProperties": False}},
                             "kind": {"const": "a"}}}
    assert gemini_schema(schema) == {"type": "object", "properties": {
        "additionalProperties": {"type": "string", "nullable": True},
        "tags": {"type": "array", "items": {"type": "string"}}, "kind": {"enum": ["a"]}}}


def test_export_refuses_before_writing(tmp_path):
    path = tmp_path / "in.jsonl"
    with pytest.raises(InputError, match="twice"):
        export_batch("openai-batch", [task("a"), task("a")], "m", path)
    odd = task("a")
    odd.params["logit_bias"] = {}
    with pytest.raises(InputError, match="logit_bias"):
        export_batch("gemini-batch", [odd], "m", path)
    with pytest.raises(InputError, match="openai-batch, gemini-batch"):
        export_batch("anthropic", [task("a")], "m", path)
    assert not path.exists()
    assert TRANSPORTS == ("openai-batch", "gemini-batch")


# --- OpenAI / vLLM results -------------------------------------------------------------------

def completion(content, finish="stop", **message):
    return {"id": "chatcmpl-1", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content, **message},
                         "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}


def ok(uid, content, finish="stop", **message):
    return {"id": f"batch_req_{uid}", "custom_id": uid,
            "response": {"status_code": 200, "request_id": "r", "body": completion(content, finish, **message)},
            "error": None}


FENCED = '```json\n{"instruction": "लिखो", "constraint": "", "unsafe": false}\n```'
HASHES = {u: f"h-{u}" for u in ("a", "b", "c", "d", "e", "f", "g", "h")}


def test_openai_import_reconciles_everything_providers_do(tmp_path):
    out = write(tmp_path / "out.jsonl", [
        ok("c", FENCED),
        "",
        ok("a", '{"instruction": "x"', finish="length"),
        "{not json",
        {"id": "batch_req_x", "response": None, "error": None},  # no custom_id
        ok("zzz", "{}"),  # not asked for
        ok("d", "first"),
        ok("d", "second"),  # a duplicate: the first is kept
        {"id": "batch_req_e", "custom_id": "e", "response": None,
         "error": {"code": "batch_expired", "message": "This request could not be executed before the window"}},
        ok("g", "<think>hmm</think>answer"),
        ok("h", "", reasoning_content="only thoughts"),
        "[1, 2]",
    ], bom=True)
    errors = write(tmp_path / "errors.jsonl", [
        {"id": "batch_req_b", "custom_id": "b",
         "response": {"status_code": 400, "request_id": "r",
                      "body": {"error": {"message": "Invalid schema", "type": "invalid_request_error",
                                         "code": None}}}, "error": None},
        {"id": "batch_req_c", "custom_id": "c", "response": {"status_code": 500, "request_id": "r", "body": None},
         "error": None},  # an error line for c, whose good line wins
        {"id": "vllm-1", "custom_id": "f", "response": {"status_code": 400, "request_id": "r"},
         "error": "prompt is longer than the model's context"},  # vLLM run-batch's shape
    ])
    result = import_batch("openai-batch", [out, errors], HASHES)
    by_uid = {g.uid: g for g in result.generations}
    assert [g.uid for g in result.generations] == ["a", "b", "c", "d", "e", "f", "g", "h"]
    assert by_uid["c"].output == FENCED and by_uid["c"].answer == FENCED and by_uid["c"].error is None
    assert by_uid["c"].content_hash == "h-c" and by_uid["c"].usage["completion_tokens"] == 5
    a = by_uid["a"]
    assert (a.truncated, a.finish_reason, a.output, a.error) == (True, "length", '{"instruction": "x"', None)
    assert by_uid["d"].output == "first" and result.duplicates == 1
    assert by_uid["b"].error == "HTTP 400: Invalid schema" and by_uid["b"].output == "" and by_uid["b"].answer is None
    assert by_uid["e"].error.startswith("batch_expired: This request")
    assert by_uid["f"].error == "HTTP 400: prompt is longer than the model's context"
    assert (by_uid["g"].answer, by_uid["g"].reasoning) == ("answer", "hmm")
    assert (by_uid["h"].answer, by_uid["h"].reasoning, by_uid["h"].error) == ("", "only thoughts", None)
    assert result.unknown == ["zzz"]
    assert result.malformed == [
        f"{out}, line 4: malformed JSON (Expecting property name enclosed in double quotes, column 2)",
        f"{out}, line 5: no 'custom_id' naming the request",
        f"{out}, line 12: expected a JSON object, got list"]
    assert result.missing(HASHES) == ["b", "e", "f"]
    assert result.missing({**HASHES, "new": "h"}) == ["b", "e", "f", "new"]
    assert result.missing({**HASHES, "a": "changed"}) == ["a", "b", "e", "f"]


def test_a_good_line_wins_over_an_error_line_in_either_order(tmp_path):
    failed = {"custom_id": "a", "response": None, "error": {"code": "server_error", "message": "boom"}}
    for rows in ([failed, ok("a", "yes")], [ok("a", "yes"), failed]):
        result = import_batch("openai-batch", [write(tmp_path / "o.jsonl", rows)], {"a": "h"})
        assert [(g.output, g.error) for g in result.generations] == [("yes", None)]
        assert result.duplicates == 0 and result.missing({"a": "h"}) == []


def test_missing_and_unreadable_files_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="file not found") as exc:
        import_batch("openai-batch", [tmp_path / "nope.jsonl"], {})
    assert "nope.jsonl" in str(exc.value)
    with pytest.raises(InputError, match="not a file"):
        import_batch("gemini-batch", [tmp_path], {})


def test_bad_utf8_is_a_malformed_line_not_an_exception(tmp_path):
    path = tmp_path / "o.jsonl"
    path.write_bytes(b'{"custom_id": "\xff"}\n' + json.dumps(ok("a", "x")).encode() + b"\n")
    result = import_batch("openai-batch", [path], {"a": "h"})
    assert len(result.malformed) == 1 and "line 1: not valid UTF-8" in result.malformed[0]
    assert [g.output for g in result.generations] == ["x"]


# --- Gemini results --------------------------------------------------------------------------

def gemini_ok(uid, parts, finish="STOP"):
    return {"key": uid, "response": {
        "candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": finish, "index": 0}],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 7, "thoughtsTokenCount": 30,
                          "totalTokenCount": 49}, "modelVersion": "gemini-2.5-flash"}}


def test_gemini_import_reconciles_everything_providers_do(tmp_path):
    out = write(tmp_path / "out.jsonl", [
        gemini_ok("c", [{"text": "I think about it", "thought": True}, {"text": FENCED[:20]}, {"text": FENCED[20:]}]),
        gemini_ok("a", [{"text": '{"instruction": "ab'}], finish="MAX_TOKENS"),
        "   ",
        {"key": "b", "error": {"code": 400, "message": "Request contains an invalid argument.",
                               "status": "INVALID_ARGUMENT"}},
        {"key": "d", "response": {"promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
                                  "usageMetadata": {"promptTokenCount": 12, "totalTokenCount": 12}}},
        {"key": "e", "response": {"candidates": [{"finishReason": "SAFETY", "index": 0}]}},
        {"key": "f", "response": {"candidates": [{"content": {"role": "model"}, "finishReason": "STOP"}]}},
        gemini_ok("g", [{"text": "ok"}]),
        gemini_ok("g", [{"text": "again"}]),
        gemini_ok("other", [{"text": "x"}]),
        {"response": {}},
        'Traceback (most recent call last):',
    ], bom=True)
    result = import_batch("gemini-batch", [out], HASHES)
    by_uid = {g.uid: g for g in result.generations}
    assert [g.uid for g in result.generations] == ["a", "b", "c", "d", "e", "f", "g"]
    c = by_uid["c"]
    assert (c.output, c.answer, c.reasoning, c.finish_reason) == (FENCED, FENCED, "I think about it", "stop")
    assert c.usage == {"prompt_tokens": 12, "completion_tokens": 7, "reasoning_tokens": 30, "total_tokens": 49}
    a = by_uid["a"]
    assert (a.truncated, a.finish_reason, a.output, a.error) == (True, "length", '{"instruction": "ab', None)
    assert by_uid["b"].error == "400: Request contains an invalid argument."
    assert by_uid["d"].error == "blocked (blockReason PROHIBITED_CONTENT)" and by_uid["d"].usage["prompt_tokens"] == 12
    assert by_uid["e"].error == "stopped (finishReason SAFETY)" and by_uid["e"].output == ""
    assert by_uid["f"].error == "the response has no content (finishReason STOP)"
    assert by_uid["g"].output == "ok" and result.duplicates == 1
    assert result.unknown == ["other"]
    assert [m.split(": ", 1)[0] for m in result.malformed] == [f"{out}, line 11", f"{out}, line 12"]
    assert result.missing(HASHES) == ["b", "d", "e", "f", "h"]


# --- round trip ------------------------------------------------------------------------------

def fake_provider(transport, requests, results, fail, seed):
    """Answer a request file as the provider would: shuffled, failing the uids in ``fail``
    (OpenAI: failures go to a separate error file, as the Batch API does)."""
    rows = lines(requests)
    random.Random(seed).shuffle(rows)
    good, bad = [], []
    for row in rows:
        if transport == "openai-batch":
            uid = row["custom_id"]
            assert row["body"]["response_format"]["json_schema"]["strict"] is True
            answer = json.dumps({"instruction": f"write about {uid}", "constraint": "", "unsafe": False})
            (bad if uid in fail else good).append(
                {"custom_id": uid, "response": None, "error": {"code": "server_error", "message": "try again"}}
                if uid in fail else ok(uid, answer))
        else:
            uid = row["key"]
            assert "additionalProperties" not in json.dumps(row["request"]["generationConfig"]["responseSchema"])
            answer = json.dumps({"instruction": f"write about {uid}", "constraint": "", "unsafe": "false"})
            good.append({"key": uid, "error": {"code": 503, "message": "overloaded"}} if uid in fail
                        else gemini_ok(uid, [{"text": answer}]))
    write(results, good)
    if bad:
        write(results.with_name(results.stem + ".errors.jsonl"), bad)
        return [results, results.with_name(results.stem + ".errors.jsonl")]
    return [results]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_round_trip_reexports_only_what_is_missing(tmp_path, transport):
    tasks = [task(f"t{i}", system=i % 2 == 0) for i in range(12)]
    hashes = {t.uid: f"hash-{t.uid}" for t in tasks}
    first = tmp_path / "batch1.jsonl"
    assert export_batch(transport, tasks, "m", first) == 12
    outputs = fake_provider(transport, first, tmp_path / "out1.jsonl", {"t3", "t7", "t8"}, seed=1)
    result = import_batch(transport, outputs, hashes)
    assert result.missing(hashes) == ["t3", "t7", "t8"]

    again = [t for t in tasks if t.uid in set(result.missing(hashes))]
    second = tmp_path / "batch2.jsonl"
    assert export_batch(transport, again, "m", second) == 3
    outputs += fake_provider(transport, second, tmp_path / "out2.jsonl", set(), seed=2)
    final = import_batch(transport, outputs, hashes)
    assert isinstance(final, ImportResult) and final.missing(hashes) == []
    assert [g.uid for g in final.generations] == list(hashes)
    assert all(g.error is None and g.content_hash == hashes[g.uid] for g in final.generations)
    assert (final.duplicates, final.malformed, final.unknown) == (0, [], [])
    for g in final.generations:
        answer, why = parse_json_answer(g.answer)
        assert why is None and answer == {"instruction": f"write about {g.uid}", "constraint": "", "unsafe": False}


# --- the answer parser -----------------------------------------------------------------------

GOOD = {"instruction": "नदी के बारे में लिखो", "constraint": "कम से कम 50 शब्द", "unsafe": False}


@pytest.mark.parametrize("text", [
    json.dumps(GOOD, ensure_ascii=False),
    "```json\n" + json.dumps(GOOD, ensure_ascii=False) + "\n```",
    "```\n" + json.dumps(GOOD, ensure_ascii=False) + "\n```\nHope this helps!",
    "Here is the prompt you asked for {as requested}:\n" + json.dumps(GOOD, ensure_ascii=False) + "\nDone.",
    json.dumps({**GOOD, "unsafe": "false"}),
    json.dumps({**GOOD, "unsafe": " False "}),
], ids=["plain", "fenced", "bare-fence-and-prose", "prose-around", "unsafe-string", "unsafe-string-spaced"])
def test_answers_are_found_in_what_models_wrap_them_in(text):
    assert parse_json_answer(text) == (GOOD, None)


@pytest.mark.parametrize("text, why", [
    ('{"instruction": "write about the ri', "truncated JSON"),
    ('```json\n{"instruction": "x", "constraint": "",', "truncated JSON"),
    ('{"instruction": "x", "constraint": "", "unsafe": false', "truncated JSON"),
    ('{"instruction": "x", "constraint": "", "unsafe": false,}', "malformed JSON (trailing comma, column 56)"),
    ('{"constraint": "", "unsafe": false}', "missing 'instruction'"),
    ('{"instruction": "x", "unsafe": false}', "missing 'constraint'"),
    ('{"instruction": "x", "constraint": ""}', "missing 'unsafe'"),
    ('{"instruction": "  ", "constraint": "", "unsafe": false}', "'instruction' is empty"),
    ('{"instruction": 5, "constraint": "", "unsafe": false}', "'instruction' is not a string"),
    ('{"instruction": "x", "constraint": null, "unsafe": false}', "'constraint' is not a string"),
    ('{"instruction": "x", "constraint": "", "unsafe": "maybe"}', "'unsafe' is not true or false"),
    ('{"instruction": "x", "constraint": "", "unsafe": 1}', "'unsafe' is not true or false"),
    ("I cannot help with that.", "no JSON object in the reply"),
    ("", "empty reply"),
])
def test_bad_answers_say_why(text, why):
    assert parse_json_answer(text) == (None, why)


def test_unsafe_contexts_are_reported_as_unsafe():
    legacy = {"instruction": "", "constraint": "", "unsafe": True}
    assert parse_json_answer("This context contains controversial themes.") == (legacy, None)
    assert parse_json_answer('"This context contains controversial themes"') == (legacy, None)
    flagged = {"instruction": "", "constraint": "", "unsafe": True}
    assert parse_json_answer(json.dumps({**flagged, "unsafe": "true"})) == (flagged, None)
