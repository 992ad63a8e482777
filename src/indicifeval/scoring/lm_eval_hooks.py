"""Scoring hooks for lm-evaluation-harness: ``process_results_<subset>_<xx>`` and ``agg_inst_level_acc``.

The packaged task folder (``indicifeval lm-eval-path``) points its YAMLs at these functions
through a one-line ``utils.py`` shim. One function per task, because lm-eval passes only
``(doc, results)``: the language and subset come from the task, never from the doc.

Each hook builds a Row from the doc (the hub's 24-key kwargs, nulls included), drops any
``<think>…</think>`` reasoning from the response, scores the answer with ``score_row`` and
returns IFEval's four metrics. Scoring mode: ``fixed`` unless the environment variable
``INDICIFEVAL_SCORING`` says ``paper`` (read at each call).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from indicifeval.checkers import ScoringMode
from indicifeval.dataset import HUB_REPO, Source, parse_row
from indicifeval.dataset.benchmark import CONFIGS
from indicifeval.languages import INDIC_CODES
from indicifeval.text.reasoning import split_reasoning
from indicifeval.scoring.engine import score_row

SCORING_ENV = "INDICIFEVAL_SCORING"

# The hub's splits: the lm-eval task of each (subset, language) pair.
TASK_LANGUAGES: dict[str, tuple[str, ...]] = {"trans": ("en", *INDIC_CODES), "ground": INDIC_CODES}
ROW_FIELDS = ("key", "prompt", "instruction_id_list", "kwargs", "tags", "resp_lang")


def task_name(subset: str, language: str) -> str:
    return f"indicifeval_{subset}_{language}"


def hook_name(subset: str, language: str) -> str:
    return f"process_results_{subset}_{language}"


def scoring_mode() -> ScoringMode:
    value = os.environ.get(SCORING_ENV, "").strip().lower() or ScoringMode.FIXED.value
    try:
        return ScoringMode(value)
    except ValueError:
        choices = ", ".join(m.value for m in ScoringMode)
        raise ValueError(f"{SCORING_ENV}={value!r}: choose one of {choices}") from None


def _response_text(results: Any) -> str | None:
    """The model's output from lm-eval's ``results`` (normally ``[str]``), whatever arrives."""
    if isinstance(results, (list, tuple)):
        results = results[0] if results else None
    if results is None:
        return None
    if isinstance(results, bytes):
        return results.decode("utf-8", errors="replace")
    return results if isinstance(results, str) else str(results)


def score_doc(doc: dict, results: Any, subset: str, language: str) -> dict[str, Any]:
    """IFEval's four per-doc metrics for one lm-eval doc and its generation."""
    record = {name: doc[name] for name in ROW_FIELDS if name in doc}
    record["language"], record["subset"] = language, subset  # the task decides, not the doc
    where = f"{HUB_REPO}:{CONFIGS[subset]}/{language} (lm-eval task {task_name(subset, language)})"
    row = parse_row(record, Source(where, None), language, subset)  # a malformed doc is a data error: raise
    response = _response_text(results)
    answer = None if response is None else split_reasoning(response).answer
    scored = score_row(row, answer, scoring_mode())
    return {
        "prompt_level_strict_acc": scored.prompt_strict,
        "inst_level_strict_acc": list(scored.strict),
        "prompt_level_loose_acc": scored.prompt_loose,
        "inst_level_loose_acc": list(scored.loose),
    }


def _make_hook(subset: str, language: str) -> Callable[[dict, Any], dict[str, Any]]:
    def process_results(doc: dict, results: Any) -> dict[str, Any]:
        return score_doc(doc, results, subset, language)

    process_results.__name__ = process_results.__qualname__ = hook_name(subset, language)
    process_results.__doc__ = f"lm-eval process_results for {task_name(subset, language)}."
    return process_results


def agg_inst_level_acc(items: Sequence[Sequence[bool]]) -> float:
    """Micro-average over instructions: flatten every doc's per-instruction list, then mean."""
    flat = [bool(v) for doc_items in items for v in doc_items]
    return sum(flat) / len(flat) if flat else float("nan")


__all__ = ["SCORING_ENV", "TASK_LANGUAGES", "agg_inst_level_acc", "hook_name", "score_doc", "scoring_mode", "task_name"]

for _subset, _languages in TASK_LANGUAGES.items():
    for _language in _languages:
        globals()[hook_name(_subset, _language)] = _make_hook(_subset, _language)
        __all__.append(hook_name(_subset, _language))
del _subset, _languages, _language
