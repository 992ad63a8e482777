"""Read run folders (from ``indicifeval run``) or score folders (from ``indicifeval score``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from indicifeval.core.folders import read_manifest, tool_of
from indicifeval.core.jsonl import read_jsonl
from indicifeval.dataset import InputError
from indicifeval.records import RowId
from indicifeval.records.layout import GENERATIONS, RESPONSES, ROWS, SCORES, score_file_names
from indicifeval.reports.families import family_of
from indicifeval.reports.model import RunInfo
from indicifeval.runs.store import RunStore


@dataclass
class RunData:
    info: RunInfo
    scores: list[dict]  # scores.jsonl lines
    rows: dict[tuple, dict] = field(default_factory=dict)  # (language, subset, key) -> rows.jsonl record
    generations: dict[tuple, dict] = field(default_factory=dict)

    def row(self, score: dict) -> dict:
        return self.rows.get(_key(score), {})


def _jsonl(path: Path) -> list[dict]:
    return [record for _, record in read_jsonl(path)]


_SCORE_FIELDS = {"key": None, "language": str, "subset": str, "instruction_id_list": list, "strict": list,
                 "loose": list, "prompt_strict": bool, "prompt_loose": bool}


def _scores(path: Path) -> list[dict]:
    """scores.jsonl, each line checked for the fields the analyses read (file, line, field named)."""
    out = []
    for source, record in read_jsonl(path):
        for name, kind in _SCORE_FIELDS.items():
            if name not in record:
                raise source.error("a scores line needs this field (score the folder again?)", name)
            if kind is not None and not isinstance(record[name], kind):
                raise source.error(f"must be a {kind.__name__}, got {type(record[name]).__name__}", name)
        out.append(record)
    return out


def _key(record: dict) -> RowId:
    return RowId.of(str(record.get("language")), str(record.get("subset")), record.get("key"))


def score_file(folder: Path, manifest: dict, scoring: str | None) -> tuple[str, str]:
    """(file name, mode) of the scores to read: ``scoring``'s, or the folder's own mode's."""
    tool = tool_of(manifest) or ("score" if not (folder / GENERATIONS).exists() else "run")
    if tool == "score" or not manifest:
        own = _scored_mode(folder / SCORES)
        if scoring is not None and own is not None and scoring != own:
            raise InputError(f"holds {own} scores only; score it again with --scoring {scoring}", str(folder))
        return SCORES, own or "fixed"
    primary = manifest.get("scoring") or "fixed"
    mode = scoring or primary
    name = score_file_names(mode, primary)[0]
    if not (folder / name).exists():
        raise InputError(f"has no {mode} scores yet: run `indicifeval score --run {folder} --scoring {mode}`",
                         str(folder))
    return name, mode


def _scored_mode(path: Path) -> str | None:
    if not path.exists():
        return None
    for _, record in read_jsonl(path):
        return str(record.get("scoring") or "fixed")
    return None


def load_run(folder: str | Path, family_map: dict | None = None, scoring: str | None = None) -> RunData:
    """A run folder (``indicifeval run``) or a score folder (``indicifeval score``), with the
    scores of ``scoring`` (default: the mode the folder was made with)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("no such folder" if not folder.exists() else "not a folder", str(folder))
    manifest = read_manifest(folder) or {}
    scores_name, mode = score_file(folder, manifest, scoring)
    scores_path = folder / scores_name
    if not scores_path.exists():
        raise InputError(f"no {scores_name}: run `indicifeval run` or `indicifeval score` first", str(folder))
    generation = manifest.get("generation") or {}
    model = generation.get("model") or folder.name
    family, size = family_of(model, family_map)
    scores = _scores(scores_path)
    info = RunInfo(
        name=folder.name, folder=str(folder), model=model, family=family, size_b=size,
        thinking=generation.get("thinking"), scoring=mode, backend=generation.get("backend"),
        settings={k: v for k, v in generation.items() if k != "thinking"},
    )
    data = RunData(info, scores)
    if (folder / ROWS).exists():
        data.rows = {_key(r): r for r in _jsonl(folder / ROWS)}
    if (folder / GENERATIONS).exists():
        for g in RunStore(folder).read_generations():
            data.generations[_key(g)] = g
    elif (folder / RESPONSES).exists():  # a score folder: the answers it scored
        for r in _jsonl(folder / RESPONSES):
            data.generations[_key(r)] = {"answer": r.get("response")}
    return data


def load_runs(folders: list[str | Path], family_map: dict | None = None, scoring: str | None = None,
              mixed_scoring: bool = False, on_run: Callable[[str], None] | None = None) -> list[RunData]:
    """The runs, each with the scores of ``scoring`` (default: its own mode); runs scored in
    different modes are refused unless ``mixed_scoring``: their numbers do not compare."""
    runs = []
    for f in folders:
        runs.append(load_run(f, family_map, scoring))
        if on_run is not None:
            on_run(f"read {Path(f).name}")
    modes = {r.info.scoring for r in runs}
    if len(modes) > 1 and not mixed_scoring:
        listed = ", ".join(f"{r.info.folder}: {r.info.scoring}" for r in runs)
        raise InputError(f"these runs were scored in different modes ({listed}); choose one with --scoring fixed|paper "
                         f"(score the others with `indicifeval score --run DIR --scoring MODE`), or pass "
                         f"--mixed-scoring to put them in one table anyway")
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
