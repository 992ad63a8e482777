"""The vLLM backend without vLLM: what it passes to the engine, how it reads the outputs, and
(with a fake ``vllm`` module) that all requests go to one ``chat`` call per chat-template
switch, each with its own sampling parameters, data parallelism included. The real engine is
exercised by benchmarks/gpu_smoke_vllm.sh on a GPU machine."""

from __future__ import annotations

import json
import sys
import textwrap
import types
from types import SimpleNamespace as NS

import pytest

from indicifeval.cli import main
from indicifeval.core.errors import InputError
from indicifeval.runs.backends import BackendError, MissingDependency, create_backend
from indicifeval.runs.backends.options import VLLMOptions
from indicifeval.runs.backends.vllm_offline import (
    VLLMBackend,
    chat_call_kwargs,
    device_slices,
    engine_kwargs,
    local_chat_template,
    parse_request_output,
    sampling_kwargs,
    split_for_data_parallel,
)
from indicifeval.runs.requests import GenerationRequest, SamplingSettings, text_hash
from tests.runs.specs import spec

MODEL = "org/model"


def cfg(**kw):
    base = {"model": MODEL, "backend": "vllm", "max_tokens": 64, "seed": 7}
    return spec(**(base | kw))


def vb(model=MODEL, **options):
    return VLLMBackend(model, VLLMOptions(**options))


def requests(n, language="hi", settings=None):
    settings = settings or cfg().settings
    return [GenerationRequest(f"{language}/trans/{i}", [{"role": "user", "content": f"prompt {i}"}], settings)
            for i in range(n)]


def request_output(text, finish="stop", token_ids=(5, 6, 7), prompt_ids=(1, 2), metrics=None):
    completion = NS(index=0, text=text, token_ids=list(token_ids), finish_reason=finish, stop_reason=None)
    return NS(request_id="0", prompt="p", prompt_token_ids=list(prompt_ids), outputs=[completion],
              finished=True, metrics=metrics)


# -- kwargs ---------------------------------------------------------------------------------------
def test_engine_kwargs_defaults_omit_none():
    kw = engine_kwargs(MODEL, VLLMOptions())
    assert kw == {"model": "org/model", "tokenizer": "org/model", "seed": 0, "dtype": "auto",
                  "tensor_parallel_size": 1, "pipeline_parallel_size": 1, "gpu_memory_utilization": 0.9,
                  "trust_remote_code": False}
    assert "max_model_len" not in kw and "distributed_executor_backend" not in kw


def test_engine_kwargs_parallel_and_ray():
    kw = engine_kwargs(MODEL, VLLMOptions(tensor_parallel_size=4, pipeline_parallel_size=2, data_parallel_size=3,
                                          distributed_executor_backend="ray", dtype="bfloat16", max_model_len=4096,
                                          gpu_memory_utilization=0.8, trust_remote_code=True))
    assert kw["tensor_parallel_size"] == 4 and kw["pipeline_parallel_size"] == 2
    assert kw["distributed_executor_backend"] == "ray" and kw["dtype"] == "bfloat16"
    assert kw["max_model_len"] == 4096 and kw["gpu_memory_utilization"] == 0.8 and kw["trust_remote_code"] is True
    assert "data_parallel_size" not in kw  # replicas are our processes, not an engine argument


def test_engine_kwargs_match_the_cli_options():
    import argparse

    from indicifeval.cli.option_flags import model_spec
    from indicifeval.cli.run_cmd import register
    from indicifeval.runs.backends.options import OPTIONS

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["run", "--backend", "vllm", "--model", "m", "--out", "o", "--tensor-parallel", "2",
                              "--pipeline-parallel", "2", "--distributed-backend", "ray", "--max-model-len", "8192"])
    options = model_spec(args, OPTIONS).options
    kw = engine_kwargs(MODEL, options)  # every CLI option is accepted
    assert kw["tensor_parallel_size"] == 2 and kw["pipeline_parallel_size"] == 2
    assert kw["distributed_executor_backend"] == "ray" and kw["max_model_len"] == 8192
    backend = create_backend("vllm", MODEL, options)
    assert backend.describe()["tensor_parallel_size"] == 2


def test_sampling_kwargs():
    assert sampling_kwargs(cfg().settings) == {"temperature": 0.0, "top_p": 1.0, "max_tokens": 64, "seed": 7, "n": 1}
    assert sampling_kwargs(cfg(temperature=0.6, top_p=0.95, max_tokens=1280).settings) == {
        "temperature": 0.6, "top_p": 0.95, "max_tokens": 1280, "seed": 7, "n": 1}
    assert sampling_kwargs(SamplingSettings(gen_kwargs={"top_k": 20}))["top_k"] == 20


