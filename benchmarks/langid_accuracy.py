"""Accuracy of response-language identification on our own test texts, or on real text.

    python benchmarks/langid_accuracy.py            # our identifier (fixed mode)
    python benchmarks/langid_accuracy.py --all      # also langdetect as the authors call it
    python benchmarks/langid_accuracy.py --corpus ../shared/data/indic-corpus
        # real paragraphs (<lang>.jsonl, {doc_id, text}), cut into sentences with each
        # language's own rules, by length: 1-2 words, 3-6 words, sentence (7+), passage (a document)
    python benchmarks/langid_accuracy.py --gettext /usr/share/locale
        # real sentences in the other languages we tell apart: the human translations of
        # program messages that the system's packages carry (gettext catalogs, LC_MESSAGES/*.mo),
        # full of English names (GTK, D-Bus, URI, options); by length 3-6 words and sentence,
        # and apart, sentences without command-line syntax (options, brackets, CAPS, paths)
    python benchmarks/langid_accuracy.py --lingua lingua-py/language-testdata
        # the lingua-py test set (git clone https://github.com/pemistahl/lingua-py): single
        # words, word pairs and sentences of web text (names, dates, lost accents, some
        # mojibake), for every language we tell apart; totals for the Indic languages and the rest
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "langid"


def load_texts() -> list[dict]:
    texts = []
    for path in sorted(FIXTURES.glob("*.jsonl")):
        texts += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return texts


def accuracy(identify, texts) -> tuple[dict, list]:
    per = defaultdict(lambda: [0, 0])
    errors = []
    for t in texts:
        got = identify(t["text"])
        key = t["lang"] if t["kind"] != "hard" else f"{t['lang']} (hard)"
        per[key][1] += 1
        if got == t["lang"]:
            per[key][0] += 1
        else:
            errors.append((t["lang"], t["kind"], got, t["text"][:60]))
    return dict(per), errors


LENGTHS = ("1-2 words", "3-6 words", "sentence", "passage")


SPLITS = ("held-out", "tune", "all")


def document_half(doc_id: str) -> str:
    """"tune" or "held-out" for a document, by a hash of its id without the language prefix,
    so that a FLORES article (parallel across languages) lies in the same half in every
    language: rules tuned on one half never saw the other half's content in any language."""
    import hashlib

    shared = doc_id.split("-", 1)[1] if "-" in doc_id else doc_id
    return "tune" if hashlib.sha256(shared.encode("utf-8")).digest()[0] % 2 == 0 else "held-out"


def corpus_texts(folder: Path, split: str = "all") -> list[dict]:
    """Texts cut from real documents: every sentence (by the language's splitter), its first
    one and two words and its first three to six, and the document itself; with ``split``,
    only the documents of that half (see ``document_half``)."""
    from indicifeval.languages import get_profile
    from indicifeval.text.sentences import split_sentences
    from indicifeval.text.words import words

    texts = []
    for path in sorted(folder.glob("*.jsonl")):
        lang = path.stem
        profile = get_profile(lang)
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if split != "all" and document_half(record["doc_id"]) != split:
                continue
            doc = record["text"]
            texts.append({"lang": lang, "kind": "passage", "text": doc})
            for para in doc.split("\n\n"):
                for sentence in split_sentences(para, profile.sentence_terminators, profile.abbreviations):
                    found = words(sentence)
                    if len(found) >= 7:
                        texts.append({"lang": lang, "kind": "sentence", "text": sentence})
                    if len(found) >= 3:
                        texts.append({"lang": lang, "kind": "3-6 words", "text": " ".join(found[:6])})
                    if found:
                        texts.append({"lang": lang, "kind": "1-2 words", "text": " ".join(found[:2])})
    return texts


def corpus_table(identify, texts: list[dict]) -> None:
    table: dict = defaultdict(lambda: [0, 0])
    for t in texts:
        cell = table[t["lang"], t["kind"]]
        cell[1] += 1
        cell[0] += identify(t["text"]) == t["lang"]
    print_table(table, LENGTHS, "all Indic")


