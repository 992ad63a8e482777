"""Checking an export against Every Eval Ever: a structural check of what the schemas require,
always; the full JSON Schema validation where ../shared holds the schemas (skipped otherwise)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import SHARED

SCHEMAS = SHARED / "data" / "results-formats" / "every-eval-ever"
UUID_PATH = re.compile(r"^data/[^/]+/[^/]+/[^/]+/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-"
                       r"[0-9A-Fa-f]{12}_samples\.jsonl$")
RECORD_KEYS = {"schema_version", "evaluation_id", "retrieved_timestamp", "source_metadata", "model_info",
               "eval_library", "evaluation_results"}
RECORD_ALLOWED = RECORD_KEYS | {"evaluation_timestamp", "detailed_evaluation_results"}
INSTANCE_KEYS = {"schema_version", "evaluation_id", "model_id", "evaluation_name", "sample_id", "interaction_type",
                 "input", "answer_attribution", "evaluation"}
GENERATION_ARGS = {"temperature", "top_p", "top_k", "max_tokens", "execution_command", "reasoning",
                   "prompt_template", "agentic_eval_config", "eval_plan", "eval_limits", "sandbox", "max_attempts",
                   "incorrect_attempt_feedback"}


def _strings_only(value, where: str) -> None:
    """Every ``additional_details``/``details``/``metadata`` map holds strings only."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("additional_details", "details", "metadata", "config") and isinstance(item, dict):
                assert all(isinstance(v, str) for v in item.values()), f"{where}.{key}: {item}"
            _strings_only(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _strings_only(item, f"{where}[{i}]")


def structural(record: dict, lines: list[dict]) -> None:
    assert RECORD_KEYS <= set(record) <= RECORD_ALLOWED, set(record) ^ RECORD_ALLOWED
    assert record["source_metadata"]["source_type"] == "evaluation_run"
    details = record["model_info"]["additional_details"]
    assert details["deployment_type"] in ("self_deployed", "externally_managed", "unknown")
    assert details["model_availability"] in ("open_weights", "closed_weights", "unknown")
    for result in record["evaluation_results"]:
        assert {"evaluation_name", "source_data", "metric_config", "score_details"} <= set(result)
        assert result["source_data"]["source_type"] in ("hf_dataset", "url", "other")
        config = result["metric_config"]
        assert config["lower_is_better"] is False and config["min_score"] == 0 and config["max_score"] == 1
        assert isinstance(result["score_details"]["score"], float)
        assert set(result["generation_config"]["generation_args"]) <= GENERATION_ARGS
    detail = record["detailed_evaluation_results"]
    assert detail["format"] == "jsonl" and UUID_PATH.match(detail["file_path"]), detail["file_path"]
    assert detail["total_rows"] == len(lines)
    _strings_only(record, "record")
    ids = {r["evaluation_result_id"] for r in record["evaluation_results"]}
    for line in lines:
        assert INSTANCE_KEYS <= set(line) and line["evaluation_id"] == record["evaluation_id"]
        assert line["evaluation_result_id"] in ids and line["interaction_type"] == "single_turn"
        assert line["messages"] is None and isinstance(line["output"]["raw"], list)
        assert isinstance(line["answer_attribution"][-1]["extracted_value"], str)
        _strings_only(line, "line")


def validate(record: dict, lines: list[dict]) -> None:
    """The structural check; then, where ../shared has the schemas, jsonschema's validation."""
    structural(record, lines)
    folder = SCHEMAS / record["schema_version"]
    if not folder.is_dir():
        return
    jsonschema = pytest.importorskip("jsonschema")
    eval_schema = json.loads((folder / "eval.schema.json").read_text(encoding="utf-8"))
    instance_schema = json.loads((folder / "instance_level_eval.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(eval_schema).validate(record)
    validator = jsonschema.Draft7Validator(instance_schema)
    for line in lines:
        validator.validate(line)


def read_export(folder: Path) -> list[tuple[dict, list[dict]]]:
    out = []
    for path in sorted((folder / "data").rglob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        sidecar = folder / record["detailed_evaluation_results"]["file_path"]
        out.append((record, [json.loads(t) for t in sidecar.read_text(encoding="utf-8").splitlines()]))
    return out


def schemas_present() -> bool:
    return SCHEMAS.is_dir()