@pytest.mark.parametrize("thinking, expected", [
    (None, {}),
    (True, {"chat_template_kwargs": {"enable_thinking": True}}),
    (False, {"chat_template_kwargs": {"enable_thinking": False}}),
])
def test_chat_call_kwargs(thinking, expected):
    assert chat_call_kwargs(cfg(thinking=thinking).settings) == expected


# -- outputs ---------------------------------------------------------------------------------------
def test_parse_request_output():
    result = parse_request_output("hi/trans/1", request_output("<think>x</think>answer"))
    assert result.uid == "hi/trans/1" and result.output == "<think>x</think>answer"
    assert result.finish_reason == "stop" and result.reasoning is None
    assert result.usage == {"prompt_tokens": 2, "completion_tokens": 3}
    assert result.latency_s is None


def test_parse_request_output_length_and_metrics():
    metrics = NS(arrival_time=100.0, last_token_time=102.5, finished_time=None)
    result = parse_request_output("u", request_output("abc", "length", token_ids=range(64), metrics=metrics))
    assert result.finish_reason == "length" and result.usage["completion_tokens"] == 64
    assert result.latency_s == pytest.approx(2.5)


def test_parse_request_output_missing_prompt_ids_and_bad_shape():
    out = request_output("t")
    out.prompt_token_ids = None
    assert parse_request_output("u", out).usage == {"completion_tokens": 3}
    with pytest.raises(BackendError, match="unexpected vLLM output"):
        parse_request_output("u", NS(outputs=[]))


# -- data parallel ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n_items, n, sizes", [
    (10, 3, [4, 3, 3]), (9, 3, [3, 3, 3]), (2, 4, [1, 1, 0, 0]), (0, 2, [0, 0]), (5, 1, [5]),
])
def test_split_for_data_parallel(n_items, n, sizes):
    items = requests(n_items)
    shares = split_for_data_parallel(items, n)
    assert [len(s) for s in shares] == sizes
    assert [r for s in shares for r in s] == items  # contiguous, order kept


def test_split_rejects_zero():
    with pytest.raises(ValueError):
        split_for_data_parallel(requests(3), 0)


def test_device_slices():
    assert device_slices(["0", "1", "2", "3"], 2, 2) == ["0,1", "2,3"]
    assert device_slices(["4", "5", "6"], 3, 1) == ["4", "5", "6"]
    with pytest.raises(BackendError, match="needs 4 GPUs"):
        device_slices(["0", "1", "2"], 2, 2)


def test_bad_settings_are_refused():
    with pytest.raises(InputError, match="tensor parallel"):
        vb(tensor_parallel_size=0)
    with pytest.raises(BackendError, match="ray"):
        vb(data_parallel_size=2, distributed_executor_backend="ray")


# -- describe ----------------------------------------------------------------------------------------
def test_describe_reads_the_local_template(tmp_path):
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({"chat_template": "{{ messages }}"}))
    described = vb(str(tmp_path), tensor_parallel_size=2, data_parallel_size=2).describe()
    assert described == {"name": "vllm", "tensor_parallel_size": 2, "pipeline_parallel_size": 1,
                         "data_parallel_size": 2, "distributed_executor_backend": None, "dtype": "auto",
                         "max_model_len": None, "chat_template_hash": text_hash("{{ messages }}")}
    (tmp_path / "chat_template.jinja").write_text("jinja wins")  # newer transformers save it here
    assert local_chat_template(str(tmp_path)) == "jinja wins"


def test_local_template_variants(tmp_path):
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(
        {"chat_template": [{"name": "tool_use", "template": "T"}, {"name": "default", "template": "D"}]}))
    assert local_chat_template(str(tmp_path)) == "D"
    (tmp_path / "tokenizer_config.json").write_text("{broken")
    assert local_chat_template(str(tmp_path)) is None
    assert local_chat_template(str(tmp_path / "absent")) is None  # not a folder, not in the cache
    assert vb("no-such-org/no-such-model-xyz").describe()["chat_template_hash"] is None


