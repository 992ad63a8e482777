"""Read run folders (from ``indicifeval run``) or score folders (from ``indicifeval score``).

Streaming: each file is read line by line by the one JSON-lines reader, and a run keeps only
its outcomes (``reports.rundata``), so a report over many runs grows by a few MB per run; the
prompts and answers are read again, a run at a time, for the page's samples."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from indicifeval.core.folders import read_manifest, tool_of
from indicifeval.core.jsonl import read_jsonl
from indicifeval.core.modes import ScoringMode
from indicifeval.dataset import InputError
from indicifeval.records import model_facts
from indicifeval.records.layout import GENERATIONS, RESPONSES, ROWS, SCORES, score_file_names
from indicifeval.records.scores import read_scores
from indicifeval.reports.families import family_of
from indicifeval.reports.model import RunInfo
from indicifeval.reports.rundata import PARALLEL_TAGS, RunBuilder, RunData, Vocabulary
from indicifeval.reports.samples import NO_ANSWER, read_answers, row_uid, sample, score_uid

Sink = Callable[[dict], None]  # takes each sample of a run (prompt, answer, verdicts) as it is read

def _rows(path: Path, prompts: bool) -> tuple[dict[tuple, tuple[bool, Any]], dict[tuple, Any]]:
    """What the tables need of rows.jsonl (is a row tagged parallel, its answer language), and
    the prompts when the samples are read too."""
    facts, texts = {}, {}
    if path.exists():
        for _, r in read_jsonl(path):
            uid = row_uid(r)
            facts[uid] = (PARALLEL_TAGS <= set(r.get("tags") or ()), r.get("resp_lang"))
            if prompts:
                texts[uid] = r.get("prompt")
    return facts, texts


def score_file(folder: Path, manifest: dict, scoring: ScoringMode | None) -> tuple[str, str]:
    """(file name, mode) of the scores to read: ``scoring``'s, or the folder's own mode's."""
    made_by = tool_of(manifest)
    if made_by not in (None, "run", "score"):  # a build folder has no scores `score --run` could make
        raise InputError(f"not a run or score folder (`indicifeval {made_by}` made it): a report reads the "
                         f"folders `indicifeval run` and `indicifeval score` write", str(folder))
    tool = made_by or ("score" if not (folder / GENERATIONS).exists() else "run")
    if tool == "score" or not manifest:
        own = _scored_mode(folder / SCORES)
        if scoring is not None and own is not None and scoring != own:
            raise InputError(f"holds {own} scores only; score it again with --scoring {scoring}", str(folder))
        return SCORES, own or "fixed"
    primary = manifest.get("scoring") or "fixed"
    mode = primary if scoring is None else str(scoring)
    name = score_file_names(mode, primary)[0]
    if not (folder / name).exists():
        raise InputError(f"has no {mode} scores yet: run `indicifeval score --run {folder} --scoring {mode}`",
                         str(folder))
    return name, mode


def _scored_mode(path: Path) -> str | None:
    if not path.exists():
        return None
    first = next(read_scores(path), None)
    return None if first is None else first.scoring


def load_run(folder: str | Path, family_map: dict | None = None, scoring: ScoringMode | None = None,
             vocabulary: Vocabulary | None = None, samples: Sink | None = None) -> RunData:
    """A run folder (``indicifeval run``) or a score folder (``indicifeval score``), with the
    scores of ``scoring`` (default: the mode the folder was made with). ``samples`` gets each
    row's sample in the same pass, so the files are read once."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("no such folder" if not folder.exists() else "not a folder", str(folder))
    manifest = read_manifest(folder) or {}
    scores_name, mode = score_file(folder, manifest, scoring)
    scores_path = folder / scores_name
    if not scores_path.exists():
        raise InputError(f"no {scores_name}: run `indicifeval run` or `indicifeval score` first", str(folder))
    made_by = model_facts(manifest)
    model = made_by["model"] or folder.name
    family, size = family_of(model, family_map)
    info = RunInfo(
        name=folder.name, folder=str(folder), model=model, family=family, size_b=size,
        thinking=made_by["thinking"], scoring=mode, backend=made_by["backend"], settings=made_by["settings"],
    )
    answers_file = (GENERATIONS if (folder / GENERATIONS).exists() else RESPONSES if (folder / RESPONSES).exists()
                    else None)
    facts, prompts = _rows(folder / ROWS, samples is not None)
    answers = read_answers(folder, answers_file) if samples is not None else {}
    builder = RunBuilder(info, vocabulary or Vocabulary())
    for score in read_scores(scores_path):
        uid = score_uid(score)
        builder.add(score, facts.get(uid[:3]))
        if samples is not None:
            samples(sample(info.name, score, prompts.get(uid[:3]), answers.get(uid, NO_ANSWER)))
    data = builder.finish()
    data.source = {"folder": str(folder), "scores": scores_name, "rows": ROWS if (folder / ROWS).exists() else None,
                   "answers": answers_file}
    return data


def load_runs(folders: list[str | Path], family_map: dict | None = None, scoring: ScoringMode | None = None,
              mixed_scoring: bool = False, on_run: Callable[[str], None] | None = None,
              samples: Callable[[int], AbstractContextManager[Sink]] | None = None) -> list[RunData]:
    """The runs, each with the scores of ``scoring`` (default: its own mode); runs scored in
    different modes are refused unless ``mixed_scoring``: their numbers do not compare.
    ``samples(i)`` opens the sink of the i-th run's samples (``html_samples.SampleFiles.run``)."""
    runs = []
    vocabulary = Vocabulary()
    for i, f in enumerate(folders):
        if samples is None:
            runs.append(load_run(f, family_map, scoring, vocabulary))
        else:
            with samples(i) as add:
                runs.append(load_run(f, family_map, scoring, vocabulary, add))
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


__all__ = ["RunData", "load_run", "load_runs", "score_file"]
