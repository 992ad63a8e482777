"""Scoring time on degenerate answers: every checker, both modes, Indic and English rows.

Benchmark answers are not always prose: a model can loop on one character for its whole
budget, and scorers used as reward functions meet such answers by the million. Each case is
one row with one instruction, scored strict + loose (up to eight variants), on a pattern
repeated to the given size between two letters (so the answer is never blank):

    python benchmarks/bench_degenerate.py                   # 10 kB, 100 kB, 1 MB; 10 MB prose
    python benchmarks/bench_degenerate.py --sizes 10k,40k   # quick (e.g. on an older version)
    python benchmarks/bench_degenerate.py --checkers title,number_sentences --patterns brackets
    python benchmarks/bench_degenerate.py --languages ur --big 0        # another script
    python benchmarks/bench_degenerate.py --checkers numbers:,units: --modes fixed --big 0 \
        --patterns dollar-ones,km-ones,comma-ones,digits,native-digits,native-dots,lakh-words  # numerals

Prints the slowest cases per size (CPU and wall seconds), the growth from one size to the
next (about 10x for linear time, 100x for quadratic) for the slowest case and for the case
that grows most, and the targets: no row of up to 1 MB over 1 s, a 10 MB answer under 10 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from itertools import pairwise

PATTERNS = {
    "ka-dot": "क.",
    "a-dot": "a.",
    "initials": "A. ",
    "digit-dot": "1.",
    "danda": "।",
    "urdu-stop": "۔",
    "newlines": "\n",
    "spaces": " ",
    "space-newline": " \n",
    "crlf": "\r\n",
    "blank-paragraphs": "\n\n!",
    "brackets": "[",
    "brackets-lines": "[[[ \n",
    "angles": "<",
    "angles-a": "<<a",
    "stars": "*",
    "star-lines": "*\n",
    "dash-lines": "-\n",
    "hashes": "#",
    "quotes": '"',
    "braces": "{",
    "exclaims": "!",
    "punct-run": ".,;:!?",
    "postscript-lines": "P.S. \n",
    "section-lines": "SECTION 1\n",
    "upper-words": "AB ",
    "hindi-words": "किताब ",
    "joiners": "\u200d",
    "virama": "\u094d",
    "nfd-accents": "e\u0301",
    "separators": "******",
    "open-bang": "(((!",  # a stretch of Punkt candidates after many non-candidate tokens
    "initial-lines": "A.\n",
    # numbers and units (numbers:*, units:*): every token a number, an amount or a unit
    "dollar-ones": "$1",
    "rupee-ones": "Rs.1 ",
    "km-ones": "1 km ",
    "foot-ones": "1 foot ",
    "comma-ones": "1,",
    "digits": "1",
    "spaced-digits": "1 ",
    "dashed-digits": "1-",
    "native-digits": "१",
    "native-dots": "१.",
    "lakh-words": "लाख ",
    "crore-amounts": "1 करोड़ ",
    "ten-lakh": "दस लाख ",
}
# The growth of cases under this many CPU seconds (at the larger size) is mostly noise.
GROWTH_FLOOR = 0.01

# Arguments for each instruction: constraints a degenerate answer can meet or miss.
ARGS = {
    "length_constraints:number_sentences": {"num_sentences": 3, "relation": "at least"},
    "length_constraints:number_words": {"num_words": 3, "relation": "at least"},
    "length_constraints:number_paragraphs": {"num_paragraphs": 3},
    "length_constraints:nth_paragraph_first_word": {"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "क"},
    "detectable_content:number_placeholders": {"num_placeholders": 2},
    "detectable_content:postscript": {"postscript_marker": "P.S."},
    "detectable_format:number_bullet_lists": {"num_bullets": 2},
    "detectable_format:number_highlighted_sections": {"num_highlights": 2},
    "detectable_format:multiple_sections": {"section_spliter": "SECTION", "num_sections": 2},
    "detectable_format:title": {},
    "detectable_format:json_format": {},
    "detectable_format:constrained_response": {},
    "change_case:capital_word_frequency": {"capital_frequency": 2, "capital_relation": "at least"},
    "change_case:english_capital": {},
    "change_case:english_lowercase": {},
    "keywords:existence": {"keywords": ["किताब", "book"]},
    "keywords:frequency": {"keyword": "किताब", "frequency": 2, "relation": "at least"},
    "keywords:forbidden_words": {"forbidden_words": ["किताब", "book"]},
    "keywords:letter_frequency": {"letter": "a", "let_frequency": 2, "let_relation": "at least"},
    "language:response_language": {"language": "hi"},
    "punctuation:no_comma": {},
    "startend:end_checker": {"end_phrase": "किताब"},
    "startend:quotation": {},
    "combination:two_responses": {},
    "combination:repeat_prompt": {"prompt_to_repeat": "किताब पढ़ो"},
    # IFBench's words:* (fixed mode)
    "words:alphabet": {},
    "words:vowel": {},
    "words:consonants": {},
    "words:palindrome": {},
    "words:prime_lengths": {},
    "words:start_verb": {},
    "words:repeats": {"small_n": 2},
    "words:odd_even_syllables": {},
    "words:last_first": {},
    "words:paragraph_last_first": {},
    "words:no_consecutive": {},
    "words:keywords_specific_position": {"keyword": "किताब", "n": 2, "m": 3},
    "words:words_position": {"keyword": "किताब"},
    # IFBench's count:, ratio: and repeat: ids (fixed mode only)
    "count:word_count_range": {"min_words": 3, "max_words": 300},
    "count:unique_word_count": {"N": 3},
    "count:conjunctions": {"small_n": 2},
    "count:person_names": {"N": 2},
    "count:pronouns": {"N": 3},
    "count:numbers": {"N": 3},
    "count:punctuation": {},
    "count:keywords_multiple": {"keyword1": "किताब", "keyword2": "a", "keyword3": "AB", "keyword4": "book",
                                "keyword5": "x"},
    "count:words_japanese": {"N": 3},
    "ratio:stop_words": {"percentage": 40},
    "ratio:sentence_type": {},
    "ratio:sentence_balance": {},
    "ratio:sentence_words": {},
    "ratio:overlap": {"reference_text": "किताब पढ़ो। Read the book.", "percentage": 50},
    "repeat:repeat_change": {"prompt_to_repeat": "किताब पढ़ो और लिखो"},
    "repeat:repeat_simple": {},
    "repeat:repeat_span": {"prompt_to_repeat": "किताब पढ़ो और लिखो", "n_start": 1, "n_end": 2},
    # IFBench's custom:* and sentence:* (fixed mode)
    "custom:character_reverse": {},
    "custom:csv_city": {},
    "custom:csv_quotes": {},
    "custom:csv_special_character": {},
    "custom:date_format_list": {},
    "custom:european_capitals_sort": {},
    "custom:mcq_count_length": {},
    "custom:multiples": {},
    "custom:reverse_newline": {},
    "custom:sentence_alphabet": {},
    "custom:word_reverse": {},
    "sentence:alliteration_increment": {},
    "sentence:increment": {"small_n": 2},
    "sentence:keyword": {"word": "किताब", "N": 2},
    # beyond the paper: numerals and units (fixed mode)
    "numbers:native_digits": {},
    "numbers:ascii_digits": {},
    "numbers:spelled_out": {},
    "numbers:indian_system": {},
    "numbers:international_system": {},
    "units:metric": {},
    "units:imperial": {},
}


def parse_size(text: str) -> int:
    text = text.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * scale)


def degenerate(pattern: str, size: int) -> str:
    body = (pattern * (size // len(pattern) + 1))[: max(0, size - 2)]
    return "x" + body + "x"


def prose(language: str, size: int) -> str:
    """Plausible long answers: sentences, paragraphs, bullets, capitals (seeded)."""
    rng = random.Random(0)
    vocab = (["किताब", "पढ़ना", "भारत", "सुंदर", "है", "और", "में", "AI", "डॉ."] if language == "hi" else
             ["The", "quick", "brown", "FOX", "jumps", "over", "lazy", "dog", "Dr.", "U.S.", "NASA"])
    end = "।" if language == "hi" else "."
    parts: list[str] = []
    total = 0
    while total < size:
        sentence = " ".join(rng.choice(vocab) for _ in range(rng.randint(5, 15))) + end
        if rng.random() < 0.1:
            sentence = "\n\n" + sentence
        elif rng.random() < 0.05:
            sentence = "\n* " + sentence
        parts.append(sentence)
        total += len(sentence) + 1
    return " ".join(parts)[:size]


def make_rows(checkers: list[str], language: str):
    from indicifeval.checkers import REGISTRY
    from indicifeval.dataset import Source, parse_row
    from indicifeval.languages import get_profile

    rows = {}
    for iid in checkers:
        if REGISTRY[iid].requires is not None and REGISTRY[iid].requires(get_profile(language)) is not None:
            continue  # not asked in this language (numbers:native_digits in English)
        record = {"key": 1, "prompt": "p", "instruction_id_list": [iid], "kwargs": [ARGS[iid]],
                  "language": language, "subset": "trans"}
        rows[iid] = parse_row(record, Source("<bench>", 1))
    return rows


def asked(rows: dict, mode: str) -> list:
    """The rows a mode scores: the paper's instructions only in paper mode."""
    from indicifeval.checkers import REGISTRY

    return [(iid, row) for iid, row in rows.items() if mode != "paper" or not REGISTRY[iid].fixed_only]