def print_table(table: dict, kinds: tuple[str, ...], total: str, notes: dict | None = None) -> None:
    """Accuracy per (language, kind) cell of ``table`` ([right, all]), a total row, and a note
    per language after its row."""
    langs = sorted({lang for lang, _ in table})
    print(f"{'language':10}" + "".join(f"{k:>18}" for k in kinds) + ("   most often taken for" if notes else ""))
    for lang in [*langs, total]:
        cells = []
        for kind in kinds:
            ok, n = (sum(table[x, kind][0] for x in langs), sum(table[x, kind][1] for x in langs)) \
                if lang == total else table[lang, kind]
            cells.append(f"{100 * ok / n:6.1f}% of {n:<6}" if n else " " * 18)
        note = f"   {notes.get(lang, '')}" if notes else ""
        print(f"{lang:10}" + "".join(c.rjust(18) for c in cells) + note)


_FORMAT = re.compile(r"%(?:\([\w-]+\))?[-+ #0']*\d*(?:\.\d+)?(?:l|ll|h|z|j|t|L|I64)?[a-zA-Z%]|\{[\w.]*\}|\$\{?\w+\}?"
                     r"|<[^>]{0,40}>|&\w+;|\\[ntr]")
# Command-line help and code rather than prose: options, brackets, assignments, paths, hex.
_COMMAND_LIKE = re.compile(r"(?:^|\s)--?\w|[\[\]{}=|/\\<>]|0x|\w\.\w+\(|\b[A-Z0-9_]{3,}\b|:\s*$|^\s*:")
_FOREIGN_KINDS = ("3-6 words", "sentence", "prose sentence")
_LOCALE_ALIASES = {"no": ("nb", "nn")}  # gettext names Norwegian's written standards, not "no"
_MNEMONIC = re.compile(r"(?<=\w)_(?=\w)|(?<![\w_])_(?=\w)|&(?=\w)")


def gettext_texts(root: Path, per_language: int = 1500) -> list[dict]:
    """Translated messages of every catalog under ``root/<lang>[_XX]/LC_MESSAGES`` for the
    languages of world.json (country and language name lists left out), cleaned of format
    specifiers, markup and mnemonics; only translations that differ from their English.
    Deterministic: at most ``per_language`` per kind, in order of a hash of the text."""
    import gettext
    import hashlib

    from indicifeval.languages.profile import world_languages
    from indicifeval.text.words import words

    texts = []
    for lang in sorted(world_languages()):
        seen: dict[str, list[str]] = {kind: [] for kind in _FOREIGN_KINDS}
        names = (lang, *_LOCALE_ALIASES.get(lang, ()))
        folders = sorted(p for p in root.iterdir() if any(p.name == n or p.name.startswith(n + "_") for n in names))
        found = set()
        for folder in folders:
            for mo in sorted((folder / "LC_MESSAGES").glob("*.mo")):
                if mo.name.startswith("iso_"):
                    continue
                try:
                    with mo.open("rb") as fh:
                        catalog = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
                except (OSError, UnicodeError, LookupError, ValueError):  # unreadable, odd encoding
                    continue
                for msgid, msgstr in catalog.items():
                    if not isinstance(msgid, str) or not isinstance(msgstr, str) or not msgid or msgstr == msgid:
                        continue
                    text = " ".join(_MNEMONIC.sub("", _FORMAT.sub(" ", msgstr)).split())
                    n = len(words(text))
                    kind = "sentence" if n >= 7 else "3-6 words" if n >= 3 else None
                    if kind == "sentence" and not _COMMAND_LIKE.search(text):
                        kind = "prose sentence"
                    if kind and text not in found:
                        found.add(text)
                        seen[kind].append(text)
        for kind, items in seen.items():
            items.sort(key=lambda t: hashlib.sha256(t.encode("utf-8", "surrogatepass")).digest())
            texts += [{"lang": lang, "kind": kind, "text": t} for t in items[:per_language]]
    return texts


_LINGUA_KINDS = {"single-words": "1 word", "word-pairs": "2 words", "sentences": "sentence"}
_LINGUA_CODES = {"nb": "no"}  # its Bokmål file is our Norwegian; its Nynorsk file (nn) is left out


