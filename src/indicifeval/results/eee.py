"""A run as Every Eval Ever records it: one aggregate record (``<uuid>.json``) and its
instance-level sidecar (``<uuid>_samples.jsonl``), side by side in the datastore's layout
``data/<collection>/<developer>/<model>/``.

The record's ``evaluation_id`` is a hash of the run's identity and its verdicts (never the export
time), and the file names' uuid is derived from it, so exporting the same run again writes the
same bytes. The sidecar holds one line per prompt, sample and aggregate result the sample feeds
(joined by ``evaluation_result_id``), with the answer exactly as it was scored (the last
``answer_attribution`` entry's ``extracted_value``) and, in ``metadata``, what scoring it again
needs: the row's instructions and arguments, the sample, the mode."""

from __future__ import annotations

import json
import re
import uuid
from datetime import datetime
from typing import Any

from indicifeval._version import __version__
from indicifeval.results.metrics import CI_METHOD, CONFIDENCE, METRICS, N_BOOT, Result, Verdicts, compute
from indicifeval.results.metrics import instance_score as score_of
from indicifeval.results.provenance import generation_config, model_info, source_data
from indicifeval.results.runfolder import Answer, RunResults, as_text, clean, sha256_text

SCHEMA_VERSIONS = ("0.3.0", "0.2.3")
COLLECTION = "indicifeval"
_SEGMENT = re.compile(r"[^A-Za-z0-9._-]+")


def verdicts_of(answer: Answer) -> Verdicts:
    v = answer.verdict
    return Verdicts(v.language, v.subset, str(v.key), answer.sample, tuple(v.strict), tuple(v.loose))


def evaluation_name(language: str, subset: str) -> str:
    return f"indicifeval_{subset}_{language}"


def _epoch(text: str | None) -> str | None:
    try:
        return str(int(datetime.strptime(str(text), "%Y-%m-%dT%H:%M:%S%z").timestamp()))
    except ValueError:
        return None


def _segment(text: str) -> str:
    return _SEGMENT.sub("_", text).strip("._") or "unknown"


def _result(run: RunResults, result: Result, metric_name: str, level: str, mode: str,
            config: dict[str, Any]) -> dict[str, Any]:
    details = {"language": result.language, "subset": result.subset, "prompts": str(result.prompts),
               "samples_per_prompt": str(result.samples), "scored_answers": str(result.answers),
               "scoring_mode": run.mode}
    out: dict[str, Any] = {
        "evaluation_result_id": result.result_id,
        "evaluation_name": evaluation_name(result.language, result.subset),
        "source_data": source_data(run, result.language, result.subset, result.prompts),
        "metric_config": {
            "evaluation_description": f"IndicIFEval {result.subset} {result.language}: {metric_name} "
                                      f"({run.mode} scoring), the mean over {result.samples} sample(s) per prompt",
            "metric_id": f"indicifeval.{result.metric}", "metric_name": metric_name, "metric_kind": "accuracy",
            "metric_unit": "proportion", "metric_parameters": {"level": level, "mode": mode, "scoring": run.mode,
                                                               "samples": result.samples},
            "lower_is_better": False, "score_type": "continuous", "min_score": 0, "max_score": 1},
        "score_details": {"score": result.score, "details": details},
        "generation_config": config,
    }
    if result.low is not None and result.high is not None:
        out["score_details"]["uncertainty"] = {
            "confidence_interval": {"lower": result.low, "upper": result.high, "confidence_level": CONFIDENCE,
                                    "method": CI_METHOD},
            "num_samples": result.prompts, "num_bootstrap_samples": N_BOOT}
    return out


def _instance(run: RunResults, answer: Answer, ids: dict[str, str], result_id: str, level: str, mode: str,
              metric: str) -> dict[str, Any]:
    row, g = answer.row, answer.generation or {}
    score, correct = score_of(verdicts_of(answer), level, mode)
    record = row.to_record()
    del record["prompt"]  # it is input.raw
    metadata = {"row": as_text(record), "sample": str(answer.sample), "scoring_mode": run.mode, "metric": metric,
                "response_missing": "true" if answer.scored is None else "false",
                "strict": as_text(answer.verdict.strict), "loose": as_text(answer.verdict.loose),
                "explanations": as_text(clean(answer.verdict.explanations))}
    for name in ("seed", "finish_reason", "truncated", "capped_from_chars", "reasoning_unterminated"):
        if g.get(name) is not None:
            metadata[name] = as_text(g[name])
    line: dict[str, Any] = {
        "schema_version": ids["schema_version"], "evaluation_id": ids["evaluation_id"], "model_id": ids["model_id"],
        "evaluation_name": evaluation_name(row.language, row.subset), "evaluation_result_id": result_id,
        "sample_id": str(row.id),
        "sample_hash": sha256_text(json.dumps([row.prompt, list(row.instruction_id_list),
                                               [dict(k) for k in row.kwargs]], sort_keys=True, ensure_ascii=False)),
        "interaction_type": "single_turn",
        "input": {"raw": row.prompt, "formatted": None, "reference": [], "choices": None},
        "output": {"raw": [g["output"]] if isinstance(g.get("output"), str) else [],
                   "reasoning_trace": [g["reasoning"]] if isinstance(g.get("reasoning"), str) else None},
        "messages": None,
        "answer_attribution": [{
            "turn_idx": 0, "source": "output.raw", "extracted_value": answer.scored or "",
            "extraction_method": ("none: no usable answer, scored as missing" if answer.scored is None else
                                  "reasoning stripped" if g.get("reasoning") is not None else "as generated"),
            "is_terminal": True}],
        "evaluation": {"score": score, "is_correct": correct, "num_turns": 1},
        "error": clean(g.get("error")) or ("no usable answer" if answer.scored is None else None),
        "metadata": metadata,
    }
    if isinstance(g.get("latency_s"), (int, float)) and g["latency_s"] >= 0:
        line["performance"] = {"latency_ms": g["latency_s"] * 1000}
    return line


