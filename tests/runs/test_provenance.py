"""Every run records what made its answers (manifest.json ``provenance``), with no secret and
no local path anywhere in the run folder."""

import json

from indicifeval.cli import main
from indicifeval.runs.provenance import public, public_command, weights_hash
from indicifeval.testing.fake_server import FakeOpenAIServer, ServerConfig, sample_answers

KEY = "sk-test-provenance-0123456789abcdef"
FIELDS = {"model", "chat_template_hash", "precision", "backend", "sampling", "thinking", "answers", "dataset",
          "scorer", "command", "machine"}


def _everything(folder) -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*")) if p.is_file())


def _check_clean(folder, tmp_path):
    text = _everything(folder)
    assert KEY not in text
    assert str(tmp_path) not in text and str(folder) not in text
    manifest = json.loads((folder / "manifest.json").read_text())
    assert "/tmp" not in json.dumps(manifest["provenance"])
    return manifest["provenance"]


def test_a_mock_run_records_its_provenance(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    out = tmp_path / "run"
    assert main(["run", "--backend", "mock", "--model", "m", "--mock-answers", "noisy-sample:0.3", "--data", "sample",
                 "--languages", "hi", "--limit", "3", "--samples", "2", "--temperature", "0.6", "--seed", "5",
                 "--max-tokens", "12", "--out", str(out), "--quiet"]) == 0
    prov = _check_clean(out, tmp_path)
    assert FIELDS <= set(prov)
    assert prov["model"]["id"] == "m"
    assert prov["backend"]["name"] == "mock" and prov["backend"]["versions"]["indicifeval"]
    assert prov["sampling"]["temperature"] == 0.6 and prov["sampling"]["seeds"] == [5, 6]
    assert prov["sampling"]["top_p"] == 1.0 and "gen_kwargs" in prov["sampling"]
    assert set(prov["thinking"]) == {"mode", "reasoning"}
    answers = prov["answers"]
    assert answers["max_tokens"] == 12 and answers["answered"] == 12
    assert answers["truncated"] > 0 and "empty" in answers  # 12 words do not hold the sample's answers
    assert prov["dataset"]["source"] == "sample" and len(prov["dataset"]["content_hash"]) == 16
    assert prov["scorer"]["mode"] == "fixed" and prov["scorer"]["version"]
    assert prov["command"][:2] == ["indicifeval", "run"] and "<local>/run" in prov["command"]
    assert {"cpu", "gpus", "python", "os"} <= set(prov["machine"])
    assert set(prov["precision"]) == {"dtype", "quantization"}


def test_an_openai_run_keeps_its_key_out_of_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MY_SERVER_KEY", KEY)
    out = tmp_path / "run"
    with FakeOpenAIServer(ServerConfig(answers=sample_answers(), api_key=KEY)) as server:
        assert main(["run", "--backend", "openai", "--base-url", server.url, "--api-key-env", "MY_SERVER_KEY",
                     "--model", "M", "--data", "sample", "--languages", "hi", "--limit", "2", "--out", str(out),
                     "--quiet"]) == 0
    prov = _check_clean(out, tmp_path)
    assert prov["backend"]["name"] == "openai"
    assert "MY_SERVER_KEY" in prov["command"]  # the variable's name, never its value


def test_secrets_and_paths_are_taken_out_of_the_command():
    argv = ["indicifeval", "run", "--api-key", KEY, "--token=abc123456", "--max-tokens", "64",
            "--header", f"Authorization: Bearer {KEY}", "--out", "/home/someone/runs/r1", "--data", "~/data/x.jsonl",
            "--base-url", "http://user:pass1234@127.0.0.1:8000/v1"]
    out = public_command(argv)
    text = " ".join(out)
    assert KEY not in text and "abc123456" not in text and "pass1234" not in text
    assert "/home/someone" not in text and "~/data" not in text
    assert "64" in out and "<local>/r1" in out and "<local>/x.jsonl" in out
    assert public("hi/trans/7 and a / b") == "hi/trans/7 and a / b"


def test_a_local_model_is_hashed_by_its_config_and_index(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text('{"a": 1}')
    (folder / "model.safetensors.index.json").write_text('{"weight_map": {}}')
    (folder / "model-00001.safetensors").write_bytes(b"x" * 10)
    first = weights_hash(str(folder))
    assert first is not None and len(first) == 16
    (folder / "config.json").write_text('{"a": 2}')
    assert weights_hash(str(folder)) != first
    assert weights_hash("Qwen/Qwen3-8B") is None
