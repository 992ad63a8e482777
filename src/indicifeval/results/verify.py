"""``results verify``: score an Every Eval Ever export again from its instance lines alone (the
prompt, the row's instructions and arguments in ``metadata.row``, the answer as it was scored)
and check that every verdict and every aggregate result (score and interval) comes out exactly
as exported, and that the sidecar is the file the record names (checksum, rows)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.dataset import Row
from indicifeval.results.metrics import Verdicts, compute
from indicifeval.scoring.api import score_rows


def records(folder: Path) -> list[Path]:
    """The aggregate records of an export folder."""
    return sorted(p for p in (folder / "data").rglob("*.json") if p.is_file()) if (folder / "data").is_dir() else []


def _read_lines(path: Path, problems: list[str]) -> list[dict[str, Any]]:
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            lines.append(json.loads(text))
        except ValueError:
            problems.append(f"{path.name} line {number}: not JSON")
    return lines


def _answers(lines: list[dict[str, Any]], problems: list[str]) -> dict[tuple[str, int], dict[str, Any]]:
    """One entry per prompt and sample, from its lines (which must agree on what was scored)."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for line in lines:
        meta = line.get("metadata") or {}
        answer = {"row": meta.get("row"), "prompt": (line.get("input") or {}).get("raw"),
                  "text": None if meta.get("response_missing") == "true"
                  else (line.get("answer_attribution") or [{}])[-1].get("extracted_value"),
                  "mode": meta.get("scoring_mode"), "strict": meta.get("strict"), "loose": meta.get("loose")}
        key = (str(line.get("sample_id")), int(meta.get("sample") or 0))
        if key in out and out[key] != answer:
            problems.append(f"{key[0]} sample {key[1]}: its lines disagree on the answer or the row")
        out.setdefault(key, answer)
    return out


def verify_record(path: Path, root: Path) -> list[str]:
    """The differences between one exported record and its re-scoring (empty: reproduced)."""
    problems: list[str] = []
    record = json.loads(path.read_text(encoding="utf-8"))
    detail = record.get("detailed_evaluation_results") or {}
    sidecar = root / str(detail.get("file_path") or "")
    if not sidecar.is_file():
        return [f"{path.name}: its instance file {detail.get('file_path')} is missing"]
    if detail.get("checksum") and hashlib.sha256(sidecar.read_bytes()).hexdigest() != detail["checksum"]:
        problems.append(f"{sidecar.name}: sha256 differs from the record's checksum")
    lines = _read_lines(sidecar, problems)
    if detail.get("total_rows") is not None and detail["total_rows"] != len(lines):
        problems.append(f"{sidecar.name}: {len(lines)} lines, the record says {detail['total_rows']}")
    answers = _answers(lines, problems)
    pairs, keys = [], []
    for (sample_id, sample), a in answers.items():
        try:
            row = Row.from_json({**json.loads(a["row"]), "prompt": a["prompt"]})
        except (TypeError, ValueError, KeyError):
            problems.append(f"{sample_id} sample {sample}: metadata.row does not hold the row")
            continue
        pairs.append((row, a["text"]))
        keys.append((sample_id, sample, a))
    modes = {a["mode"] for _, _, a in keys}
    if len(modes) > 1:
        problems.append(f"the instance lines name several scoring modes: {sorted(map(str, modes))}")
    if not pairs:
        return [*problems, f"{sidecar.name}: no instance lines to score"]
    scores = score_rows(pairs, str(next(iter(modes))))
    items = []
    for (sample_id, sample, a), score in zip(keys, scores):
        for name, got in (("strict", score.strict), ("loose", score.loose)):
            if a[name] is not None and json.loads(a[name]) != got:
                problems.append(f"{sample_id} sample {sample}: {name} verdicts {a[name]} exported, {got} re-scored")
        items.append(Verdicts(score.language, score.subset, str(score.key), sample, tuple(score.strict),
                              tuple(score.loose)))
    results = compute(items)
    exported = {r.get("evaluation_result_id"): r for r in record.get("evaluation_results") or []}
    for rid in sorted(set(exported) | set(results)):
        if rid not in results:
            problems.append(f"{rid}: exported, but no instance line feeds it")
            continue
        if rid not in exported:
            problems.append(f"{rid}: the instance lines feed it, the record has no such result")
            continue
        result, details = results[rid], exported[rid].get("score_details") or {}
        if details.get("score") != result.score:
            problems.append(f"{rid}: score {details.get('score')} exported, {result.score} re-scored")
        interval = (details.get("uncertainty") or {}).get("confidence_interval") or {}
        if (interval.get("lower"), interval.get("upper")) != (result.low, result.high):
            problems.append(f"{rid}: interval {interval.get('lower')}-{interval.get('upper')} exported, "
                            f"{result.low}-{result.high} re-scored")
    for line in lines:
        if line.get("evaluation_result_id") not in exported:
            problems.append(f"{line.get('sample_id')}: a line for {line.get('evaluation_result_id')}, not in the "
                            f"record")
            break
    return [f"{path.name}: {p}" if not p.startswith(path.name) else p for p in problems]


def verify(folder: str | Path) -> tuple[int, int, list[str]]:
    """(records checked, results checked, differences) for an export folder."""
    root = Path(folder)
    found = records(root)
    if not found:
        raise InputError("no Every Eval Ever record here (data/<collection>/<developer>/<model>/<uuid>.json; "
                         "`indicifeval results export RUN --format every-eval-ever --out DIR` writes one)", str(root))
    problems: list[str] = []
    results = 0
    for path in found:
        problems += verify_record(path, root)
        results += len(json.loads(path.read_text(encoding="utf-8")).get("evaluation_results") or [])
    return len(found), results, problems


__all__ = ["records", "verify", "verify_record"]
