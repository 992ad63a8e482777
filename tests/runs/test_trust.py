"""Run folders that cannot be mixed, lost or silently wrong: the folder lock, item content in
the identity, output-affecting settings, broken server answers, secrets, failed start-ups."""

import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from indicifeval.cli import main
from indicifeval.cli.option_flags import model_spec
from indicifeval.cli.run_cmd import register as register_run
from indicifeval.core.errors import BusyError, InputError, OutputError
from indicifeval.core.lock import FolderLock
from indicifeval.dataset import load_rows
from indicifeval.runs.backends import BackendError
from indicifeval.runs.backends.mock import MockBackend
from indicifeval.runs.backends.options import OPTIONS
from indicifeval.runs.folder_scores import score_folder
from indicifeval.runs.requests import parse_gen_kwargs
from indicifeval.runs.runner import DataOptions, run
from indicifeval.runs.store import RunMismatch, RunStore
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig, sample_answers
from tests.runs.specs import spec

GOOD = {"prompt": "बिना अल्पविराम के लिखिए।", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}],
        "language": "hi"}


def _lines(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _rows(path, prompts):
    path.write_text("".join(json.dumps(GOOD | {"key": i, "prompt": p}, ensure_ascii=False) + "\n"
                            for i, p in enumerate(prompts)), encoding="utf-8")
    return str(path)


class ScriptedBackend(MockBackend):
    """The real mock backend, answering "<answer> <prompt>" and remembering what it was asked."""

    def __init__(self, answer="उत्तर"):
        super().__init__("m", script=lambda request: f"{answer} {request.messages[-1]['content']}")
        self.calls = []

    def generate(self, requests, on_result):
        self.calls += [r.uid for r in requests]
        super().generate(requests, on_result)


def mock_config(**kw):
    return spec("m", "mock", None, **kw)


# -- 7: one process per folder ---------------------------------------------------------------
def test_second_process_is_refused_at_once_and_sigkill_frees_the_folder(tmp_path, capsys):
    out = tmp_path / "run"
    with FakeOpenAIServer(ServerConfig(answers=sample_answers(), latency_s=0.2)) as server:
        cmd = [sys.executable, "-m", "indicifeval", "run", "--backend", "openai", "--base-url", server.url,
               "--model", "M", "--data", "sample", "--concurrency", "2", "--out", str(out), "--quiet"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and not (out / "generations.jsonl").exists():
                time.sleep(0.05)
            assert (out / "generations.jsonl").exists()
            started = time.monotonic()
            assert main(cmd[3:]) == 1
            assert time.monotonic() - started < 5  # refused at once, not after loading or generating
            err = capsys.readouterr().err
            assert "another indicifeval process is using this folder" in err and f"pid {proc.pid}" in err
            with pytest.raises(BusyError):
                FolderLock(out).acquire()
            assert main(["score", "--run", str(out), "--quiet"]) == 1  # re-scoring a live run waits its turn
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        FolderLock(out).acquire().release()  # the kernel dropped the dead holder's lock
        assert main(cmd[3:]) == 0
    uids = [g["uid"] for g in _lines(out / "generations.jsonl")]
    assert len(uids) == len(set(uids)) == 416  # every item exactly once, no item twice
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))


# -- 3: a changed item is generated again, never scored with a stale answer -------------------
def test_edited_prompt_is_regenerated_and_said_so(tmp_path):
    rows = _rows(tmp_path / "rows.jsonl", ["पहला प्रश्न", "दूसरा प्रश्न", "तीसरा प्रश्न"])
    backend = ScriptedBackend()
    first = run(mock_config(), tmp_path / "run", DataOptions(source=rows),
                backend=backend)
    assert first.generated == 3
    _rows(tmp_path / "rows.jsonl", ["पहला प्रश्न", "बदला हुआ प्रश्न", "तीसरा प्रश्न"])
    backend.calls.clear()
    again = run(mock_config(), tmp_path / "run", DataOptions(source=rows),
                backend=backend)
    assert backend.calls == ["hi/trans/1"] and again.generated == 1 and again.resumed == 2
    assert any("1 items changed since they were generated" in n for n in again.notes)
    scored = {s["key"]: s for s in _lines(tmp_path / "run" / "scores.jsonl")}
    assert len(scored) == 3
    latest = {g["uid"]: g for g in _lines(tmp_path / "run" / "generations.jsonl")}
    assert "बदला हुआ प्रश्न" in latest["hi/trans/1"]["answer"]


