"""Scoring hooks for lm-evaluation-harness: ``process_results_<subset>_<xx>`` and ``agg_inst_level_acc``.

The task folder (``indicifeval lm-eval-path``) points its YAMLs at these functions through a
small ``utils.py`` shim. One function per task, because lm-eval passes only ``(doc, results)``:
the language and subset come from the task, never from the doc. The functions are made on
first use for every (subset, language) of the benchmark's composition, so a language added by
profile alone has its hook too.

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
from indicifeval.dataset import InputError, Source, parse_row
from indicifeval.languages import composition
from indicifeval.scoring.categories import section_of
from indicifeval.scoring.engine import score_row
from indicifeval.text.reasoning import split_reasoning

SCORING_ENV = "INDICIFEVAL_SCORING"
ROW_FIELDS = ("key", "prompt", "instruction_id_list", "kwargs", "tags", "resp_lang")


def task_languages() -> dict[str, tuple[str, ...]]:
    """The lm-eval task of each (subset, language) pair: the hub's splits (English first in
    Trans, as lm-eval lists it), then any languages added by profile."""
    comp = composition()
    out = {}
    for subset in comp.subsets:
        langs = comp.languages_of(subset)
        out[subset] = tuple(c for c in langs if c not in comp.indic) + tuple(c for c in langs if c in comp.indic)
    return out


# The task names of each report section's rows (``scoring.categories.section_of``): IFEval's
# indicifeval_<subset>_<xx>; the other suites' <prefix>_<xx> on Trans, <prefix>_<subset>_<xx> else.
TASK_PREFIXES = {"ifeval": "indicifeval", "open-instruct": "indicifeval_rl", "ifbench": "indicifbench",
                 "mixed": "indicifeval_mixed"}


def task_name(subset: str, language: str, section: str = "ifeval") -> str:
    prefix = TASK_PREFIXES[section]
    return f"{prefix}_{subset}_{language}" if section == "ifeval" or subset != "trans" else f"{prefix}_{language}"


def docs_hook_name(section: str) -> str:
    return f"docs_{section.replace('-', '_')}"


def _docs_of(section: str) -> Callable[[Any], Any]:
    """lm-eval ``process_docs``: the rows of one section, where a split holds several suites' rows."""
    def process_docs(dataset: Any) -> Any:
        return dataset.filter(lambda doc: section_of(doc["instruction_id_list"]) == section)

    process_docs.__name__ = process_docs.__qualname__ = docs_hook_name(section)
    return process_docs


def hook_name(subset: str, language: str) -> str:
    return f"process_results_{subset}_{language}"


def scoring_mode() -> ScoringMode:
    """The mode the environment asks for (read at each call, so a harness may switch it)."""
    value = os.environ.get(SCORING_ENV, "").strip().lower() or ScoringMode.FIXED.value
    try:
        return ScoringMode(value)
    except InputError:
        choices = ", ".join(m.value for m in ScoringMode)
        raise InputError(f"{SCORING_ENV}={value!r}: choose one of {choices}", field=SCORING_ENV) from None


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
    comp = composition()
    where = f"{comp.hub_repo}:{comp.config_of(subset)}/{language} (lm-eval task {task_name(subset, language)})"
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


def hook_names() -> list[str]:
    return [hook_name(subset, lang) for subset, langs in task_languages().items() for lang in langs]


def __getattr__(name: str) -> Any:
    """``process_results_<subset>_<xx>`` for any task of the composition, made on first use (the
    same for every suite's task: the registry scores any id), and ``docs_<section>``."""
    for section in TASK_PREFIXES:
        if name == docs_hook_name(section):
            docs = globals()[name] = _docs_of(section)
            return docs
    for subset, langs in task_languages().items():
        for lang in langs:
            if name == hook_name(subset, lang):
                hook = globals()[name] = _make_hook(subset, lang)
                return hook
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SCORING_ENV", "TASK_PREFIXES", "agg_inst_level_acc", "docs_hook_name", "hook_name", "hook_names",
           "score_doc", "scoring_mode", "task_languages", "task_name"]