def lingua_texts(root: Path) -> list[dict]:
    """Every line of lingua-py's ``<kind>/<lang>.txt`` for the languages we tell apart."""
    from indicifeval.languages import list_languages
    from indicifeval.languages.profile import world_languages

    known = set(world_languages()) | set(list_languages())
    texts = []
    for folder, kind in _LINGUA_KINDS.items():
        for path in sorted((root / folder).glob("*.txt")):
            lang = _LINGUA_CODES.get(path.stem, path.stem)
            if lang in known:
                texts += [{"lang": lang, "kind": kind, "text": line.strip()}
                          for line in path.open(encoding="utf-8") if line.strip()]
    return texts


def foreign_table(identify, texts: list[dict], show_errors: bool, kinds: tuple[str, ...] = _FOREIGN_KINDS) -> None:
    table: dict = defaultdict(lambda: [0, 0])
    wrong: dict = defaultdict(lambda: defaultdict(int))
    examples = []
    for t in texts:
        cell = table[t["lang"], t["kind"]]
        cell[1] += 1
        got = identify(t["text"])
        if got == t["lang"]:
            cell[0] += 1
        else:
            wrong[t["lang"]][got] += 1
            examples.append((t["lang"], got, t["text"][:90]))
    notes = {lang: ", ".join(f"{k} {v}" for k, v in sorted(got.items(), key=lambda kv: -kv[1])[:3])
             for lang, got in wrong.items()}
    print_table(table, kinds, "all", notes)
    from indicifeval.languages import list_languages

    indic = set(list_languages()) - {"en"}
    for name, chosen in (("Indic", lambda lang: lang in indic), ("others", lambda lang: lang not in indic)):
        cells = []
        for kind in kinds:
            ok = sum(v[0] for (lang, k), v in table.items() if k == kind and chosen(lang))
            n = sum(v[1] for (lang, k), v in table.items() if k == kind and chosen(lang))
            cells.append(f"{100 * ok / n:6.1f}% of {n:<6}" if n else " " * 18)
        print(f"{name:10}" + "".join(c.rjust(18) for c in cells))
    if show_errors:
        for e in examples:
            print(*e)


def _langdetect(text: str):
    from indicifeval.text.langdetect_compat import NoFeatures, detect

    try:
        return detect(text)
    except NoFeatures:
        return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--all", action="store_true", help="also measure langdetect (paper mode)")
    parser.add_argument("--errors", action="store_true", help="list misidentified texts")
    parser.add_argument("--corpus", type=Path, help="a folder of <lang>.jsonl real documents")
    parser.add_argument("--split", choices=SPLITS, default="held-out",
                        help="with --corpus: the documents measured; rules are tuned on 'tune' only, and the "
                             "figures reported are 'held-out' (default: %(default)s)")
    parser.add_argument("--gettext", type=Path, help="a locale folder of gettext catalogs, e.g. /usr/share/locale")
    parser.add_argument("--lingua", type=Path, help="lingua-py's language-testdata folder")
    args = parser.parse_args()
    from indicifeval.text.langid import identify_language

    if args.gettext:
        foreign_table(identify_language, gettext_texts(args.gettext), args.errors)
        return

    if args.lingua:
        foreign_table(identify_language, lingua_texts(args.lingua), args.errors, tuple(_LINGUA_KINDS.values()))
        return

    if args.corpus:
        corpus_table(identify_language, corpus_texts(args.corpus, args.split))
        return

    texts = load_texts()
    systems = [("ours", identify_language)] + ([("langdetect", _langdetect)] if args.all else [])
    results = {name: accuracy(fn, texts) for name, fn in systems}
    keys = sorted(results["ours"][0], key=lambda k: ("hard" in k, k))
    print(f"{'language':14}" + "".join(f"{name:>14}" for name, _ in systems))
    totals = {name: [0, 0] for name, _ in systems}
    for k in keys:
        cells = []
        for name, _ in systems:
            ok, n = results[name][0][k]
            totals[name][0] += ok
            totals[name][1] += n
            cells.append(f"{ok:>5}/{n:<3} {100 * ok / n:5.1f}%"[-14:].rjust(14))
        print(f"{k:14}" + "".join(cells))
    print(f"{'all':14}" + "".join(
        f"{totals[n][0]:>5}/{totals[n][1]:<3} {100 * totals[n][0] / totals[n][1]:5.1f}%".rjust(14)
        for n, _ in systems))
    if args.errors:
        for name, _ in systems:
            for e in results[name][1]:
                print(name, *e)


if __name__ == "__main__":
    main()