def build(run: RunResults, *, schema_version: str = SCHEMA_VERSIONS[0], organization: str = "unknown",
          relationship: str = "third_party") -> tuple[str, dict[str, Any], str]:
    """(the sidecar's and record's folder, the aggregate record, the sidecar's text)."""
    info = model_info(run)
    model_id = info["id"]
    developer, name = (model_id.split("/", 1) if "/" in model_id else ("unknown", model_id))
    evaluation_id = f"indicifeval/{model_id}/{run.identity_hash()[:16]}"
    file_uuid = str(uuid.UUID(bytes=bytes.fromhex(sha256_text(evaluation_id)[:32]), version=4))
    folder = f"data/{COLLECTION}/{_segment(developer)}/{_segment(name)}"
    results = compute(verdicts_of(a) for a in run.answers)
    config = generation_config(run)
    ids = {"schema_version": schema_version, "evaluation_id": evaluation_id, "model_id": model_id}
    lines = []
    for answer in run.answers:
        for metric, level, mode, _ in METRICS:
            rid = f"{answer.row.language}/{answer.row.subset}/{metric}"
            lines.append(json.dumps(_instance(run, answer, ids, rid, level, mode, metric), ensure_ascii=False))
    text = "".join(line + "\n" for line in lines)
    names = {metric: (display, level, mode) for metric, level, mode, display in METRICS}
    m = run.manifest
    scored_at = (m.scored.get(run.mode) or {}).get("scored_at")
    record: dict[str, Any] = {
        "schema_version": schema_version,
        "evaluation_id": evaluation_id,
        "retrieved_timestamp": _epoch(scored_at) or _epoch(m.finished_at) or str(int(datetime.now().timestamp())),
        "source_metadata": {"source_name": "indicifeval run", "source_type": "evaluation_run",
                            "source_organization_name": organization, "evaluator_relationship": relationship,
                            "additional_details": {"run_status": m.status, "scored_at": str(scored_at)}},
        "eval_library": {"name": "indicifeval", "version": m.indicifeval_version or "unknown",
                         "additional_details": {
                             "exported_by": f"indicifeval {__version__}",
                             "scorer_versions": as_text(sorted({a.verdict.version for a in run.answers})),
                             "scoring_mode": run.mode}},
        "model_info": info,
        "evaluation_results": [_result(run, r, *names[r.metric], config) for r in results.values()],
        "detailed_evaluation_results": {
            "format": "jsonl", "file_path": f"{folder}/{file_uuid}_samples.jsonl", "hash_algorithm": "sha256",
            "checksum": sha256_text(text), "total_rows": len(lines),
            "additional_details": {"lines": "one per prompt, sample and aggregate result it feeds",
                                   "rescoring": "metadata.row (the row's instructions and arguments) with input.raw, "
                                                "answer_attribution[-1].extracted_value, metadata.scoring_mode"}},
    }
    if m.finished_at or m.started_at:
        record["evaluation_timestamp"] = str(m.finished_at or m.started_at)
    return folder, record, text


def write(run: RunResults, out: Any, **options: Any) -> list[str]:
    """Write the record and its sidecar under ``out`` (a Path); returns their relative names."""
    from indicifeval.core.files import StagedFiles

    folder, record, text = build(run, **options)
    sidecar = record["detailed_evaluation_results"]["file_path"]
    aggregate = sidecar.replace("_samples.jsonl", ".json")
    with StagedFiles(out) as files:
        files.write_text(aggregate, json.dumps(record, ensure_ascii=False, indent=2) + "\n")
        files.write_bytes(sidecar, text.encode("utf-8", "surrogatepass"))
    return [aggregate, sidecar]


__all__ = ["COLLECTION", "SCHEMA_VERSIONS", "build", "evaluation_name", "verdicts_of", "write"]
