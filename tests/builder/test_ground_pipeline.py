"""The Ground pipeline end to end: the same bytes from every executor, kills during features
and generate lose nothing and do nothing twice, batch files exported and imported (out of
order, with errors and junk), the online route through a faulty loopback server, and a hub
corpus read through huggingface_hub's file system."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.builder.ground.pipeline import MiningOptions, build_ground
from indicifeval.cli import main
from indicifeval.dataset.validation import validate
from indicifeval.runs.backends.fake_prompt_writer import FakePromptWriter
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.testing.fake_server import FakeOpenAIServer, FaultPlan, ServerConfig
from tests.builder.corpus_fixture import corpus_path

SMALL = MiningOptions(top_k=300, shard_bytes=100_000)
COMPARED = ("shards.json", "keywords.jsonl", "vocab.json", "contexts.jsonl", "select-rejected.jsonl",
            "requests.jsonl", "rows.jsonl", "rejected.jsonl", "validation.jsonl")


_SYNTHETIC = Path(tempfile.mkdtemp(prefix="indicifeval-corpus-"))


def corpus(language="hi") -> str:
    """../shared's real corpus, or one written from the bundled sample's words without it."""
    return corpus_path(language, _SYNTHETIC)


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _outputs(folder: Path) -> dict[str, bytes]:
    ground = folder / "ground"
    files = {name: (ground / name).read_bytes() for name in COMPARED}
    for part in sorted((ground / "vocab").glob("*")) + sorted((ground / "features").glob("*")):
        files[str(part.relative_to(ground))] = part.read_bytes()
    return files


def _fake(rate=0.2) -> ModelSpec:
    return ModelSpec.of("mock", "fake", {"answers": f"fake:{rate}"})


@pytest.mark.parametrize("executor", ["processes", "ray"])
def test_every_executor_gives_the_same_bytes(tmp_path, executor):
    if executor == "ray":
        pytest.importorskip("ray", reason="needs Ray: pip install 'indicifeval[ray]', as .ci/run does")
    serial = build_ground(tmp_path / "serial", "hi", corpus(), None, _fake(), executor="serial", mining=SMALL)
    other = build_ground(tmp_path / executor, "hi", corpus(), None, _fake(), executor=executor, workers=2,
                         mining=SMALL)
    assert serial["shards"].counts["shards"] >= 5 and serial["rows"].counts["rows"] > 50
    assert other["rows"].counts == serial["rows"].counts
    assert _outputs(tmp_path / executor) == _outputs(tmp_path / "serial")


def _cli(folder: Path, *extra: str, language="hi", source: str | None = None) -> list[str]:
    return ["build", "ground", str(folder), "--lang", language, "--corpus", source or corpus(language), "--quiet",
            *extra]


def _kill_when(proc: subprocess.Popen, ready, timeout=120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None and not ready():
        time.sleep(0.01)
    assert proc.poll() is None, "the run ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)


def test_sigkill_during_features_then_rerun(tmp_path):
    """A corpus large enough to kill the features stage half-way (the real documents, many
    times over under new ids), in shards of 0.2 MB."""
    big = tmp_path / "big.jsonl"
    docs = _lines(Path(corpus()))
    with big.open("w", encoding="utf-8") as fh:
        for copy in range(12):
            for d in docs:
                fh.write(json.dumps({"doc_id": f"{d['doc_id']}-{copy}", "text": d["text"]}, ensure_ascii=False) + "\n")
    options = MiningOptions(shard_bytes=int(0.2 * 2**20))
    clean = tmp_path / "clean"
    build_ground(clean, "hi", str(big), None, _fake(), executor="serial", mining=options, until="features")
    out = tmp_path / "killed"
    argv = _cli(out, "--executor", "serial", "--shard-mb", "0.2", "--until", "features", source=str(big))
    proc = subprocess.Popen([sys.executable, "-m", "indicifeval", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    parts = out / "ground" / "features"
    _kill_when(proc, lambda: parts.is_dir() and len(list(parts.glob("part-*.jsonl"))) >= 3)
    before = len(list(parts.glob("part-*.jsonl")))
    assert main(argv) == 0
    record = json.loads((out / "manifest.json").read_text(encoding="utf-8"))["stages"]["features"]
    total = record["counts"]["shards"]
    assert 3 <= before < total and record["counts"]["shards_run"] <= total - before + 1
    for part in sorted((clean / "ground" / "features").glob("*")):
        assert (parts / part.name).read_bytes() == part.read_bytes(), part.name


def _server(**kw) -> FakeOpenAIServer:
    writer = FakePromptWriter(0.1)
    return FakeOpenAIServer(ServerConfig(answer_fn=lambda body: writer(body["messages"][-1]["content"]), **kw))


def test_sigkill_during_generate_then_rerun_asks_each_request_once(tmp_path):
    out = tmp_path / "b"
    with _server(latency_s=0.05) as server:
        argv = _cli(out, "--executor", "serial", "--engine", "openai", "--model", "writer", "--base-url",
                    server.url, "--concurrency", "2")
        proc = subprocess.Popen([sys.executable, "-m", "indicifeval", *argv], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        log = out / "ground" / "generations.jsonl"
        _kill_when(proc, lambda: log.exists() and log.read_bytes().count(b"\n") >= 10)
        before = log.read_bytes().count(b"\n")
        assert main(argv) == 0
    uids = [g["uid"] for g in _lines(log)]
    requests = _lines(out / "ground" / "requests.jsonl")
    assert len(uids) == len(set(uids)) == len(requests) and 10 <= before < len(uids)
    assert _lines(out / "ground" / "rows.jsonl")


def test_online_route_through_a_faulty_server(tmp_path):
    faults = FaultPlan(rate=0.3, max_faults_per_prompt=2, slow_s=0.3, retry_after_s=0.01)
    with _server(faults=faults) as server:
        generator = ModelSpec.of("openai", "writer", {"base_url": server.url, "concurrency": 8, "timeout_s": 0.2,
                                                   "backoff_base_s": 0.01, "max_retries": 6})
        records = build_ground(tmp_path / "b", "ta", corpus("ta"), None, generator, executor="serial")
        served, bodies = dict(server.faults_served), list(server.seen_bodies)
    assert set(served) >= {"429", "500"} and records["generate"].counts["failed"] == 0
    assert bodies[0]["response_format"]["json_schema"]["schema"]["required"] == ["instruction", "constraint",
                                                                                  "unsafe"]
    assert records["rows"].counts["rows"] > 50
    report = validate(tmp_path / "b")  # a Ground build folder validates as a dataset
    assert report.rows == records["rows"].counts["rows"] and not report.errors


def test_online_generation_makes_the_same_bytes_at_any_concurrency(tmp_path):
    with _server() as server:
        for concurrency in (1, 32):
            generator = ModelSpec.of("openai", "writer", {"base_url": server.url, "concurrency": concurrency})
            build_ground(tmp_path / f"c{concurrency}", "hi", corpus(), None, generator, executor="serial", mining=SMALL)
    assert _outputs(tmp_path / "c1") == _outputs(tmp_path / "c32")


def test_failed_replies_are_counted_as_the_log_has_them(tmp_path):
    """The stage counts what is missing from the answers as they come (not by reading the log
    back): the same count the cache gives, and a forced rerun asks exactly those again."""
    from indicifeval.builder.ground.generate import reply_hashes
    from indicifeval.builder.ground.pipeline import prompt_writer
    from indicifeval.records import GenerationTask
    from indicifeval.records.layout import GROUND_GENERATIONS, GROUND_REQUESTS
    from indicifeval.runs.resumable import cached

    writer = FakePromptWriter(0.1)
    empty = lambda body: (200, b'{"choices": []}') if sum(map(ord, body["messages"][-1]["content"])) % 4 == 0 \
        else None  # noqa: E731
    config = ServerConfig(answer_fn=lambda body: writer(body["messages"][-1]["content"]), raw_fn=empty)
    with FakeOpenAIServer(config) as server:
        generator = ModelSpec.of("openai", "writer", {"base_url": server.url, "concurrency": 16})
        records = build_ground(tmp_path / "b", "hi", corpus(), None, generator, executor="serial", mining=SMALL,
                               until="generate")
        counts = records["generate"].counts
        tasks = [GenerationTask.from_json(r) for r in _lines(tmp_path / "b" / GROUND_REQUESTS)]
        have = cached(_lines(tmp_path / "b" / GROUND_GENERATIONS), reply_hashes(tasks, prompt_writer(generator)))
        assert 0 < counts["failed"] == len(tasks) - len(have) and counts["asked"] == len(tasks)
        before = server.requests
        server.config.raw_fn = None  # the server is mended: only the failed are asked again
        again = build_ground(tmp_path / "b", "hi", corpus(), None, generator, executor="serial", mining=SMALL,
                             until="generate", force=["generate"])["generate"].counts
    assert again["failed"] == 0 and server.requests - before == again["asked"] == counts["failed"]


def _provide(request_file: Path, out: Path, *, fail_every: int = 0, seed: int = 0) -> None:
    """A fake OpenAI batch run: the replies in shuffled order, every ``fail_every``-th an
    error line, one truncated reply, and a line of junk."""
    writer = FakePromptWriter(0.0)
    lines = []
    for i, line in enumerate(request_file.read_text(encoding="utf-8").splitlines()):
        request = json.loads(line)
        if fail_every and i % fail_every == 0:
            lines.append({"id": f"r{i}", "custom_id": request["custom_id"], "response": None,
                          "error": {"code": "server_error", "message": "try later"}})
            continue
        content = writer(request["body"]["messages"][-1]["content"])
        finish = "stop"
        if fail_every and i == 1:
            content, finish = content[:20], "length"
        body = {"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": finish}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1}}
        lines.append({"id": f"r{i}", "custom_id": request["custom_id"],
                      "response": {"status_code": 200, "request_id": f"q{i}", "body": body}, "error": None})
    random.Random(seed).shuffle(lines)
    out.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n{not json\n", encoding="utf-8")


def test_openai_batch_export_import_and_reexport_of_what_is_missing(tmp_path):
    out = tmp_path / "b"
    argv = _cli(out, "--executor", "serial", "--transport", "openai-batch", "--model", "writer")
    assert main(argv) == 3  # waiting: the batch file is written
    first = out / "ground" / "batch" / "openai-batch-requests-001.jsonl"
    asked = _lines(first)
    assert asked and asked[0]["body"]["model"] == "writer"
    results = tmp_path / "results-1.jsonl"
    _provide(first, results, fail_every=5)
    assert main(argv + ["--import", str(results)]) == 3  # the failed and cut ones go out again
    second = out / "ground" / "batch" / "openai-batch-requests-002.jsonl"
    again = {r["custom_id"] for r in _lines(second)}
    assert again and len(again) < len(asked)
    results2 = tmp_path / "results-2.jsonl"
    _provide(second, results2, seed=1)
    assert main(argv + ["--import", str(results2)]) == 0
    generations = _lines(out / "ground" / "generations.jsonl")
    answered = {g["uid"] for g in generations if not g.get("error")}
    assert answered == {r["custom_id"] for r in asked}
    rejected = _lines(out / "ground" / "rejected.jsonl")
    kinds = Counter(r["kind"] for r in rejected)
    assert kinds["cut at the length limit"] == 1  # a cut reply is not asked again
    # every reply came in (an honest reply may still be judged, e.g. a prompt of random words in another language)
    assert not {"not generated", "generation failed"} & set(kinds) and len(rejected) <= 2
    assert len(_lines(out / "ground" / "rows.jsonl")) == len(asked) - len(rejected)


def test_gemini_batch_export(tmp_path):
    out = tmp_path / "b"
    assert main(_cli(out, "--executor", "serial", "--transport", "gemini-batch", "--model", "gemini-2.5-flash")) == 3
    line = _lines(out / "ground" / "batch" / "gemini-batch-requests-001.jsonl")[0]
    config = line["request"]["generationConfig"]
    assert config["responseMimeType"] == "application/json" and "additionalProperties" not in config["responseSchema"]


class _LocalHub:
    """huggingface_hub's HfFileSystem, served from a local folder: ``datasets/o/n@rev/...``."""

    root: Path

    def glob(self, pattern: str) -> list[str]:
        assert "@main" in pattern
        base = pattern.replace("@main", "").removesuffix("/**")
        return sorted(str(p.relative_to(self.root)).replace("\\", "/")
                      for p in (self.root / base).rglob("*") if p.is_file())

    def open(self, path: str, mode: str = "rb"):
        return (self.root / path.replace("@main", "")).open(mode)