def test_changed_instructions_alone_make_the_answer_stale(tmp_path):
    rows = _rows(tmp_path / "rows.jsonl", ["एक"])
    backend = ScriptedBackend()
    run(mock_config(), tmp_path / "run", DataOptions(source=rows), backend=backend)
    record = GOOD | {"key": 0, "prompt": "एक", "instruction_id_list": ["length_constraints:number_words"],
                     "kwargs": [{"num_words": 1, "relation": "at least"}]}
    (tmp_path / "rows.jsonl").write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    RunStore(tmp_path / "run").write_rows(load_rows(rows))  # as a killed resume would leave it
    result = score_folder(tmp_path / "run")
    assert result.summary["run"]["stale"] == 1 and result.scores[0].response_missing  # never the old answer
    backend.calls.clear()
    run(mock_config(), tmp_path / "run", DataOptions(source=rows), backend=backend)
    assert backend.calls == ["hi/trans/0"]


# -- 4: every output-affecting setting is part of the identity --------------------------------
def _cli_options(argv):
    parser = argparse.ArgumentParser()
    register_run(parser.add_subparsers())
    return model_spec(parser.parse_args(["run", *argv]), OPTIONS).options


@pytest.mark.parametrize("backend,first,second,field", [
    ("hf", ["--dtype", "float32"], ["--dtype", "bfloat16"], "model.options.dtype"),
    ("hf", ["--batch-size", "8"], ["--batch-size", "1"], "model.options.batch_size"),
    ("vllm", ["--max-model-len", "4096"], ["--max-model-len", "8192"], "model.options.max_model_len"),
    ("vllm", ["--dtype", "auto"], ["--dtype", "float16"], "model.options.dtype"),
    ("vllm", [], ["--tensor-parallel", "2"], "model.options.tensor_parallel_size"),
    ("openai", ["--gen-kwargs", "top_k=20"], ["--gen-kwargs", "top_k=40"], "model.settings.gen_kwargs.top_k"),
    ("openai", [], ["--max-answer-chars", "100"], "max_answer_chars"),
])
def test_output_affecting_settings_are_refused(tmp_path, capsys, backend, first, second, field):
    base = ["--backend", backend, "--model", "m", "--data", "sample", "--languages", "hi", "--limit", "2",
            "--out", str(tmp_path / "run"), "--quiet"]
    if backend == "openai":
        base += ["--base-url", "http://127.0.0.1:9/v1"]
    ns_first = _cli_options(base + first)
    gen_kwargs = parse_gen_kwargs(dict(zip(first[::2], first[1::2])).get("--gen-kwargs"))
    chars = int(dict(zip(first[::2], first[1::2])).get("--max-answer-chars", 1_000_000))
    run(spec("m", backend, ns_first, gen_kwargs=gen_kwargs), tmp_path / "run",
        DataOptions(source="sample", languages="hi", limit=2), backend=ScriptedBackend(),
        max_answer_chars=chars)
    assert main(["run", *base, *second]) == 1  # refused before any backend is started
    err = capsys.readouterr().err
    assert "different settings" in err and field in err
    # concurrency, timeouts and the like change only speed: they resume
    if backend == "openai":
        assert main(["run", *base, *first, "--concurrency", "3", "--timeout", "9"]) == 0


