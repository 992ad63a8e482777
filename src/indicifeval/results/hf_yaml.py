"""A run as the Hub's ``.eval_results/`` YAML (what model pages and benchmark leaderboards
read): one file per language and subset, one entry per metric. The format has no metric
field, so ``task_id`` names it (``<subset>/<language>/<metric>``) and ``notes`` says it in
words with its interval, the samples and the data. ``dataset.id`` is the benchmark's hub
dataset; a run on the bundled sample or a local file says so in ``task_id`` (``sample/...``,
``local/...``, ids no leaderboard aggregates) and in ``notes``, so its numbers are never read
as the benchmark's. Values are percentages (0-100), as the Hub's leaderboards show them."""

from __future__ import annotations

from typing import Any

from indicifeval.results.eee import verdicts_of
from indicifeval.results.metrics import METRICS, compute
from indicifeval.results.provenance import data_source, model_name
from indicifeval.results.runfolder import HUB_DATASET, RunResults

FOLDER = ".eval_results"


def _date(run: RunResults) -> str | None:
    """The run's finish as ISO-8601 (``2026-01-15T10:30:00+00:00``)."""
    text = run.manifest.finished_at or run.manifest.started_at
    if not text:
        return None
    from datetime import datetime

    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z").isoformat()
    except ValueError:
        return None


def entries(run: RunResults) -> dict[str, list[dict[str, Any]]]:
    """File name (under ``.eval_results/``) -> its entries."""
    kind, name, revision = data_source(run)
    prefix = {"hub": "", "sample": "sample/", "file": "local/"}[kind]
    data = {"hub": f"the hub dataset {name}" + (f" at revision {revision}" if revision else ""),
            "sample": f"indicifeval's bundled sample ({name}), not the full benchmark",
            "file": "a local file of IndicIFEval-format rows, not the hub dataset"}[kind]
    names = {metric: display for metric, _, _, display in METRICS}
    date = _date(run)
    out: dict[str, list[dict[str, Any]]] = {}
    for result in compute(verdicts_of(a) for a in run.answers).values():
        dataset: dict[str, Any] = {"id": name if kind == "hub" else HUB_DATASET,
                                   "task_id": f"{prefix}{result.subset}/{result.language}/{result.metric}"}
        if kind == "hub" and revision:
            dataset["revision"] = str(revision)
        interval = (f"; 95% CI {100 * result.low:.2f}-{100 * result.high:.2f}"
                    if result.low is not None and result.high is not None else "")
        entry: dict[str, Any] = {
            "dataset": dataset, "value": round(100 * result.score, 2),
            "notes": (f"IndicIFEval {result.subset} {result.language}: {names[result.metric]} ({result.metric}, "
                      f"{run.mode} scoring), percent, mean over {result.samples} sample(s) of {result.prompts} "
                      f"prompts{interval}; data: {data}; model: {model_name(run)}"),
            "source": {"name": "indicifeval run", "url": "https://huggingface.co/datasets/" + HUB_DATASET},
        }
        if date:
            entry["date"] = date
        out.setdefault(f"indicifeval-{result.subset}-{result.language}.yaml", []).append(entry)
    return out


def write(run: RunResults, out: Any) -> list[str]:
    import yaml

    from indicifeval.core.files import StagedFiles

    written = []
    with StagedFiles(out) as files:
        for name, items in sorted(entries(run).items()):
            files.write_text(f"{FOLDER}/{name}", yaml.safe_dump(items, allow_unicode=True, sort_keys=False))
            written.append(f"{FOLDER}/{name}")
    return written


__all__ = ["FOLDER", "entries", "write"]
