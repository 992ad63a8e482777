"""Read run folders (from ``indicifeval run``) or score folders (from ``indicifeval score``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


from indicifeval.dataset import InputError
from indicifeval.reports.families import family_of
from indicifeval.reports.model import RunInfo


@dataclass
class RunData:
    info: RunInfo
    scores: list[dict]  # scores.jsonl lines
    rows: dict[tuple, dict] = field(default_factory=dict)  # (language, subset, key) -> rows.jsonl record
    generations: dict[tuple, dict] = field(default_factory=dict)

    def row(self, score: dict) -> dict:
        return self.rows.get((score["language"], score["subset"], score["key"]), {})


def _jsonl(path: Path) -> list[dict]:
    out = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise InputError(f"malformed JSON ({exc.msg})", str(path), lineno) from None
    return out


def load_run(folder: str | Path, family_map: dict | None = None, scores_file: str = "scores.jsonl") -> RunData:
    folder = Path(folder)
    scores_path = folder / scores_file
    if not scores_path.exists():
        raise InputError(f"no {scores_file}: run `indicifeval run` or `indicifeval score` first", str(folder))
    manifest = {}
    if (folder / "manifest.json").exists():
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    generation = manifest.get("generation") or {}
    model = generation.get("model") or folder.name
    family, size = family_of(model, family_map)
    scores = _jsonl(scores_path)
    scoring = scores[0].get("scoring", "fixed") if scores else "fixed"
    info = RunInfo(
        name=folder.name, folder=str(folder), model=model, family=family, size_b=size,
        thinking=generation.get("thinking"), scoring=scoring, backend=generation.get("backend"),
        settings={k: v for k, v in generation.items() if k != "thinking"},
    )
    data = RunData(info, scores)
    if (folder / "rows.jsonl").exists():
        data.rows = {(r["language"], r["subset"], r["key"]): r for r in _jsonl(folder / "rows.jsonl")}
    if (folder / "generations.jsonl").exists():
        for g in _jsonl(folder / "generations.jsonl"):
            data.generations[(g["language"], g["subset"], g["key"])] = g
    return data


def load_runs(folders: list[str | Path], family_map: dict | None = None) -> list[RunData]:
    runs = [load_run(f, family_map) for f in folders]
    _unique_names(runs)
    return runs


def _unique_names(runs: list[RunData]) -> None:
    """Label runs by model (+ thinking); fall back to folder names where labels collide."""
    def label(r: RunData) -> str:
        base = r.info.model.rstrip("/").split("/")[-1]
        if r.info.thinking is not None:
            base += " (thinking)" if r.info.thinking else " (no thinking)"
        return base

    labels = [label(r) for r in runs]
    for r, lab in zip(runs, labels):
        r.info.name = lab if labels.count(lab) == 1 else f"{lab} [{Path(r.info.folder).name}]"
    seen: dict[str, int] = {}
    for r in runs:  # the same folder twice
        seen[r.info.name] = seen.get(r.info.name, 0) + 1
        if seen[r.info.name] > 1:
            r.info.name += f" #{seen[r.info.name]}"


def outcome(score: dict, metric: str) -> tuple[int, int]:
    """(passes, count) of one row for a metric: prompt level 1/1 or 0/1; instruction level
    followed/all."""
    if metric == "prompt_loose":
        return int(bool(score["prompt_loose"])), 1
    if metric == "prompt_strict":
        return int(bool(score["prompt_strict"])), 1
    verdicts = score["loose"] if metric == "inst_loose" else score["strict"]
    return sum(bool(v) for v in verdicts), len(verdicts)


def instruction_outcome(score: dict, metric: str, wanted: set[str]) -> tuple[int, int]:
    """(followed, count) over the instructions of ``wanted`` ids only (category, keyword type)."""
    verdicts = score["strict"] if metric.endswith("strict") else score["loose"]
    pairs = [(bool(v), 1) for iid, v in zip(score["instruction_id_list"], verdicts) if iid in wanted]
    return sum(p for p, _ in pairs), len(pairs)


__all__ = ["RunData", "instruction_outcome", "load_run", "load_runs", "outcome"]