def test_gen_kwargs_are_parsed_recorded_and_sent(tmp_path):
    assert parse_gen_kwargs("top_k=20,presence_penalty=0.5,stop=END,skip=true,x=null") == {
        "top_k": 20, "presence_penalty": 0.5, "stop": "END", "skip": True, "x": None}
    for bad in ("temperature=1", "novalue", "a b=1"):
        with pytest.raises(InputError):
            parse_gen_kwargs(bad)
    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
        assert main(["run", "--backend", "openai", "--base-url", server.url, "--model", "M", "--data", "sample",
                     "--languages", "hi", "--limit", "1", "--gen-kwargs", "top_k=20,repetition_penalty=1.1",
                     "--out", str(tmp_path), "--quiet"]) == 0
        body = server.seen_bodies[0]
    assert body["top_k"] == 20 and body["repetition_penalty"] == 1.1
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["model"]["settings"]["gen_kwargs"] == {"top_k": 20, "repetition_penalty": 1.1}


# -- 5: broken server answers ----------------------------------------------------------------
def _broken(request):
    kind = int(hashlib.md5(request["messages"][-1]["content"].encode()).hexdigest(), 16) % 4
    if kind == 0:
        return 200, b'{"choices": [{}]}'
    if kind == 1:
        return 200, b'{"choices": [{"message": {"role": "assistant", "content": null}, "finish_reason": "stop"}]}'
    if kind == 2:  # JSON's escape for a lone surrogate: legal JSON, not encodable as UTF-8
        return 200, b'{"choices": [{"message": {"content": "lone \\ud800 surrogate"}}]}'
    return None


