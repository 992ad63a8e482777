"""Folders made by 0.1.0 (tests/fixtures/legacy, as that version wrote them) resume with today's
version: the same command, and the same command forcing the stages that read paid-for answers,
ask the model nothing and change no row; the upgrade is written once and recorded."""

import json
import shutil
from pathlib import Path

import pytest

from indicifeval.cli import main

LEGACY = Path(__file__).parent.parent / "fixtures" / "legacy"
DEAD = "http://127.0.0.1:9/v1"  # the discard port: if anything were asked, the build would fail

TRANS = {
    "trans-hi-mock": ["--lang", "hi", "--source", "sample", "--backend", "mock", "--model", "fake",
                      "--mock-answers", "fake:0.1"],
    "trans-ta-lines": ["--lang", "ta", "--source", "sample", "--backend", "mock", "--model", "fake",
                       "--mock-answers", "fake:0.1", "--units", "lines", "--protect", "placeholder",
                       "--instructions", "source"],
    "trans-bn-openai": ["--lang", "bn", "--source", "sample", "--backend", "openai", "--base-url", DEAD,
                        "--model", "fake-mt"],
}
GROUND = {
    "ground-hi-mock": ["--lang", "hi", "--corpus", "sample", "--backend", "mock", "--mock-answers", "fake:0.2",
                       "--corpus-license", "Apache-2.0"],
    "ground-hi-beyond": ["--lang", "hi", "--corpus", "sample", "--plan", "beyond", "--backend", "mock",
                         "--mock-answers", "fake:0.1"],
    "ground-mr-openai": ["--lang", "mr", "--corpus", "sample", "--backend", "openai", "--base-url", DEAD,
                         "--model", "writer"],
}


def _copy(name: str, tmp_path: Path) -> Path:
    folder = tmp_path / name
    shutil.copytree(LEGACY / name, folder)
    return folder


def _manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def _rerun_as_made(name: str, pipeline: str, flags: list[str], tmp_path: Path):
    """The fixture copied and its command run again: it is upgraded once and runs no stage."""
    folder = _copy(name, tmp_path)
    rows = (folder / pipeline / "rows.jsonl").read_bytes()
    before = _manifest(folder)["stages"]
    command = ["build", pipeline, str(folder), *flags, "--quiet"]
    assert main(command) == 0
    manifest = _manifest(folder)
    assert manifest["format_version"] == 2 and len(manifest["migrations"]) == 1
    assert all(stage["finished_at"] == before[n]["finished_at"] for n, stage in manifest["stages"].items())
    return folder, rows, before, command


@pytest.mark.parametrize("name", sorted(TRANS))
def test_a_trans_folder_made_by_0_1_resumes_asking_nothing(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder, rows, before, command = _rerun_as_made(name, "trans", TRANS[name], tmp_path)
    for forced in ("translate", "assemble", "pretranslate"):
        assert main([*command, "--force", forced]) == 0
        stages = _manifest(folder)["stages"]
        for stage in ("pretranslate", "translate"):  # each one that ran again asked nothing
            if stages[stage]["finished_at"] != before[stage]["finished_at"]:
                assert stages[stage]["counts"]["asked"] == 0 and stages[stage]["counts"]["failed"] == 0, stage
        assert (folder / "trans" / "rows.jsonl").read_bytes() == rows, forced
    assert len(_manifest(folder)["migrations"]) == 1  # written once


@pytest.mark.parametrize("name", sorted(GROUND))
def test_a_ground_folder_made_by_0_1_resumes_asking_nothing(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder, rows, _, command = _rerun_as_made(name, "ground", GROUND[name], tmp_path)
    for forced in ("generate", "rows"):
        assert main([*command, "--force", forced]) == 0
        counts = _manifest(folder)["stages"]["generate"]["counts"]
        if forced == "generate":
            assert counts["asked"] == 0 and counts["failed"] == 0, counts
        assert (folder / "ground" / "rows.jsonl").read_bytes() == rows, forced


def test_a_waiting_batch_folder_made_by_0_1_goes_on_with_its_results(tmp_path, monkeypatch):
    """0.1.0 left generate pending with 30 of 41 replies imported: today's version shows it
    pending, keeps the 30, and with the rest imported makes the rows."""
    monkeypatch.chdir(tmp_path)
    folder = _copy("ground-hi-batch", tmp_path)
    command = ["build", "ground", str(folder), "--lang", "hi", "--corpus", "sample", "--model", "gpt-x",
               "--transport", "openai-batch", "--quiet"]
    assert main(["build", "status", str(folder), "--json"]) == 0
    assert main(command) == 3  # still waiting: 11 missing
    generate = _manifest(folder)["stages"]["generate"]
    assert generate["status"] == "pending" and generate["counts"]["missing"] == 11
    exported = sorted((folder / "ground" / "batch").glob("openai-batch-requests-*.jsonl"))[-1]
    from indicifeval.runs.backends.mock_scripts import resolve_script
    from indicifeval.runs.requests import GenerationRequest, SamplingSettings

    writer = resolve_script("fake-prompt-writer")
    lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 11
    results = tmp_path / "results-002.jsonl"
    results.write_text("".join(json.dumps({
        "id": f"r{i}", "custom_id": line["custom_id"], "error": None,
        "response": {"status_code": 200, "request_id": "r", "body": {"choices": [{
            "index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": writer(
                GenerationRequest(line["custom_id"], line["body"]["messages"], SamplingSettings()))}}]}}},
        ensure_ascii=False) + "\n" for i, line in enumerate(lines)), encoding="utf-8")
    assert main([*command, "--import", str(results)]) == 0
    assert (folder / "ground" / "rows.jsonl").is_file()
    assert _manifest(folder)["stages"]["generate"]["counts"]["missing"] == 0


@pytest.mark.parametrize("name, extra", [
    ("run-mock", ["--backend", "mock", "--mock-answers", "sample", "--model", "demo", "--languages", "hi,en"]),
    ("run-openai", ["--backend", "openai", "--base-url", DEAD, "--model", "fake", "--languages", "hi,ne",
                    "--system-prompt", "Answer well.", "--temperature", "0.7", "--seed", "3",
                    "--gen-kwargs", "top_k=20"]),
])
def test_a_run_folder_made_by_0_1_resumes_generating_nothing(name, extra, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    folder = _copy(name, tmp_path)
    generations = (folder / "generations.jsonl").read_bytes()
    scores = (folder / "scores.jsonl").read_text(encoding="utf-8")
    assert main(["run", "--data", "sample", *extra, "--out", str(folder), "--quiet"]) == 0
    assert (folder / "generations.jsonl").read_bytes() == generations
    manifest = _manifest(folder)
    assert manifest["format_version"] == 3 and manifest["migrations"][0]["from_format"] == 2
    assert "generation" not in manifest and manifest["model"]["backend"] == extra[1]
    strip = [{k: v for k, v in json.loads(line).items() if k != "version"} for line in scores.splitlines()]
    again = [{k: v for k, v in json.loads(line).items() if k != "version"}
             for line in (folder / "scores.jsonl").read_text(encoding="utf-8").splitlines()]
    assert again == strip
    # another setting is still another run
    assert main(["run", "--data", "sample", *extra, "--max-tokens", "7", "--out", str(folder), "--quiet"]) == 1
