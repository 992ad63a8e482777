"""English verdicts of IFBench's custom:* and sentence:* ids against the reference code, from a
local IFBench checkout (INDICIFEVAL_IFBENCH=/path/to/IFBench; skipped without it or without
its dependencies: nltk, emoji, syllapy, immutabledict).

NLTK's punkt data cannot be downloaded here: the reference's ``nltk.sent_tokenize`` is given
NLTK's own Punkt tokenizer with the same English tables (``punkt_en._tokenizer``), and its
start-up downloads are skipped. Two kinds of answer are compared: seeded generated ones
(tests/checkers/custom_answers.py; each with its eight loose variants) and the reference's own
sample outputs with its published strict and loose verdicts. Every disagreement must be one of
the documented corrections (docs/scoring.md)."""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest

from indicifeval.checkers import REGISTRY, TextView, clean_kwargs, get_rules, resolve_args
from indicifeval.text.variants import LOOSE_CUTS
from tests.checkers.custom_answers import GENERATORS, answers
from tests.conftest import make_row

IDS = sorted(GENERATORS)
SEEDS = range(4)


@pytest.fixture(scope="module")
def reference():
    root = os.environ.get("INDICIFEVAL_IFBENCH")
    if not root:
        pytest.skip("set INDICIFEVAL_IFBENCH to an IFBench checkout to compare with the reference")
    if not (Path(root) / "ifbench" / "instructions.py").is_file():
        pytest.skip(f"INDICIFEVAL_IFBENCH={root} has no ifbench/instructions.py")
    for dependency in ("nltk", "emoji", "syllapy", "immutabledict"):
        pytest.importorskip(dependency, reason=f"the IFBench reference needs {dependency}")
    import nltk

    from indicifeval.text import punkt_en

    tokenizer = punkt_en._tokenizer()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(nltk, "download", lambda *args, **kwargs: False)
        patch.setattr(nltk, "sent_tokenize", lambda text, language="english": tokenizer.tokenize(text))
        patch.syspath_prepend(root)
        registry = importlib.import_module("ifbench.instructions_registry")
        yield Path(root), registry.INSTRUCTION_DICT
        for name in [m for m in sys.modules if m == "ifbench" or m.startswith("ifbench.")]:
            del sys.modules[name]


def _reference_verdict(table, iid: str, kwargs: dict, text: str) -> bool | None:
    """The reference's check_following, or None where it raises."""
    instruction = table[iid](iid)
    instruction.build_description(**kwargs)
    try:
        return bool(instruction.check_following(text))
    except Exception:
        return None


def _ours(iid: str, kwargs: dict, text: str) -> tuple[bool, str]:
    rules = get_rules("en", "trans", "fixed")
    args = resolve_args(iid, clean_kwargs(iid, kwargs), rules, None)  # type: ignore[arg-type]
    return REGISTRY[iid].fn(TextView(text, rules), args, rules)


def documented(iid: str, ref: bool, ours: bool, why: str) -> bool:
    """The deliberate differences (corrections of reference bugs, docs/scoring.md):
    month or day 00 is no date; every CSV row needs its 5 fields, also after the special one."""
    if iid == "custom:date_format_list":
        return ref and not ours and ("has no month 0" in why or "has no day 0" in why)
    if iid == "custom:csv_special_character":
        return ref and not ours and "fields, needed 5" in why
    return False


@pytest.mark.parametrize("iid", IDS)
def test_generated_english_answers_agree(reference, iid):
    _, table = reference
    seen = agreed = crashed = 0
    undocumented = []
    for seed in SEEDS:
        for kwargs, response in answers(iid, seed):
            for text in dict.fromkeys(cut.apply(response) for cut in LOOSE_CUTS):
                if not text.strip():
                    continue  # (both scorers fail an empty variant before any check)
                ref = _reference_verdict(table, iid, kwargs, text)
                ours, why = _ours(iid, kwargs, text)
                if ref is None:  # the reference raises: we fail it, and say why
                    crashed += 1
                    assert not ours and why, (iid, text[:80])
                    continue
                seen += 1
                agreed += ref == ours
                if ref != ours and not documented(iid, ref, ours, why):
                    undocumented.append((ref, ours, why, text[:120]))
    print(f"\n{iid}: {agreed}/{seen} agree ({agreed / max(seen, 1):.2%}); reference raised on {crashed}")
    assert seen > 100
    assert not undocumented, undocumented[:5]


def test_the_reference_s_published_verdicts(reference):
    """Its sample outputs, scored by us, with its strict and loose verdicts for our ids."""
    root, _ = reference
    prompts = {}
    for line in (root / "data" / "IFBench_test.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        prompts[record["prompt"]] = record
    loose = {json.loads(line)["prompt"]: json.loads(line) for line in
             (root / "eval" / "eval_results_loose.jsonl").read_text(encoding="utf-8").splitlines()}
    from indicifeval.scoring.engine import score_row

    counts: Counter[str] = Counter()
    wrong = []
    for line in (root / "eval" / "eval_results_strict.jsonl").read_text(encoding="utf-8").splitlines():
        strict = json.loads(line)
        ids = strict["instruction_id_list"]
        if not any(i in REGISTRY and REGISTRY[i].suite == "ifbench" and i in IDS for i in ids):
            continue
        # (a few published prompts run several test rows together: there, only ids without kwargs)
        row = prompts.get(strict["prompt"]) or {"instruction_id_list": ids, "kwargs": [None] * len(ids)}
        for k, (iid, kwargs) in enumerate(zip(row["instruction_id_list"], row["kwargs"])):
            if iid not in IDS:
                continue
            if kwargs is None:
                if REGISTRY[iid].params:
                    counts["no kwargs"] += 1
                    continue
                kwargs = {}
            kwargs = {name: value for name, value in kwargs.items() if value is not None}
            s = score_row(make_row(iid, kwargs, "en"), strict["response"], "fixed")
            expected = (strict["follow_instruction_list"][k], loose[strict["prompt"]]["follow_instruction_list"][k])
            counts["verdicts"] += 1
            counts["agree"] += (s.strict[0], s.loose[0]) == expected
            if (s.strict[0], s.loose[0]) != expected:
                wrong.append((iid, expected, (s.strict[0], s.loose[0]), s.explanations[0]))
    print(f"\npublished verdicts: {counts['agree']}/{counts['verdicts']} (strict and loose) agree; "
          f"{counts['no kwargs']} left out (their row's kwargs cannot be found)")
    assert counts["verdicts"] >= 30
    assert not wrong, wrong