# -- generate ------------------------------------------------------------------------------------------
def test_generate_without_vllm_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "vllm", None)  # import vllm now raises ImportError
    backend = create_backend("vllm", MODEL)
    with pytest.raises(MissingDependency, match=r"vllm backend needs vllm: pip install 'indicifeval\[vllm\]'"):
        backend.generate(requests(2), lambda r: None)
    dp = create_backend("vllm", MODEL, {"data_parallel_size": 2})
    with pytest.raises(MissingDependency):
        dp.generate(requests(2), lambda r: None)


def test_cli_without_vllm_exits_1(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "vllm", None)
    code = main(["run", "--backend", "vllm", "--model", "m", "--data", "sample", "--languages", "hi", "--limit", "1",
                 "--out", str(tmp_path / "o"), "--quiet"])
    assert code == 1
    assert "pip install 'indicifeval[vllm]'" in capsys.readouterr().err


class FakeLLM:
    instances: list = []

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.calls = []
        FakeLLM.instances.append(self)

    def chat(self, messages, sampling_params, use_tqdm=True, **kwargs):
        self.calls.append({"messages": messages, "params": sampling_params, "use_tqdm": use_tqdm, "kwargs": kwargs})
        assert len(sampling_params) == len(messages)  # one per request
        return [request_output(f"answer to {m[-1]['content']}", "length" if p.kwargs["max_tokens"] <= 4 else "stop")
                for m, p in zip(messages, sampling_params)]


class FakeSamplingParams:
    def __init__(self, **kwargs):
        self.kwargs = kwargs


@pytest.fixture
def fake_vllm(monkeypatch):
    FakeLLM.instances = []
    module = types.ModuleType("vllm")
    module.LLM, module.SamplingParams = FakeLLM, FakeSamplingParams
    monkeypatch.setitem(sys.modules, "vllm", module)
    return FakeLLM


def test_generate_makes_one_chat_call_for_everything(fake_vllm):
    config = cfg(thinking=False, max_tokens=4, system_prompt="sys")
    items = [config.request(f"{lang}/{subset}/{i}", f"{lang}-{subset}-{i}")
             for lang in ("hi", "ta", "en") for subset in ("trans", "ground") for i in range(3)]
    got = []
    vb(tensor_parallel_size=2, max_model_len=2048).generate(items, got.append)

    assert len(fake_vllm.instances) == 1
    llm = fake_vllm.instances[0]
    assert llm.kwargs == engine_kwargs(MODEL, VLLMOptions(tensor_parallel_size=2, max_model_len=2048))
    assert len(llm.calls) == 1
    call = llm.calls[0]
    assert call["messages"] == [r.messages for r in items]
    assert call["messages"][0][0] == {"role": "system", "content": "sys"}
    assert call["kwargs"] == {"chat_template_kwargs": {"enable_thinking": False}}
    assert call["use_tqdm"] is True
    assert [p.kwargs for p in call["params"]] == [sampling_kwargs(config.settings)] * len(items)
    assert [r.uid for r in got] == [r.uid for r in items]
    assert got[4].output == f"answer to {items[4].messages[-1]['content']}"
    assert all(r.finish_reason == "length" for r in got)


def test_generate_default_thinking_sends_no_template_kwargs(fake_vllm):
    vb().generate(requests(3), lambda r: None)
    assert fake_vllm.instances[0].calls[0]["kwargs"] == {}


def test_per_request_settings_one_engine(fake_vllm):
    """Translate, then judge, with one loaded model: each request keeps its own settings, and
    requests that switch thinking differently go to separate chat calls of the same engine."""
    short = SamplingSettings(max_tokens=4, seed=1)
    thinking = SamplingSettings(max_tokens=100, temperature=0.7, seed=2, thinking=True)
    items = requests(2, "hi", short) + requests(2, "ta", thinking) + requests(1, "bn", short)
    got = []
    vb().generate(items, got.append)
    assert len(fake_vllm.instances) == 1
    calls = fake_vllm.instances[0].calls
    assert [c["kwargs"] for c in calls] == [{}, {"chat_template_kwargs": {"enable_thinking": True}}]
    assert [p.kwargs["max_tokens"] for p in calls[0]["params"]] == [4, 4, 4]
    assert [p.kwargs["temperature"] for p in calls[1]["params"]] == [0.7, 0.7]
    assert sorted(r.uid for r in got) == sorted(r.uid for r in items)
    assert {r.uid: r.finish_reason for r in got}["ta/trans/0"] == "stop"


def test_generate_nothing_starts_no_engine(fake_vllm):
    vb().generate([], lambda r: None)
    assert fake_vllm.instances == []


