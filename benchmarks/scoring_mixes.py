"""Workloads for bench_scoring built from real text in ``../shared/data`` (``--mix``).

- ``real``: the released Nepali rows (Trans and Ground, their own instructions and kwargs) with
  answers made of real Nepali paragraphs (FLORES-200, UDHR; headings, bullets and bold as
  models write them; rows that ask for English answered with a GPT-4 IFEval response), and the
  English IFEval rows with their archived GPT-4 responses, repeated (paragraphs reordered, keys
  renumbered) to about the synthetic workload's size.
- ``langid``: every language, each row with ``language:response_language`` (its own language,
  English or another), answered in real text of its language or, about a third, in English.
- ``long``: long Indic answers (1,500-4,000 words of real paragraphs), a quarter as many rows.

The shared data is third-party and stays outside the repository; without it these mixes are
not available (``available()`` says why) and the benchmark explains and stops.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
MIXES = ("synthetic", "real", "langid", "long")
LANGS = ("as", "bn", "en", "gu", "hi", "kn", "ml", "mr", "ne", "or", "pa", "sa", "ta", "te", "ur")


def shared_folder() -> Path:
    return SHARED


def available() -> str | None:
    """None when the shared data these mixes read is here, else why not."""
    folder = shared_folder()
    for need in ("indicifeval-ne/indicifeval-trans-ne.jsonl", "ifeval-en/input_data_gpt4_20231107_145030.jsonl",
                 "indic-corpus/ne.jsonl"):
        if not (folder / need).is_file():
            return f"{folder / need} is missing (the real-text mixes read ../shared/data beside the project)"
    return None


def _jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _corpus(lang: str) -> list[str]:
    return [d["text"] for d in _jsonl(shared_folder() / "indic-corpus" / f"{lang}.jsonl")]


def _english() -> tuple[list[dict], list[str]]:
    folder = shared_folder() / "ifeval-en"
    rows = _jsonl(folder / "input_data_gpt4_20231107_145030.jsonl")
    answers = {r["prompt"]: r["response"] for r in _jsonl(folder / "input_response_data_gpt4_20231107_145030.jsonl")}
    return rows, [answers[r["prompt"]] for r in rows]


def _shuffled(rng: random.Random, answer: str) -> str:
    parts = answer.split("\n\n")
    rng.shuffle(parts)
    return "\n\n".join(parts)


def _indic_answer(rng: random.Random, docs: list[str], words: tuple[int, int]) -> str:
    """Real paragraphs to about ``words`` words, dressed as a model's answer (a heading, a
    bulleted list, bold terms) about half the time."""
    target, parts, n = rng.randint(*words), [], 0
    while n < target:
        doc = rng.choice(docs)
        parts.extend(doc.split("\n\n"))
        n += len(doc.split())
    if rng.random() < 0.5:
        parts.insert(0, "## " + " ".join(parts[0].split()[:4]))
    if rng.random() < 0.4 and len(parts) > 2:
        sentences = [s for s in parts[-1].split("। ") if s][:4]
        parts[-1] = "\n".join(f"* **{s.split()[0]}** {' '.join(s.split()[1:])}" for s in sentences if s.split())
    return "\n\n".join(p for p in parts if p)


def _kwargs(rng: random.Random, iid: str, words: list[str], lang: str, follow: bool) -> dict:
    """Arguments for ``iid`` on an answer made of ``words``, met about as often as models meet them."""
    used = rng.choice(words) if words else "x"
    if iid == "keywords:existence":
        return {"keywords": rng.sample(words, min(2, len(words))) if follow else ["zzzz"]}
    if iid == "keywords:frequency":
        return {"keyword": used, "frequency": rng.randint(1, 3), "relation": "at least"}
    if iid == "keywords:forbidden_words":
        return {"forbidden_words": ["zzzz"] if follow else [used]}
    if iid == "keywords:letter_frequency":
        return {"letter": used[0], "let_frequency": rng.randint(1, 4), "let_relation": "at least"}
    if iid == "language:response_language":
        return {"language": lang if follow else rng.choice([c for c in LANGS if c != lang])}
    if iid == "length_constraints:number_sentences":
        return {"num_sentences": rng.randint(2, 30), "relation": rng.choice(["at least", "less than"])}
    if iid == "length_constraints:number_words":
        return {"num_words": rng.randint(50, 800), "relation": rng.choice(["at least", "less than"])}
    if iid == "length_constraints:number_paragraphs":
        return {"num_paragraphs": rng.randint(1, 6)}
    if iid == "length_constraints:nth_paragraph_first_word":
        return {"first_word": words[0] if follow and words else used, "nth_paragraph": 1}
    if iid == "detectable_content:number_placeholders":
        return {"num_placeholders": rng.randint(1, 3)}
    if iid == "detectable_content:postscript":
        return {"postscript_marker": "P.S."}
    if iid == "detectable_format:number_bullet_lists":
        return {"num_bullets": rng.randint(2, 5)}
    if iid == "detectable_format:number_highlighted_sections":
        return {"num_highlights": rng.randint(1, 3)}
    if iid == "detectable_format:multiple_sections":
        return {"section_spliter": "SECTION", "num_sections": 2}
    if iid == "combination:repeat_prompt":
        return {"prompt_to_repeat": " ".join(words[:6]) if follow else "zzzz zzzz"}
    if iid == "startend:end_checker":
        return {"end_phrase": " ".join(words[-2:]) if follow else "zzzz"}
    return {}


def _real(n_rows: int, rng: random.Random) -> tuple[list[dict], list[dict]]:
    folder = shared_folder() / "indicifeval-ne"
    ne_rows = [dict(r, subset="trans") for r in _jsonl(folder / "indicifeval-trans-ne.jsonl")]
    ne_rows += [dict(r, subset="ground") for r in _jsonl(folder / "indicifeval-ground-ne.jsonl")]
    en_rows, en_answers = _english()
    docs = _corpus("ne")
    rows: list[dict] = []
    responses: list[dict] = []
    rep = 0
    while len(rows) < n_rows:
        for r in ne_rows:
            english = r.get("resp_lang") == "en"
            answer = _shuffled(rng, rng.choice(en_answers)) if english else _indic_answer(rng, docs, (150, 600))
            key = f"{r['key']}-{rep}"
            rows.append({**r, "key": key, "language": "ne"})
            responses.append({"key": key, "language": "ne", "subset": r["subset"], "response": answer})
        for r, answer in zip(en_rows, en_answers):
            key = f"{r['key']}-{rep}"
            rows.append({"key": key, "language": "en", "subset": "trans", "prompt": r["prompt"],
                         "instruction_id_list": r["instruction_id_list"], "kwargs": r["kwargs"]})
            responses.append({"key": key, "language": "en", "subset": "trans",
                              "response": answer if rep == 0 else _shuffled(rng, answer)})
        rep += 1
    return rows[:n_rows], responses[:n_rows]


def _generic(n_per_lang: int, rng: random.Random, langs, words: tuple[int, int], langid: bool):
    from bench_scoring import GROUND_WEIGHTS, TRANS_COUNTS, TRANS_WEIGHTS, _pick

    _, en_answers = _english()
    rows: list[dict] = []
    responses: list[dict] = []
    for lang in langs:
        docs = _corpus(lang) if lang != "en" else None
        for i in range(n_per_lang):
            subset = "trans" if lang == "en" or langid or rng.random() < 0.6 else "ground"
            if langid:
                ids = ["language:response_language"] + _pick(rng, TRANS_WEIGHTS, rng.choice([0, 0, 1, 2]) + 1)[1:]
                ids = list(dict.fromkeys(ids))
            elif subset == "trans":
                ids = _pick(rng, TRANS_WEIGHTS, rng.choices(list(TRANS_COUNTS), weights=list(TRANS_COUNTS.values()))[0])
            else:
                ids = _pick(rng, GROUND_WEIGHTS, 1)
            english = docs is None or (langid and rng.random() < 0.3) or any(c.startswith("change_case") for c in ids)
            answer = _shuffled(rng, rng.choice(en_answers)) if english else _indic_answer(rng, docs, words)
            tokens = answer.split()
            asked = "en" if english and rng.random() < 0.8 else lang
            # models answer in the language asked for about nine times in ten, other instructions 3 in 4
            kwargs = [_kwargs(rng, iid, tokens, asked, rng.random() < (0.9 if iid.startswith("language:") else 0.75))
                      for iid in ids]
            key = f"{lang}-{i}"
            rows.append({"key": key, "language": lang, "subset": subset, "prompt": f"prompt {key}",
                         "instruction_id_list": ids, "kwargs": kwargs})
            responses.append({"key": key, "language": lang, "subset": subset, "response": answer})
    return rows, responses


def build_mix(mix: str, rows_per_language: int, seed: int = 0) -> tuple[list[dict], list[dict]]:
    """Rows and responses (dicts, as the files hold them) of one mix, about 15 x rows_per_language
    rows (``long``: a quarter as many, each answer several times longer)."""
    rng = random.Random(seed)
    if mix == "real":
        return _real(15 * rows_per_language, rng)
    if mix == "langid":
        return _generic(rows_per_language, rng, LANGS, (100, 500), langid=True)
    if mix == "long":
        return _generic(max(1, rows_per_language // 4), rng, [c for c in LANGS if c != "en"], (1500, 4000), False)
    raise ValueError(mix)