def time_case(row, text: str, mode: str) -> tuple[float, float]:
    from indicifeval.scoring.engine import score_row

    cpu, wall = time.process_time(), time.perf_counter()
    score_row(row, text, mode)
    return time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10k,100k,1m", help="answer sizes in characters (default 10k,100k,1m)")
    parser.add_argument("--big", default="10m", help="size of the prose and degenerate big-answer cases ('0': none)")
    parser.add_argument("--checkers", default="", help="substrings of instruction ids to keep (default: all)")
    parser.add_argument("--patterns", default="", help="pattern names to keep (default: all)")
    parser.add_argument("--languages", default="hi,en", help="row languages (default hi,en)")
    parser.add_argument("--modes", default="fixed,paper", help="scoring modes (default fixed,paper)")
    parser.add_argument("--top", type=int, default=8, help="slowest cases shown per size (default 8)")
    args = parser.parse_args(argv)

    from indicifeval.checkers import REGISTRY

    wanted = [c for c in args.checkers.split(",") if c]
    missing = {i for i in REGISTRY if not wanted or any(w in i for w in wanted)} - set(ARGS)
    if missing:
        print(f"no benchmark arguments for {sorted(missing)}", file=sys.stderr)
        return 2
    checkers = [i for i in ARGS if not wanted or any(w in i for w in wanted)]
    names = [p for p in args.patterns.split(",") if p] or list(PATTERNS)
    sizes = [parse_size(s) for s in args.sizes.split(",") if s]
    languages = [x for x in args.languages.split(",") if x]
    modes = [m for m in args.modes.split(",") if m]
    rows = {lang: make_rows(checkers, lang) for lang in languages}
    for lang in languages:  # load models (CLD2, punkt, langdetect) before timing
        for mode in modes:
            for _iid, row in asked(rows[lang], mode):
                time_case(row, "warm up. उपयोग।", mode)

    print(f"{len(checkers)} checkers x {len(names)} patterns x {len(languages)} languages x {len(modes)} modes")
    worst_by_size: dict[int, dict[tuple, float]] = {}
    for size in sizes:
        results: dict[tuple, tuple[float, float]] = {}
        for name in names:
            text = degenerate(PATTERNS[name], size)
            for lang in languages:
                for mode in modes:
                    for iid, row in asked(rows[lang], mode):
                        results[(iid, mode, lang, name)] = time_case(row, text, mode)
        worst_by_size[size] = {k: v[0] for k, v in results.items()}
        total = sum(v[0] for v in results.values())
        print(f"\n== {size:,} characters: {len(results)} cases, {total:.1f} s CPU in all; slowest:")
        print(f"  {'instruction':44} {'mode':6} {'lang':4} {'pattern':17} {'CPU s':>8} {'wall s':>8}")
        for (iid, mode, lang, name), (cpu, wall) in sorted(results.items(), key=lambda kv: -kv[1][0])[: args.top]:
            print(f"  {iid:44} {mode:6} {lang:4} {name:17} {cpu:8.3f} {wall:8.3f}")
    for small, large in pairwise(sizes):
        a, b = worst_by_size[small], worst_by_size[large]
        key = max(b, key=b.get)
        ratio = b[key] / max(a[key], 1e-4)
        print(f"\ngrowth {small:,} -> {large:,} characters ({large / small:.0f}x longer) for the slowest case "
              f"{key[0]} {key[1]} {key[2]} {key[3]}: {ratio:.1f}x")
        timed = [k for k in b if b[k] >= GROWTH_FLOOR]
        if timed:
            key = max(timed, key=lambda k: b[k] / max(a[k], 1e-4))
            print(f"largest growth (cases over {GROWTH_FLOOR} s): {key[0]} {key[1]} {key[2]} {key[3]}: "
                  f"{b[key] / max(a[key], 1e-4):.1f}x ({a[key]:.3f} s -> {b[key]:.3f} s)")
    if sizes:
        top = max(sizes)
        worst = max(worst_by_size[top].values())
        print(f"\nslowest row at {top:,} characters: {worst:.3f} s CPU" +
              (" (target: under 1 s at 1,000,000)" if top >= 1_000_000 else ""))

    big = parse_size(args.big)
    if big:
        print(f"\n== {big:,}-character answers, every checker (strict + loose):")
        cases = [(f"prose-{lang}", lang, prose(lang, big)) for lang in languages]
        cases += [(name, lang, degenerate(PATTERNS[name], big)) for name in ("ka-dot", "brackets", "newlines")
                  if name in names for lang in languages[:1]]
        cases += [(f"{name}-en", "en", degenerate(PATTERNS[name], big)) for name in ("initials", "blank-paragraphs")
                  if name in names and "en" in languages]
        slowest = 0.0
        for label, lang, text in cases:
            for mode in modes:
                times = {iid: time_case(row, text, mode)[0] for iid, row in asked(rows[lang], mode)}
                if not times:
                    continue
                iid = max(times, key=times.get)
                slowest = max(slowest, times[iid])
                print(f"  {label:18} {mode:6} slowest {iid:44} {times[iid]:7.2f} s CPU; "
                      f"all {sum(times.values()):7.2f} s")
        print(f"slowest {big:,}-character row: {slowest:.2f} s CPU (target: under 10 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