def test_a_hub_corpus_is_listed_and_streamed_through_the_hub_file_system(tmp_path, monkeypatch):
    hub = pytest.importorskip("huggingface_hub")
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    folder = tmp_path / "hub" / "datasets" / "ai4bharat" / "sangraha" / "verified" / "hin"
    folder.mkdir(parents=True)
    docs = _lines(Path(corpus()))
    for i in range(2):
        chunk = docs[i::2]
        pq.write_table(pa.table({"doc_id": [d["doc_id"] for d in chunk], "text": [d["text"] for d in chunk]}),
                       folder / f"data-{i}.parquet")
    _LocalHub.root = tmp_path / "hub"
    monkeypatch.setattr(hub, "HfFileSystem", _LocalHub)
    records = build_ground(tmp_path / "b", "hi", "hf://datasets/ai4bharat/sangraha/verified/hin", None, _fake(),
                           executor="serial", revision="main")
    shards = json.loads((tmp_path / "b" / "ground" / "shards.json").read_text(encoding="utf-8"))
    assert [s["path"] for s in shards["shards"]] == [
        "hf://datasets/ai4bharat/sangraha/verified/hin/data-0.parquet",
        "hf://datasets/ai4bharat/sangraha/verified/hin/data-1.parquet"]
    assert records["vocab"].counts["documents"] == len(docs) and records["rows"].counts["rows"] > 50


def test_a_corpus_without_usable_documents_is_a_clear_error(tmp_path):
    from indicifeval.core.errors import InputError

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_id": 1, "text": 5}\nnot json\n{"doc_id": 2}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"no usable document \(1 malformed, 2 no text\)"):
        build_ground(tmp_path / "b", "hi", str(bad), None, _fake(), executor="serial")
