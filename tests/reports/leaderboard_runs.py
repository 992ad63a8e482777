"""Mock runs on the bundled sample for the leaderboard tests: models that answer differently
(the sample's passing answers; two that spoil different twentieths of them, not significantly
apart; the prompt echoed back), one model split over two runs (merged), and one with two
samples per prompt (its second sample fails every other prompt)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from indicifeval.dataset import sample_answers
from indicifeval.runs.runner import DataOptions, run
from tests.runs.specs import spec


def _spoiled(folder: Path, offset: int) -> str:
    path = folder / f"answers-{offset}.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        for i, (prompt, answer) in enumerate(sorted(sample_answers().items())):
            fh.write(json.dumps({"prompt": prompt, "response": "x" if i % 20 == offset else answer}) + "\n")
    return str(path)


def _two_samples(source: Path, out: Path) -> Path:
    """A copy of ``source`` as another model that answered every prompt twice."""
    shutil.copytree(source, out)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["model"]["model"], manifest["samples"] = "mock/twice", 2
    manifest["provenance"] = {"machine": {"cpu": "test"}, "api_key": "sk-secret", "weights": "/home/me/w.bin"}
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    lines = (out / "scores.jsonl").read_text(encoding="utf-8").splitlines()
    extra = []
    for i, line in enumerate(lines):
        score = json.loads(line)
        score["sample"] = 1
        if i % 2:
            score.update(prompt_strict=False, prompt_loose=False, strict=[False] * len(score["strict"]),
                         loose=[False] * len(score["loose"]))
        extra.append(json.dumps(score))
    (out / "scores.jsonl").write_text("\n".join(lines + extra) + "\n", encoding="utf-8")
    return out


def make_runs(folder: str | Path) -> dict[str, Path]:
    folder = Path(folder)
    data = DataOptions(source="sample")
    runs = {}
    for name, options in (("good", {"answers": "sample"}), ("near-a", {"answers": _spoiled(folder, 0)}),
                          ("near-b", {"answers": _spoiled(folder, 10)}), ("echo", {"answers": "echo"})):
        runs[name] = folder / name
        run(spec(f"mock/{name}", "mock", options), runs[name], data)
    for part, languages in (("split-hi", ["hi"]), ("split-bn", ["bn", "en"])):
        runs[part] = folder / part
        run(spec("mock/split", "mock", {"answers": "sample"}), runs[part],
            DataOptions(source="sample", languages=languages))
    runs["twice"] = _two_samples(runs["good"], folder / "twice")
    return runs
