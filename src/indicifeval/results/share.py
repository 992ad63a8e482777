"""Sharing exported results: ``results push`` uploads an export folder to a hub dataset by
the code that pushes a release (``build publish``), and ``--tracker`` logs a run's metrics to
TensorBoard or Weights & Biases (offline), whichever optional package is installed. Both are
off unless asked for."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.builder.release.publish import push_folder
from indicifeval.core.errors import InputError
from indicifeval.results.verify import records

TRACKERS = ("tensorboard", "wandb")


def push(folder: str | Path, repo_id: str, *, revision: str | None = None, api: Any = None,
         token_env: str = "HF_TOKEN") -> list[str]:
    """Upload an export folder to the hub dataset ``repo_id`` in one commit; returns the
    relative names of the files it holds (hidden ones, ``.eval_results/`` among them, stay:
    they belong in a model repository)."""
    root = Path(folder)
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*")
                   if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts))
    if not names:
        raise InputError("nothing to push: an Every Eval Ever export (results export --format every-eval-ever) goes "
                         "to a dataset; .eval_results/ YAML belongs in the model's own repository", str(root))
    models = sorted({str(json.loads(p.read_text(encoding="utf-8")).get("model_info", {}).get("id"))
                     for p in records(root)})
    message = (f"indicifeval results: {len(names)} files ({', '.join(models) or 'no records'}), "
               f"indicifeval {__version__}")
    push_folder(root, repo_id, revision, api, token_env, message)
    return names


def record_metrics(folder: str | Path) -> list[tuple[str, dict[str, float], dict[str, str]]]:
    """(model id, result id -> score, settings) of each aggregate record in an export folder."""
    out = []
    for path in records(Path(folder)):
        record = json.loads(path.read_text(encoding="utf-8"))
        results = record.get("evaluation_results") or []
        scores = {str(r["evaluation_result_id"]): float(r["score_details"]["score"]) for r in results}
        settings = dict((results[0].get("generation_config") or {}).get("additional_details") or {}) if results else {}
        out.append((str((record.get("model_info") or {}).get("id")), scores, settings))
    return out


def _summary_writer() -> Any:
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        try:
            from tensorboardX import SummaryWriter  # type: ignore[no-redef]
        except ImportError:
            raise InputError("--tracker tensorboard needs tensorboard (pip install tensorboard) or tensorboardX",
                             field="tracker") from None
    return SummaryWriter


def log_metrics(metrics: Mapping[str, float], *, tracker: str, name: str, logdir: str | Path,
                config: Mapping[str, str] | None = None) -> Path:
    """Log one run's metrics (``<language>/<subset>/<metric>`` -> score) at step 0 under
    ``logdir``; returns where they went."""
    logdir = Path(logdir)
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in name) or "run"
    if tracker == "tensorboard":
        writer = _summary_writer()(log_dir=str(logdir / safe))
        try:
            for tag, value in sorted(metrics.items()):
                writer.add_scalar(tag, value, 0)
            if config:
                writer.add_text("settings", json.dumps(dict(config), ensure_ascii=False, sort_keys=True), 0)
        finally:
            writer.close()
        return logdir / safe
    if tracker == "wandb":
        try:
            import wandb
        except ImportError:
            raise InputError("--tracker wandb needs wandb (pip install wandb)", field="tracker") from None
        logdir.mkdir(parents=True, exist_ok=True)
        run = wandb.init(project="indicifeval", name=safe, dir=str(logdir), mode="offline", config=dict(config or {}))
        try:
            run.log(dict(metrics))
        finally:
            run.finish()
        return logdir
    raise InputError(f"unknown tracker {tracker!r}; choose from {', '.join(TRACKERS)}", field="tracker")


__all__ = ["TRACKERS", "log_metrics", "push", "record_metrics"]
