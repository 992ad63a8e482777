"""How well ``language:romanized`` recognises Indic text in Latin letters that we did not write.

    python benchmarks/romanized_accuracy.py                      # ITRANS, 300 sentences a language
    python benchmarks/romanized_accuracy.py --scheme casual --json /tmp/romanized.json

Native sentences (4-40 words) from the real corpus (../shared/data/indic-corpus: FLORES-200, UDHR,
UD; <lang>.jsonl) are romanised with indic-nlp-library's ``ItransTransliterator.to_itrans``, lower-cased,
with ITRANS's markers (``.m ~N R^i *``) and anything left non-ASCII dropped. Each romanised sentence goes
through every language's checker: accepted as its own language is recall, as another a false accept
(worst other language and the rate over all other languages). English sentences (the archived GPT-4
responses in ../shared/data/ifeval-en) go through every checker too: any acceptance is false.

indic-nlp has one romanisation only (ITRANS; its map, ``offset_itrans_map.csv``, is in
indic_nlp_resources: pass ``--resources`` or INDIC_RESOURCES_PATH, else the copy below is used) and none
for the Urdu (Arabic) script, which is skipped as a source (its checker still sees the rest).
``--scheme casual`` is not the library's: ITRANS plus three rules of ours nearer to chat typing (final
schwa dropped in as bn gu hi mr ne pa, anusvara as n, ii/uu and a final aa shortened).

Not one of these sentences trains the model (text.romanized_build reads the project's own text
only; the corpus is CC BY-SA and stays outside the package), so the whole corpus is held out. Hindi
and Urdu, typed alike, accept each other: that is not counted as a false accept. English: only the
sentences ``text.langid.identify`` takes for English (the responses hold some answers in other
languages), and the English answers of the bundled sample (``--sample``). ``--colloquial`` adds the
hand-written chat-spelling answers of tests/fixtures/romanized/colloquial.json.

Caveat: ITRANS spells every inherent vowel and long vowel (``ghara``, ``nahii.m``), and these are formal,
edited texts (news, law), so few of the common chat words the checker counts occur; recall here is a
lower bound for chat romanisation, and the false-accept rates, on parallel FLORES text of related
languages (hi/ur share most romanised words by design), an upper bound for real chat.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import unicodedata
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "data" / "indic-corpus"
ENGLISH = ROOT.parent / "shared" / "data" / "ifeval-en" / "input_response_data_gpt4_20231107_145030.jsonl"
# indic_nlp_resources@5b4ff17 transliterate/offset_itrans_map.csv (MIT): the offsets with a Latin value
# ('-': none; the library then keeps the character itself, as the csv does); 0x4d (virama) is empty
_ITRANS_RUNS = {
    0x02: ".m H",
    0x05: "a aa i ii u uu R^i L^i - .e e ai - .o o au ka kha ga gha ~Na cha Cha ja jha ~na Ta Tha Da Dha Na "
          "ta tha da dha na *na pa pha ba bha ma ya ra Ra la lda zha va sha Sha sa ha",
    0x3d: ".a aa i ii u uu R^i R^I - .e e ai - .o o au",
    0x50: "AUM",
    0x60: "R^I L^I L^i L^I . .. 0 1 2 3 4 5 6 7 8 9",
    0x7f: "a",
}
SCHWA_DELETING = {"as", "bn", "gu", "hi", "mr", "ne", "pa"}
# letters outside that Devanagari-based map, as the same-sounding letter it has: Assamese ra and wa, Bengali
# khanda ta, Gurmukhi tippi (a nasal, like bindi), Odia yya and wa; else they would be dropped
OWN_LETTERS = str.maketrans({"\u09f0": "\u09b0", "\u09f1": "\u09ac", "\u09ce": "\u09a4\u09cd", "\u0a70": "\u0a02",
                             "\u0b5f": "\u0b2f", "\u0b71": "\u0b35"})


def load_transliterator(resources: str | None):
    from indicnlp import common, langinfo
    from indicnlp.transliterate import unicode_transliterate as ut

    if resources:
        common.set_resources_path(resources)
        ut.init()
    else:
        for start, run in _ITRANS_RUNS.items():
            ut.OFFSET_TO_ITRANS.update({start + i: v for i, v in enumerate(run.split()) if v != "-"})
    return ut.ItransTransliterator.to_itrans, langinfo.SCRIPT_RANGES


def romanise(text: str, code: str, to_itrans, base: int, scheme: str) -> tuple[str, int]:
    """The sentence in Latin letters, and how many of its letters had no Latin value (dropped)."""
    text = unicodedata.normalize("NFC", text).translate(OWN_LETTERS).replace(chr(base + 0x3C), "")  # nukta: none
    if scheme == "casual" and code in SCHWA_DELETING:  # a word-final bare consonant gets a virama
        block, signs = f"{chr(base)}-{chr(base + 0x7F)}", [(0x01, 0x03), (0x3C, 0x4D), (0x51, 0x57), (0x62, 0x63)]
        marks = "".join(f"{chr(base + a)}-{chr(base + b)}" for a, b in [*signs, (0x70, 0x71)])
        text = re.sub(rf"(?<=[{block}])([{chr(base + 0x15)}-{chr(base + 0x39)}])(?![\w{marks}])",
                      rf"\1{chr(base + 0x4D)}", text)
    out = to_itrans(text, code).lower()
    if scheme == "casual":
        out = re.sub(r"\.m|~n|\.n", "n", out).replace("ii", "i").replace("uu", "u")
        out = re.sub(r"aa\b", "a", out)
    out = re.sub(r"[.~^*](?=[a-z])", "", out)
    dropped = sum(1 for ch in out if ord(ch) > 0x7E and unicodedata.category(ch)[0] in "LM")
    return re.sub(r"\s+", " ", re.sub(r"[^\x20-\x7e]", "", out)).strip(), dropped


def spread(items: list, n: int) -> list:
    """n items evenly spaced over the list (all if fewer): every source and article, no randomness."""
    return items if len(items) <= n else [items[i * len(items) // n] for i in range(n)]


def sentences_of(texts: list[str], code: str, n: int) -> list[str]:
    from indicifeval.languages import get_profile
    from indicifeval.text.sentences import split_sentences
    from indicifeval.text.words import words

    profile, found = get_profile(code), []
    for text in texts:
        for para in text.split("\n\n"):
            found += [s for s in split_sentences(para, profile.sentence_terminators, profile.abbreviations)
                      if 4 <= len(words(s)) <= 40]
    return spread(found, n)


def read_jsonl(path: Path, field: str) -> list[str]:
    return [json.loads(line)[field] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


SAME = {"hi": {"ur"}, "ur": {"hi"}}  # typed alike: accepting each other is right
COLLOQUIAL = ROOT / "tests" / "fixtures" / "romanized" / "colloquial.json"


def english_answers() -> list[str]:
    """The bundled sample's English answers: the English rows' and the Indic rows' refused ones."""
    from indicifeval.languages import get_profile
    from indicifeval.text.langid import identify
    from indicifeval.text.sentences import split_sentences

    found, sample = [], ROOT / "src" / "indicifeval" / "sample"
    romanised = {json.loads(line)["key"] for path in sample.glob("*rows.jsonl")  # the rows that ask for it
                 for line in path.read_text(encoding="utf-8").splitlines()
                 if "language:romanized" in line and json.loads(line)["key"].endswith("-pass")}
    for path in sorted(sample.glob("*responses.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            key, text = json.loads(line)["key"], json.loads(line)["response"]
            if key not in romanised and text.isascii() and identify(text).language == "en":
                en = get_profile("en")
                found += [s for s in split_sentences(text, en.sentence_terminators, en.abbreviations) if len(s) > 20]
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of <lang>.jsonl (indic-corpus)")
    ap.add_argument("--english", type=Path, default=ENGLISH, help="jsonl with a 'response' field")
    ap.add_argument("--per-language", type=int, default=300)
    ap.add_argument("--scheme", choices=("itrans", "casual"), default="itrans")
    ap.add_argument("--resources", default=os.environ.get("INDIC_RESOURCES_PATH"),
                    help="indic_nlp_resources folder (default: INDIC_RESOURCES_PATH, else the built-in map)")
    ap.add_argument("--examples", type=int, default=0, help="print this many romanised sentences a language")
    ap.add_argument("--json", type=Path, help="write the figures here")
    ap.add_argument("--colloquial", action="store_true", help="also the hand-written chat-spelling answers")
    ap.add_argument("--sample", action="store_true", help="also the bundled sample's English answers")
    args = ap.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"no corpus at {args.corpus}: pass --corpus PATH (a folder of <lang>.jsonl, the indic-corpus)")
    if not args.english.is_file():
        sys.exit(f"no English responses at {args.english}: pass --english PATH")

    from indicifeval.checkers import REGISTRY, TextView, get_rules
    from indicifeval.languages import get_profile

    cpu0, wall0 = time.process_time(), time.perf_counter()
    check = REGISTRY["language:romanized"]
    codes = "as bn gu hi kn ml mr ne or pa sa ta te ur".split()
    skipped = {c: why for c in codes if (why := check.unavailable(get_profile(c), False))}
    targets = [c for c in codes if c not in skipped]
    rules = {c: get_rules(c, "trans", "fixed") for c in targets}
    to_itrans, ranges = load_transliterator(args.resources)

    def accepted_by(text: str) -> list[str]:
        return [t for t in targets if check.fn(TextView(text, rules[t]), {}, rules[t])[0]]

    report: dict = {"scheme": args.scheme, "per_language": args.per_language, "languages": {}, "skipped": {}}
    for code in targets:
        if code not in ranges:
            skipped[code] = f"indic-nlp's to_itrans has no romanisation for the {code} script (returns it as is)"
            continue
        path = args.corpus / f"{code}.jsonl"
        if not path.is_file():
            skipped[code] = f"no {path.name} in the corpus"
            continue
        native = sentences_of(read_jsonl(path, "text"), code, args.per_language)
        counts: dict[str, int] = defaultdict(int)
        letters = dropped = 0
        for i, sentence in enumerate(native):
            latin, lost = romanise(sentence, code, to_itrans, ranges[code][0], args.scheme)
            letters, dropped = letters + sum(unicodedata.category(ch)[0] in "LM" for ch in sentence), dropped + lost
            if i < args.examples:
                print(f"  {code}: {latin}")
            for t in accepted_by(latin):
                counts[t] += 1
        n, others = len(native), [t for t in targets if t != code and t not in SAME.get(code, ())]
        worst = max(others, key=lambda t: (counts[t], -others.index(t)))
        report["languages"][code] = {
            "sentences": n, "recall": counts[code] / n, "accepted_as": {t: counts[t] / n for t in targets},
            "worst_other": worst, "worst_other_rate": counts[worst] / n,
            "false_accept_rate": sum(counts[t] for t in others) / (n * len(others)),
            "letters_dropped": dropped / max(letters, 1)}

    from indicifeval.text.langid import identify

    english = [s for s in sentences_of(read_jsonl(args.english, "response"), "en", 10**6)
               if s.isascii() and identify(s).language == "en"]
    english = spread(english, args.per_language) + (english_answers() if args.sample else [])
    en_counts: dict[str, int] = defaultdict(int)
    for sentence in english:
        for t in accepted_by(sentence):
            en_counts[t] += 1
    report["english"] = {"sentences": len(english), "accepted_as": {t: en_counts[t] / len(english) for t in targets},
                         "any_language": sum(bool(accepted_by(s)) for s in english) / len(english)}
    if args.colloquial:
        cases = {k: v for k, v in json.loads(COLLOQUIAL.read_text(encoding="utf-8")).items() if k in targets}
        report["colloquial"] = {code: sum(set(accepted_by(s)) == {code} | (SAME.get(code, set()) & set(targets))
                                          for s in texts) / len(texts) for code, texts in cases.items()}
    report["skipped"] = skipped
    report["cpu_s"], report["wall_s"] = time.process_time() - cpu0, time.perf_counter() - wall0

    pct = lambda x: f"{100 * x:5.1f}"
    print(f"language:romanized on romanised real text (scheme {args.scheme}; corpus {args.corpus.resolve()})")
    print(f"{'lang':<5}{'sentences':>10}{'recall %':>10}{'worst FA %':>12}  {'as':<4}{'all FA %':>9}{'EN FA %':>9}")
    for code in codes:
        en = pct(report["english"]["accepted_as"][code]) if code in targets else "    -"
        if code in report["languages"]:
            r = report["languages"][code]
            print(f"{code:<5}{r['sentences']:>10}{pct(r['recall']):>10}{pct(r['worst_other_rate']):>12}  "
                  f"{r['worst_other']:<4}{pct(r['false_accept_rate']):>9}{en:>9}")
        else:
            print(f"{code:<5}{'-':>10}{'-':>10}{'-':>12}  {'-':<4}{'-':>9}{en:>9}   skipped: {skipped[code]}")
    rows = list(report["languages"].values())
    print(f"{'mean':<5}{sum(r['sentences'] for r in rows):>10}{pct(sum(r['recall'] for r in rows) / len(rows)):>10}"
          f"{pct(max(r['worst_other_rate'] for r in rows)):>12}  {'max':<4}"
          f"{pct(sum(r['false_accept_rate'] for r in rows) / len(rows)):>9}{pct(report['english']['any_language']):>9}")
    if args.colloquial:
        print("hand-written chat spellings, verdicts right in all languages (%): "
              + " ".join(f"{c} {pct(r).strip()}" for c, r in report["colloquial"].items()))
    source = "GPT-4 responses" + (" and the sample" if args.sample else "")
    print(f"English: {len(english)} English sentences of {source}; EN FA % = accepted by that language's checker "
          f"(mean row: by any). all FA % = accepted as any other language, over {len(targets) - 1} others.")
    print(f"CPU {report['cpu_s']:.2f} s, wall {report['wall_s']:.2f} s")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
