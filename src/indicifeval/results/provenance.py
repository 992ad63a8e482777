"""What an export says of the model, its settings and the data, from a run's manifest: the
schemas' closed fields where they have one, every other setting as a string in
``additional_details``; paths made names and credentials masked first (``clean``)."""

from __future__ import annotations

from typing import Any

from indicifeval.results.runfolder import HUB_DATASET, RunResults, as_text, clean

# backends whose model runs on the machine that ran the run; a server's may run anywhere
_LOCAL = {"hf", "vllm", "seq2seq"}


def model_name(run: RunResults) -> str:
    """The model as the run names it: a hub id or a server's name as given, a local path by
    its last part."""
    return str(clean(str(run.manifest.model.get("model") or "unknown"))) or "unknown"


def _details(prefix: str, values: dict[str, Any]) -> dict[str, str]:
    return {f"{prefix}{k}": as_text(clean(v)) for k, v in sorted(values.items()) if v is not None}


def model_info(run: RunResults) -> dict[str, Any]:
    model = run.manifest.model
    backend = str(model.get("backend") or "unknown")
    name = model_name(run)
    provenance = run.manifest.provenance or {}
    engine: dict[str, Any] = {"name": backend}
    version = provenance.get("backend_version") or (run.manifest.backend or {}).get("version")
    if version:
        engine["version"] = str(clean(version))
    details = {"deployment_type": "self_deployed" if backend in _LOCAL else "unknown",
               "model_availability": "unknown", "backend": backend}
    details.update(_details("option.", dict(model.get("options") or {})))
    if model.get("chat_template_hash"):
        details["chat_template_hash"] = str(model["chat_template_hash"])
    out: dict[str, Any] = {"name": name.rsplit("/", 1)[-1], "id": name, "inference_platform": backend,
                           "inference_engine": engine, "additional_details": details}
    if "/" in name:
        out["developer"] = name.split("/", 1)[0]
    return out


def generation_config(run: RunResults) -> dict[str, Any]:
    """``generation_args`` (the schema's closed set) and every other setting as a string."""
    m = run.manifest
    settings = dict(m.model.get("settings") or {})
    gen_kwargs = dict(settings.get("gen_kwargs") or {})
    args: dict[str, Any] = {}
    for name in ("temperature", "top_p"):
        if isinstance(settings.get(name), (int, float)):
            args[name] = settings[name]
    if isinstance(gen_kwargs.get("top_k"), (int, float)):
        args["top_k"] = gen_kwargs["top_k"]
    if isinstance(settings.get("max_tokens"), int) and settings["max_tokens"] >= 1:
        args["max_tokens"] = settings["max_tokens"]
    if isinstance(settings.get("thinking"), bool):
        args["reasoning"] = settings["thinking"]
    command = (m.provenance or {}).get("command")
    if isinstance(command, str) and command:
        args["execution_command"] = clean(command)
    seeds = sorted({int(a.generation["seed"]) for a in run.answers
                    if a.generation and isinstance(a.generation.get("seed"), int)})
    details = {"seed": as_text(settings.get("seed")), "samples_per_prompt": str(run.samples),
               "sample_seeds": as_text(seeds) if seeds else "not recorded",
               "thinking": as_text(settings.get("thinking")), "gen_kwargs": as_text(clean(gen_kwargs)),
               "system_prompt": as_text(clean(m.model.get("system"))),
               "chat_template_hash": as_text(m.model.get("chat_template_hash")),
               "dtype": as_text((m.model.get("options") or {}).get("dtype") or (m.provenance or {}).get("dtype")),
               "scoring_mode": run.mode, "max_answer_chars": str(m.max_answer_chars),
               "truncated_answers": str(sum(bool((a.generation or {}).get("truncated")) for a in run.answers)),
               "empty_answers": str(sum(not (a.scored or "").strip() for a in run.answers)),
               "missing_answers": str(sum(a.scored is None for a in run.answers))}
    details.update(_details("provenance.", {k: v for k, v in (m.provenance or {}).items() if k != "command"}))
    return {"generation_args": args, "additional_details": details}


def data_source(run: RunResults) -> tuple[str, str | None, str | None]:
    """("hub", repo, revision), ("sample", its name, None) or ("file", None, None)."""
    data = run.manifest.data or {}
    source = str(data.get("source") or "")
    if source == "hub":
        return "hub", str(data.get("repo") or HUB_DATASET), data.get("revision")
    if source.startswith("sample"):
        return "sample", source, None
    return "file", None, None


def source_data(run: RunResults, language: str, subset: str, prompts: int) -> dict[str, Any]:
    kind, name, revision = data_source(run)
    details = {"rows_sha256": run.rows_hash(), "rows": str(len(run.rows)), "language": language, "subset": subset}
    if kind == "hub":
        if revision:
            details["revision"] = str(revision)
        details["config"] = f"indicifeval-{subset}"
        return {"dataset_name": "IndicIFEval", "source_type": "hf_dataset", "hf_repo": name,
                "hf_split": language, "samples_number": prompts, "additional_details": details}
    if kind == "sample":
        details["sample"] = f"{name}, bundled with indicifeval {run.manifest.indicifeval_version or 'unknown'}"
        return {"dataset_name": f"IndicIFEval bundled sample ({name})", "source_type": "other",
                "additional_details": details}
    return {"dataset_name": "IndicIFEval-format rows (a local file; identified by rows_sha256)",
            "source_type": "other", "additional_details": details}


__all__ = ["data_source", "generation_config", "model_info", "model_name", "source_data"]
