"""``build multiturn``: conversations from every language's Trans rows of the bundled sample with
the fake translator (turn lists cumulative, conflicts dropped by the checkers' table, follow-ups
translated and validated as Trans rows), read back as Multi-IF's format; a rerun asks the engine
nothing; a kill in the middle of translating the follow-ups, then a rerun, asks each text once."""

import json
import signal
import subprocess
import sys
import time

import pytest

from indicifeval.builder.multiturn.draft import LANGUAGE_CHANGERS, draw, pool
from indicifeval.builder.multiturn.pipeline import build_multiturn
from indicifeval.builder.multiturn.stages import read_conversations
from indicifeval.builder.trans.pipeline import build_trans
from indicifeval.checkers import compatible, conflicts, lexical_kwargs
from indicifeval.cli import main
from indicifeval.dataset import load_dataset
from indicifeval.dataset.multiturn import load_conversations, write_multi_if
from indicifeval.languages import get_profile, list_languages
from indicifeval.records import Row
from indicifeval.runs.backends.fake_translator import FakeTranslator
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig

FAKE = ModelSpec.of("mock", "fake", {"answers": "fake"})


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _check_conversation(record, profile):
    turns = record["turns"]
    assert len(turns) == 3
    for before, after, follow in zip(turns, turns[1:], record["provenance"]["follow_ups"]):
        new = follow["instruction_id"]
        kept = [i for i in before["instruction_id_list"] if i not in follow["dropped"]]
        assert after["instruction_id_list"] == [*kept, new]  # the previous turn's, less the dropped, plus the new
        assert all(i in conflicts(new) for i in follow["dropped"])
        assert not any(i in conflicts(new) for i in kept)
        assert new in pool(profile) and new not in LANGUAGE_CHANGERS
        kwargs = after["kwargs"][-1]
        for name in lexical_kwargs(new):  # the follow-up's keyword, translated, stands in its prompt
            values = kwargs.get(name)
            for value in values if isinstance(values, list) else [values] if values else []:
                assert value in after["prompt"], (new, name, value)


def test_fifteen_languages_from_the_sample_with_the_fake_translator(tmp_path):
    languages = list_languages()
    assert len(languages) == 15
    dropped = 0
    for language in languages:
        trans = tmp_path / language
        build_trans(trans, language, "sample", FAKE)
        records = build_multiturn(tmp_path / f"{language}-mt", language, trans, FAKE)
        assert records["conversations"].status == "complete"
        made = _lines(tmp_path / f"{language}-mt" / "multiturn" / "conversations.jsonl")
        turn1 = {str(r["key"]): r for r in _lines(trans / "trans" / "rows.jsonl")}
        assert len(made) == len(turn1) > 0
        profile = get_profile(language)
        for record in made:
            assert record["language"] == language and record["subset"] == "multiturn"
            assert record["turns"][0]["prompt"] == turn1[str(record["key"])]["prompt"]  # turn 1: the Trans prompt
            _check_conversation(record, profile)
            dropped += sum(len(f["dropped"]) for f in record["provenance"]["follow_ups"])
        # the follow-ups are Trans rows: validated against their English (kwargs kept), with a status
        follow_ups = _lines(tmp_path / f"{language}-mt" / "trans" / "rows.jsonl")
        assert len(follow_ups) == 2 * len(made) and all(r["status"] in ("auto-ok", "needs-review") for r in follow_ups)
        # read back by the one reader, and written in Multi-IF's format
        conversations = load_conversations(tmp_path / f"{language}-mt" / "multiturn" / "conversations.jsonl")
        out = write_multi_if(conversations, tmp_path / f"{language}.multi-if.jsonl")
        assert [(c.key, c.language, c.turns) for c in load_conversations(out)] == \
            [(c.key, c.language, c.turns) for c in conversations]
    assert dropped > 0  # some follow-up contradicts an instruction an earlier turn gave


