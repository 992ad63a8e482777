"""A run folder as the exports read it: its manifest, its rows, and each row's verdicts for
every sample with the answer exactly as it was scored (None: no usable answer, scored as
missing). Nothing is scored here: the verdicts are the run's own (``scores.jsonl`` or a
rescored mode's file); ``results verify`` is what scores the answers again."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from indicifeval.builder.release.portable import portable
from indicifeval.core.errors import InputError
from indicifeval.core.secrets import redact_url
from indicifeval.dataset import Row, load_rows
from indicifeval.records import RowScore, RunManifest, read_scores
from indicifeval.records.layout import ROWS, score_file_names
from indicifeval.runs.folder_scores import usable
from indicifeval.runs.store import RunStore

HUB_DATASET = "ai4bharat/IndicIFEval"
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")


@dataclass(frozen=True)
class Answer:
    """One sample of one row: its verdicts and the answer as scored."""

    row: Row
    sample: int
    verdict: RowScore
    generation: dict[str, Any] | None
    scored: str | None  # the text the scorer was given; None: no usable answer (scored as missing)


@dataclass
class RunResults:
    manifest: RunManifest
    mode: str
    rows: list[Row]
    answers: list[Answer]  # by language, subset, row order, then sample

    @property
    def samples(self) -> int:
        return max([self.manifest.samples or 1, *(a.sample + 1 for a in self.answers)])

    def identity_hash(self) -> str:
        """The run's identity (model, data, answer cap, samples, scoring mode) and its verdicts,
        hashed: the same run scored the same way gives the same hash, whenever it is exported."""
        payload = {"identity": self.manifest.identity(), "samples": self.samples, "scoring": self.mode,
                   "verdicts": [[str(a.row.id), a.sample, a.verdict.strict, a.verdict.loose,
                                 a.verdict.response_missing] for a in self.answers]}
        return sha256_text(json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str))

    def rows_hash(self) -> str:
        """The content of the rows asked (what each asks and how it is checked), hashed."""
        records = sorted(json.dumps(r.to_record(), sort_keys=True, ensure_ascii=False) for r in self.rows)
        return sha256_text("\n".join(records))


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def clean(value: Any) -> Any:
    """A value fit to publish: absolute paths made names, credentials in URLs masked."""
    value = portable(value)
    if isinstance(value, str):
        return _URL.sub(lambda m: redact_url(m.group(0)), value)
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clean(v) for v in value]
    return value


def as_text(value: Any) -> str:
    """A detail as the schemas' string-only maps hold it (JSON for what is not a string)."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False)


def sample_uid(row: Row, sample: int) -> str:
    return f"{row.id}#s{sample}" if sample else str(row.id)


def load_run(folder: str | Path, scoring: str | None = None) -> RunResults:
    """The run folder's verdicts in ``scoring`` (default: the mode the run was made with)."""
    store = RunStore(folder)
    manifest = store.read_manifest()
    if manifest is None or manifest.tool != "run" or not (store.folder / ROWS).is_file():
        raise InputError("not a run folder (`indicifeval run` writes one: manifest.json, rows.jsonl, scores.jsonl)",
                         str(folder))
    mode = scoring or manifest.scoring
    scores_name = score_file_names(mode, manifest.scoring)[0]
    if not (store.folder / scores_name).is_file():
        raise InputError(f"the run was not scored in {mode} mode (indicifeval score --run {folder} --scoring {mode})",
                         str(store.folder / scores_name))
    rows = load_rows(store.folder / ROWS)
    by_id = {r.id: r for r in rows}
    order = {r.id: i for i, r in enumerate(rows)}
    generations = store.latest_generations()
    answers = []
    for verdict in read_scores(store.folder / scores_name):
        row = by_id.get(verdict.id)
        if row is None:
            raise InputError(f"a verdict for {verdict.id}, a row the run did not ask (rows.jsonl)",
                             str(store.folder / scores_name))
        generation = generations.get(sample_uid(row, verdict.sample))
        scored = (generation or {}).get("answer") or "" if usable(generation, row) else None
        answers.append(Answer(row, verdict.sample, verdict, generation, scored))
    answers.sort(key=lambda a: (a.row.language, a.row.subset, order[a.row.id], a.sample))
    if not answers:
        raise InputError("the run holds no verdicts yet", str(store.folder / scores_name))
    return RunResults(manifest, mode, rows, answers)


__all__ = ["HUB_DATASET", "Answer", "RunResults", "as_text", "clean", "load_run", "sample_uid", "sha256_text"]