def test_engine_failure_is_a_backend_error(monkeypatch, fake_vllm):
    def broken(self, **kwargs):
        raise RuntimeError("CUDA out of memory")

    monkeypatch.setattr(FakeLLM, "__init__", broken)
    with pytest.raises(BackendError, match="vLLM failed: RuntimeError: CUDA out of memory"):
        vb().generate(requests(1), lambda r: None)


def test_cli_run_with_fake_vllm(fake_vllm, tmp_path):
    out = tmp_path / "run"
    args = ["run", "--backend", "vllm", "--model", "org/m", "--data", "sample", "--languages", "hi,ta,en",
            "--limit", "2", "--max-tokens", "4", "--thinking", "off", "--out", str(out), "--quiet"]
    assert main(args) == 0
    assert len(fake_vllm.instances) == 1 and len(fake_vllm.instances[0].calls) == 1
    assert len(fake_vllm.instances[0].calls[0]["messages"]) == 10  # all languages and subsets together
    lines = [json.loads(x) for x in (out / "generations.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 10 and all(g["finish_reason"] == "length" and g["truncated"] for g in lines)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["backend"]["name"] == "vllm" and manifest["model"]["settings"]["thinking"] is False
    assert main(args) == 0 and len(fake_vllm.instances) == 1  # resumed: nothing pending, no engine


# -- data parallel with real processes and a fake vllm package on disk --------------------------------
FAKE_PACKAGE = textwrap.dedent('''
    import os
    from types import SimpleNamespace as NS

    class SamplingParams:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    class LLM:
        def __init__(self, **kwargs):
            self.devices = os.environ.get("CUDA_VISIBLE_DEVICES")
            if self.devices == os.environ.get("FAKE_VLLM_FAIL_ON"):
                raise RuntimeError("engine failed on " + self.devices)
            self.kwargs = kwargs

        def chat(self, messages, sampling_params, use_tqdm=True, **kwargs):
            tag = f"{self.devices}|{os.getpid()}|{sorted(kwargs.get('chat_template_kwargs', {}).items())}"
            return [NS(prompt_token_ids=[1, 2], metrics=None,
                       outputs=[NS(text=tag + "|" + m[-1]["content"], finish_reason="stop", token_ids=[3])])
                    for m in messages]
''')


@pytest.fixture
def fake_vllm_package(tmp_path, monkeypatch):
    pkg = tmp_path / "fakepkgs" / "vllm"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(FAKE_PACKAGE)
    monkeypatch.delitem(sys.modules, "vllm", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path / "fakepkgs"))  # spawned processes get sys.path too
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1,2,3,4")
    monkeypatch.delenv("FAKE_VLLM_FAIL_ON", raising=False)


def test_data_parallel_processes_get_their_gpus_and_share(fake_vllm_package):
    items = requests(7)
    got = []
    items = requests(7, settings=cfg(thinking=True).settings)
    vb(tensor_parallel_size=2, data_parallel_size=2).generate(items, got.append)
    assert sorted(r.uid for r in got) == sorted(r.uid for r in items)
    by_prompt = {r.output.split("|")[-1]: r.output.split("|") for r in got}
    assert {by_prompt[f"prompt {i}"][0] for i in range(4)} == {"0,1"}  # first, larger share
    assert {by_prompt[f"prompt {i}"][0] for i in range(4, 7)} == {"2,3"}
    assert len({parts[1] for parts in by_prompt.values()}) == 2  # two processes
    assert all(parts[2] == "[('enable_thinking', True)]" for parts in by_prompt.values())


def test_data_parallel_failure_keeps_the_other_replicas_results(fake_vllm_package, monkeypatch):
    monkeypatch.setenv("FAKE_VLLM_FAIL_ON", "1")
    got = []
    backend = vb(data_parallel_size=3)
    with pytest.raises(BackendError, match=r"1 of 3 data-parallel engine\(s\) failed.*GPUs 1.*engine failed on 1"):
        backend.generate(requests(6), got.append)
    assert sorted(r.uid for r in got) == ["hi/trans/0", "hi/trans/1", "hi/trans/4", "hi/trans/5"]


def test_data_parallel_needs_enough_gpus(fake_vllm_package):
    with pytest.raises(BackendError, match="needs 6 GPUs; 5 visible"):
        vb(tensor_parallel_size=3, data_parallel_size=2).generate(requests(2), lambda r: None)
