"""A report over many runs reads each run's files once, line by line, and keeps only outcomes:
the texts (prompts, answers) go straight into that run's samples file, so memory grows by a
run's outcomes, not by its texts; the samples files replace the previous report's."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from indicifeval.core.errors import InputError
from indicifeval.reports import api
from indicifeval.reports.api import build_report
from indicifeval.reports.html_samples import SampleFiles, write_samples
from indicifeval.reports.loading import load_runs
from tests.reports.test_analyses import _write_run

ANSWER_CHARS = 20_000


def _with_answers(folder, model, thinking, passes):
    """A run of test_analyses' shape, with a long answer for each row in generations.jsonl."""
    _write_run(folder, model, thinking, passes)
    with (folder / "generations.jsonl").open("w", encoding="utf-8") as fh:
        for line in (folder / "rows.jsonl").read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            answer = f"{r['language']} {r['key']} " + "x" * ANSWER_CHARS
            fh.write(json.dumps({"uid": f"{r['language']}/{r['subset']}/{r['key']}", "key": r["key"],
                                 "language": r["language"], "subset": r["subset"], "output": answer,
                                 "answer": answer, "reasoning": None, "finish_reason": "stop"}) + "\n")
    return folder


def _runs(root, n):
    return [_with_answers(root / f"r{i}", f"org/Model{i}-7B", bool(i % 2),
                          {"en": 10, "hi": 3 + i % 5, "ta": 8, "ground": 2 + i % 3}) for i in range(n)]


def test_runs_keep_their_outcomes_not_their_texts(tmp_path):
    runs = _runs(tmp_path, 4)
    texts = 4 * 66 * ANSWER_CHARS * 2  # each answer twice (output, answer), 66 rows a run
    tracemalloc.start()
    try:
        loaded = load_runs(runs)
        held, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        files = SampleFiles(tmp_path / "page", [])
        load_runs(runs, samples=files.run)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(loaded) == 4 and held < texts / 20, (held, texts)
    assert peak < texts / 2, (peak, texts)  # one run's texts at a time, never all of them
    assert files.counts == {0: 66, 1: 66, 2: 66, 3: 66}


def test_samples_written_while_reading_equal_those_read_again(tmp_path):
    runs = _runs(tmp_path, 3)
    once = SampleFiles(tmp_path / "once", [])
    rep = build_report(runs, n_boot=0, sample_files=once)
    again = write_samples(rep, tmp_path / "again")  # from Report.samples: each run's folder read again
    assert rep.sample_index == again
    for name in again["files"]:
        assert (tmp_path / "once" / name).read_bytes() == (tmp_path / "again" / name).read_bytes()
    assert [s["answer"][:5] for s in rep.samples][:2] == ["en 1 ", "en 2 "]


def test_each_report_replaces_the_sample_files_of_the_last(tmp_path):
    runs = _runs(tmp_path, 3)
    out = tmp_path / "report"
    api.report(runs, out, n_boot=0, plots=False)
    assert sorted(p.name for p in (out / "samples").iterdir()) == ["run-0.js", "run-1.js", "run-2.js"]
    api.report(runs[:1], out, n_boot=0, plots=False)
    assert sorted(p.name for p in (out / "samples").iterdir()) == ["run-0.js"]  # the others' are stale: gone
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert "samples/run-0.js" in manifest["files"]
    assert not [p for p in out.rglob("*") if p.name.startswith(".")]  # no temporary left
    api.report(runs[:1], out, n_boot=0, plots=False, html=False)
    assert not (out / "samples").exists() and not (out / "report.html").exists()


def test_a_failed_first_report_leaves_no_folder(tmp_path):
    out = tmp_path / "report"
    with pytest.raises(InputError):
        api.report([tmp_path / "missing"], out, plots=False)
    assert not out.exists()