def test_empty_null_and_surrogate_answers_fail_visibly_and_are_retried(tmp_path, capsys):
    out = tmp_path / "run"
    argv_server = ServerConfig(answers=sample_answers(), raw_fn=_broken)
    with FakeOpenAIServer(argv_server) as server:
        argv = ["run", "--backend", "openai", "--base-url", server.url, "--model", "M", "--data", "sample",
                "--languages", "hi,en", "--out", str(out)]
        assert main(argv) == 0
        err = capsys.readouterr().err
    gens = _lines(out / "generations.jsonl")
    failed = [g for g in gens if g["error"]]
    assert failed and all(g["answer"] is None for g in failed)
    assert {g["error"] for g in failed} <= {"the server's answer has no choices",
                                           "the server's answer has no content (finish_reason stop)",
                                           "the server's answer has no content"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["failed"] == len(failed) and "items failed" in err
    assert json.loads((out / "manifest.json").read_text())["status"] == "incomplete"
    surrogate = [g for g in gens if g["answer"] and "surrogate" in g["answer"]]
    assert surrogate and all("\ufffd" in g["answer"] for g in surrogate)  # stored, readable, never a crash
    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:  # the server is mended
        assert main(argv[:4] + [server.url] + argv[5:] + ["--quiet"]) == 0
        assert server.requests == len(failed)  # only the failed items are asked again
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["failed"] == 0 and json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_a_60_mb_answer_is_capped_and_recorded(tmp_path):
    huge = json.dumps({"choices": [{"message": {"content": "a" * 60_000_000}, "finish_reason": "stop"}]}).encode()
    with FakeOpenAIServer(ServerConfig(raw_fn=lambda r: (200, huge))) as server:
        outcome = run(spec("m", "openai", {"base_url": server.url}), tmp_path, DataOptions(source="sample",
                      languages="hi", limit=1), max_answer_chars=200_000)
    gens = _lines(tmp_path / "generations.jsonl")
    assert len(gens) == 2  # hi trans and ground, one row each
    assert all(len(g["output"]) == 200_000 and g["capped_from_chars"] == 60_000_000 for g in gens)
    assert outcome.result.summary["run"]["capped"] == 2
    assert any("answer-size cap" in n for n in outcome.notes)


# -- 13: secrets -----------------------------------------------------------------------------
def test_credentials_in_urls_and_echoed_errors_never_reach_disk_or_output(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MY_KEY", "sk-echoed-secret-123")

    def echo(request):
        return 401, b'{"error": {"message": "invalid key sk-echoed-secret-123 for user alice:pw-in-url-456"}}'

    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
        url = server.url.replace("http://", "http://alice:pw-in-url-456@") + "?api_key=q-secret-789&x=1"
        assert main(["run", "--backend", "openai", "--base-url", url, "--model", "M", "--data", "sample",
                     "--languages", "hi", "--limit", "2", "--api-key-env", "MY_KEY", "--out", str(tmp_path / "a")]) == 0
    with FakeOpenAIServer(ServerConfig(raw_fn=echo)) as server:
        bad = server.url.replace("http://", "http://alice:pw-in-url-456@")
        assert main(["run", "--backend", "openai", "--base-url", bad, "--model", "M", "--data", "sample",
                     "--languages", "hi", "--limit", "2", "--api-key-env", "MY_KEY", "--out", str(tmp_path / "b")]) == 1
    printed = capsys.readouterr()
    for secret in ("sk-echoed-secret-123", "pw-in-url-456", "q-secret-789"):
        assert secret not in printed.out + printed.err
        for path in tmp_path.rglob("*"):
            if path.is_file():
                assert secret not in path.read_text(encoding="utf-8", errors="replace"), path
    assert "***" in printed.err and "HTTP 401" in printed.err
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["backend_options"]["base_url"].startswith("http://***@") and "api_key=***" in \
        manifest["backend_options"]["base_url"]


def test_a_key_typed_as_the_variable_name_is_refused_and_not_echoed(tmp_path, capsys):
    assert main(["run", "--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "M", "--data",
                 "sample", "--api-key-env", "sk-proj-Abc123def456ghi789", "--out", str(tmp_path / "r")]) == 1
    err = capsys.readouterr().err
    assert "not the key itself" in err and "Abc123def456" not in err
    assert not (tmp_path / "r").exists()


# -- 9: a backend that fails to start leaves nothing that refuses the next run ----------------
def test_failed_start_leaves_no_folder_that_refuses_another_run(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "--backend", "hf", "--model", str(tmp_path / "no-such-model"), "--data", "sample",
                 "--languages", "hi", "--limit", "1", "--out", str(out), "--quiet"]) == 1
    assert "error:" in capsys.readouterr().err
    assert not out.exists() or not any(p for p in out.iterdir() if p.name != ".indicifeval.lock")
    with FakeOpenAIServer(ServerConfig(answers=sample_answers())) as server:
        assert main(["run", "--backend", "openai", "--base-url", server.url, "--model", "other", "--data", "sample",
                     "--languages", "ta", "--limit", "1", "--out", str(out), "--quiet"]) == 0


def test_nothing_generated_yet_is_not_a_mismatch(tmp_path):
    rows = _rows(tmp_path / "rows.jsonl", ["एक"])

    class Broken(MockBackend):
        def generate(self, requests, on_result):
            raise BackendError("no GPU")

    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "note.txt").write_text("mine")
    with pytest.raises(OutputError, match="not made by"):
        run(mock_config(), tmp_path / "run", DataOptions(source=rows), backend=Broken("m"))
    with pytest.raises(BackendError, match="no GPU"):
        run(mock_config(), tmp_path / "run2", DataOptions(source=rows), backend=Broken("m"))
    out = run(spec("b", "mock", None), tmp_path / "run2", DataOptions(source=rows),
              backend=ScriptedBackend())
    assert out.generated == 1
    with pytest.raises(RunMismatch):
        run(spec("c", "mock", None), tmp_path / "run2", DataOptions(source=rows),
            backend=ScriptedBackend())


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX only")
def test_torn_generations_line_with_a_surrogate_escape_resumes(tmp_path):
    rows = _rows(tmp_path / "rows.jsonl", ["एक", "दो"])
    run(mock_config(), tmp_path / "run", DataOptions(source=rows),
        backend=ScriptedBackend("\ud800"))
    text = (tmp_path / "run" / "generations.jsonl").read_text(encoding="utf-8")
    assert "\ufffd" in text