def test_a_rerun_asks_nothing_and_the_same_seed_draws_the_same(tmp_path):
    trans = tmp_path / "hi"
    build_trans(trans, "hi", "sample", FAKE)
    first = build_multiturn(tmp_path / "mt", "hi", trans, FAKE, seed=7)
    assert first["translate"].counts["asked"] > 0
    log = (tmp_path / "mt" / "trans" / "mt.jsonl").read_bytes()
    # every stage forced: the follow-ups are translated again from the engine log, nothing asked
    again = build_multiturn(tmp_path / "mt", "hi", trans, FAKE, seed=7, force=["draft", "pretranslate", "translate"])
    assert again["translate"].counts["asked"] == again["pretranslate"].counts["asked"] == 0
    assert (tmp_path / "mt" / "trans" / "mt.jsonl").read_bytes() == log
    other = build_multiturn(tmp_path / "mt2", "hi", trans, FAKE, seed=7)
    assert other["conversations"].counts == first["conversations"].counts
    assert [c.turns for _, c in read_conversations(tmp_path / "mt" / "multiturn" / "conversations.jsonl")] == \
        [c.turns for _, c in read_conversations(tmp_path / "mt2" / "multiturn" / "conversations.jsonl")]
    seeded = build_multiturn(tmp_path / "mt3", "hi", trans, FAKE, seed=8, until="draft")
    assert seeded["draft"].status == "complete"
    drafts = [_lines(tmp_path / f / "multiturn" / "drafts.jsonl") for f in ("mt", "mt3")]
    assert drafts[0] != drafts[1]


def test_a_conflicting_follow_up_drops_the_earlier_instruction():
    row = Row("k", "Write a poem. Wrap your entire response with double quotation marks.",
              ("startend:quotation",), ({},), "hi", "trans")
    profile = get_profile("hi")
    found = [f for seed in range(200) for f in draw(row, profile, seed)]
    dropping = [f for f in found if "startend:quotation" in f.dropped]
    assert dropping and all("startend:quotation" in conflicts(f.instruction_id) for f in dropping)
    for seed in range(50):
        follow_ups = draw(row, profile, seed)
        ids = list(row.instruction_id_list)
        for f in follow_ups:
            ids = [i for i in ids if i not in f.dropped] + [f.instruction_id]
            assert compatible(ids)
            assert f.row.language == "en" and f.row.prompt.startswith("Now rewrite your answer")
    assert draw(row, profile, 3) == draw(row, profile, 3)


def test_turn_one_from_the_sample_rows_directly(tmp_path):
    records = build_multiturn(tmp_path / "mt", "bn", "sample", FAKE)
    rows = load_dataset("trans", "bn", "sample").rows
    assert records["conversations"].counts["rows"] == records["draft"].counts["conversations"] == len(rows)


def test_the_translator_is_needed_past_planning(tmp_path):
    from indicifeval.core.errors import InputError

    with pytest.raises(InputError, match="translator"):
        build_multiturn(tmp_path / "mt", "hi", "sample", None)
    assert build_multiturn(tmp_path / "mt", "hi", "sample", None, until="plan")["plan"].status == "complete"


def _translating(language, **kw):
    translator = FakeTranslator(get_profile(language).default_letters)
    return ServerConfig(answer_fn=lambda body: translator(body["messages"][-1]["content"]), **kw)


def test_sigkill_while_translating_follow_ups_then_rerun_asks_each_text_once(tmp_path):
    out = tmp_path / "mt"
    with FakeOpenAIServer(_translating("ta", latency_s=0.05)) as server:
        argv = ["build", "multiturn", str(out), "--lang", "ta", "--trans", "sample", "--engine", "openai",
                "--model", "m", "--base-url", server.url, "--concurrency", "2", "--quiet"]
        proc = subprocess.Popen([sys.executable, "-m", "indicifeval", *argv], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        log = out / "trans" / "mt.jsonl"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (log.exists() and log.read_bytes().count(b"\n") >= 5):
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        before = log.read_bytes().count(b"\n")
        assert main(argv) == 0  # resumes where it was killed
        asked = len(server.seen_bodies)
        assert main(argv) == 0  # and again: complete, nothing asked
        assert len(server.seen_bodies) == asked
    units = _lines(log)
    assert len({u["uid"] for u in units}) == len(units) == len({u["content_hash"] for u in units}) > before >= 5
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["stages"]["conversations"]["status"] == "complete"
    assert manifest["stages"]["translate"]["counts"]["failed"] == 0
