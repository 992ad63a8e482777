"""The transformers backend end to end on a tiny random model: CLI, run folder, resume,
determinism and the thinking switch reaching the chat template. Offline, on CPU."""

from __future__ import annotations

import json
import sys

import pytest

from indicifeval.cli import main
from indicifeval.runs.backends import MissingDependency, create_backend
from indicifeval.runs.requests import text_hash
from tests.runs.specs import spec

MAX_TOKENS = 8
THINK_OFF = "<|assistant|><think>\n\n</think>\n\n"


def run_cli(model_dir, out, *extra):
    args = ["run", "--backend", "hf", "--model", str(model_dir), "--data", "sample", "--languages", "hi,ta,en",
            "--limit", "2", "--max-tokens", str(MAX_TOKENS), "--out", str(out), "--quiet", *extra]
    return main(args)


def generations(out):
    return [json.loads(line) for line in (out / "generations.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def first_run(tiny_model_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("hf-run") / "run"
    assert run_cli(tiny_model_dir, out) == 0
    return out


@pytest.fixture
def prompt_spy(monkeypatch):
    from indicifeval.runs.backends.hf import HFBackend

    seen: list[str] = []
    original = HFBackend.render_prompt

    def spy(self, messages, settings=None):
        text = original(self, messages, settings)
        seen.append(text)
        return text

    monkeypatch.setattr(HFBackend, "render_prompt", spy)
    return seen


def test_run_writes_a_complete_folder(first_run, tiny_model_dir):
    manifest = json.loads((first_run / "manifest.json").read_text(encoding="utf-8"))
    model = manifest["model"]
    assert model["backend"] == "hf" and model["model"] == str(tiny_model_dir.resolve())
    gen = model["settings"]
    assert gen["max_tokens"] == MAX_TOKENS and gen["temperature"] == 0.0 and gen["thinking"] is None
    template = (tiny_model_dir / "chat_template.jinja").read_text(encoding="utf-8")
    assert model["chat_template_hash"] == text_hash(template)  # part of the run's identity
    assert manifest["status"] == "complete"
    backend = manifest["backend"]
    assert backend["name"] == "hf" and backend["device"] == "cpu" and backend["dtype"] == "float32"
    assert backend["chat_template_hash"] == text_hash(template)
    assert manifest["backend_options"] == {"device": "auto", "dtype": "auto", "batch_size": 8,
                                           "trust_remote_code": False}

    rows = (first_run / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    lines = generations(first_run)
    assert len(lines) == len(rows) == manifest["items"] == 10  # en has no ground subset in the sample
    assert len({g["uid"] for g in lines}) == len(lines)
    assert {g["language"] for g in lines} == {"hi", "ta", "en"}
    required = {"uid", "key", "language", "subset", "output", "answer", "reasoning", "finish_reason", "usage"}
    for g in lines:
        assert required <= set(g)
        assert g["uid"] == f"{g['language']}/{g['subset']}/{g['key']}"
        assert g["usage"]["prompt_tokens"] > 0 and 0 < g["usage"]["completion_tokens"] <= MAX_TOKENS
        assert g["finish_reason"] in ("length", "stop")
        if g["finish_reason"] == "length":
            assert g["usage"]["completion_tokens"] == MAX_TOKENS and g["truncated"] is True
        else:
            assert g["truncated"] is False
        assert g["latency_s"] is not None and g["latency_s"] >= 0
    assert any(g["finish_reason"] == "length" for g in lines)  # a random model rarely says EOS

    assert (first_run / "scores.jsonl").exists()
    summary = json.loads((first_run / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["backend"] == "hf" and summary["run"]["items"] == 10
    assert sum(summary["run"]["generated"].values()) == 10


def test_running_again_generates_nothing(first_run, tiny_model_dir, monkeypatch):
    from indicifeval.runs.backends import hf

    before = (first_run / "generations.jsonl").read_text(encoding="utf-8")

    def no_model(*args, **kwargs):
        raise AssertionError("nothing is pending: the model must not be loaded")

    monkeypatch.setattr(hf.HFBackend, "__init__", no_model)
    assert run_cli(tiny_model_dir, first_run) == 0
    assert (first_run / "generations.jsonl").read_text(encoding="utf-8") == before


def test_two_runs_are_identical(first_run, tiny_model_dir, tmp_path):
    assert run_cli(tiny_model_dir, tmp_path / "again") == 0
    fields = ("output", "answer", "finish_reason", "usage")
    first = {g["uid"]: [g[f] for f in fields] for g in generations(first_run)}
    second = {g["uid"]: [g[f] for f in fields] for g in generations(tmp_path / "again")}
    assert first == second


def test_resume_finishes_a_partial_folder(first_run, tiny_model_dir, tmp_path):
    out = tmp_path / "partial"
    assert run_cli(tiny_model_dir, out) == 0
    lines = (out / "generations.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    # as if killed: four lines written and a torn fifth
    (out / "generations.jsonl").write_text("".join(lines[:4]) + lines[4][:20], encoding="utf-8")
    assert run_cli(tiny_model_dir, out) == 0
    resumed = generations(out)
    assert len(resumed) == 10 and len({g["uid"] for g in resumed}) == 10
    assert {g["uid"]: g["output"] for g in resumed} == {g["uid"]: g["output"] for g in generations(first_run)}


def test_thinking_off_reaches_the_chat_template(tiny_model_dir, tmp_path, prompt_spy):
    assert run_cli(tiny_model_dir, tmp_path / "off", "--thinking", "off") == 0
    assert len(prompt_spy) == 10
    assert all(p.endswith(THINK_OFF) for p in prompt_spy)
    manifest = json.loads((tmp_path / "off" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["model"]["settings"]["thinking"] is False


def test_thinking_on_and_default_leave_the_template_alone(tiny_model_dir, tmp_path, prompt_spy):
    assert run_cli(tiny_model_dir, tmp_path / "on", "--thinking", "on", "--languages", "hi", "--subsets", "trans") == 0
    assert run_cli(tiny_model_dir, tmp_path / "default", "--languages", "hi", "--subsets", "trans") == 0
    assert len(prompt_spy) == 4
    assert all(p.endswith("<|assistant|>") and "<think>" not in p for p in prompt_spy)


def test_system_prompt_is_rendered(tiny_model_dir):
    config = spec(str(tiny_model_dir), "hf", None, max_tokens=4, system_prompt="Be brief.")
    backend = create_backend("hf", config.model)
    prompt = backend.render_prompt(config.request("u", "नमस्ते").messages)
    assert prompt == "<|bos|><|system|>Be brief.<|eos|><|user|>नमस्ते<|eos|><|assistant|>"


def test_sampling_is_seeded_and_batching_keeps_order(tiny_model_dir):
    config = spec(str(tiny_model_dir), "hf", None, max_tokens=6, temperature=1.0, top_p=0.9, seed=3)
    requests = [config.request(f"x/trans/{i}", p) for i, p in enumerate(["नमस्ते", "hello there", "வணக்கம்"])]

    def collect(backend):
        got = []
        backend.generate(requests, got.append)
        return got

    backend = create_backend("hf", config.model, {"batch_size": 2})
    first, second = collect(backend), collect(backend)
    assert [r.uid for r in first] == [r.uid for r in requests]
    assert [r.output for r in first] == [r.output for r in second]
    assert all(r.usage["completion_tokens"] <= 6 for r in first)


def test_finish_reason_stop_counts_the_eos(tiny_model_dir):
    backend = create_backend("hf", str(tiny_model_dir))
    tok = backend.tokenizer
    ids = tok("नमस्ते", add_special_tokens=False).input_ids
    eos, pad = tok.eos_token_id, tok.pad_token_id
    stopped = backend._result("u", ids + [eos] + [pad] * (8 - len(ids) - 1), 5, 0.1, 8)
    assert stopped.finish_reason == "stop" and stopped.output == "नमस्ते"
    assert stopped.usage == {"prompt_tokens": 5, "completion_tokens": len(ids) + 1}
    full = backend._result("u", (ids * 8)[:8], 5, 0.1, 8)
    assert full.finish_reason == "length" and full.usage["completion_tokens"] == 8


def test_describe_and_vllm_agree_on_the_template_hash(tiny_model_dir):
    from indicifeval.runs.backends.options import VLLMOptions
    from indicifeval.runs.backends.vllm_offline import VLLMBackend

    described = create_backend("hf", str(tiny_model_dir), {"dtype": "float32", "batch_size": 3}).describe()
    assert described == {"name": "hf", "device": "cpu", "dtype": "float32", "batch_size": 3,
                         "chat_template_hash": described["chat_template_hash"]}
    assert described["chat_template_hash"]
    assert VLLMBackend(str(tiny_model_dir), VLLMOptions()).describe()["chat_template_hash"] == \
        described["chat_template_hash"]


def test_bad_dtype_and_missing_model_are_backend_errors(tiny_model_dir, tmp_path):
    from indicifeval.runs.backends import BackendError

    with pytest.raises(BackendError, match="dtype"):
        create_backend("hf", str(tiny_model_dir), {"dtype": "float8"})
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(BackendError, match="tokenizer"):
        create_backend("hf", str(empty))


def test_missing_torch_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(MissingDependency, match=r"hf backend needs torch and transformers.*indicifeval\[hf\]"):
        create_backend("hf", "m")
