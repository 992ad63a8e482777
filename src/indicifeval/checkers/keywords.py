"""keywords:* — inclusion, frequency, exclusion of words and letters."""

from __future__ import annotations

from indicifeval.checkers.registry import Param, checker, counted, int_default, relation_default
from indicifeval.checkers.rules import Draw, Rules, TextView
from indicifeval.text.normalize import nfc


def _default_keywords(k: int):
    return lambda draw, profile: draw.sample("keywords", profile.default_keywords, k)


@checker(
    "keywords:existence",
    Param("keywords", "strlist", role="lexical", paper_default=_default_keywords(2)),
    category="Keyword", table_row=9,
    paper_fixup=lambda args, draw, rules: {**args, "keywords": sorted(args["keywords"])},
)
def existence(view: TextView, args: dict, rules: Rules):
    missing = [k for k in args["keywords"] if not rules.keyword_present(view, k)]
    if missing:
        return False, "missing " + ", ".join(repr(k) for k in missing)
    return True, f"all {len(args['keywords'])} keywords present"


@checker(
    "keywords:frequency",
    Param("keyword", "str", role="lexical", paper_default=lambda draw, p: draw.choice("keyword", p.default_keywords)),
    Param("frequency", "int", paper_default=int_default("frequency", 1, 3)),
    Param("relation", "relation", paper_default=relation_default("relation")),
    category="Keyword", table_row=11,
)
def frequency(view: TextView, args: dict, rules: Rules):
    n = rules.keyword_count(view, args["keyword"])
    ok, text = counted(n, f"× {args['keyword']!r}", args["relation"], args["frequency"])
    return ok, text


@checker(
    "keywords:forbidden_words",
    Param("forbidden_words", "strlist", role="lexical", paper_default=_default_keywords(2)),
    category="Keyword", table_row=10,
    paper_fixup=lambda args, draw, rules: {**args, "forbidden_words": sorted(set(args["forbidden_words"]))},
)
def forbidden_words(view: TextView, args: dict, rules: Rules):
    found = [w for w in args["forbidden_words"] if rules.forbidden_present(view, w)]
    if found:
        return False, "used forbidden " + ", ".join(repr(w) for w in found)
    return True, f"none of {len(args['forbidden_words'])} forbidden words used"


def _letter_fixup(args: dict, draw: Draw, rules: Rules) -> dict:
    # The authors accept only a-z and otherwise draw a random ASCII letter. English keeps the
    # literal character, as the official IFEval reference verdicts do (see docs/scoring.md).
    letter: str = args.get("letter") or ""
    valid = len(letter) == 1 and "a" <= letter.lower() <= "z"
    if not valid and not (rules.ifeval and len(letter) == 1):
        letter = draw.choice("letter", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return {**args, "letter": letter.lower()}


def _sample_letter(rng, profile, drawn):
    # From the profile's alphabet (the authors' letter mapping was made by hand, outside the repo).
    if not profile.default_letters:
        raise ValueError(f"profile {profile.code} lists no letters to draw from (defaults.letters)")
    return rng.choice(profile.default_letters)


@checker(
    "keywords:letter_frequency",
    Param("letter", "str", role="letter", sample=_sample_letter),
    Param("let_frequency", "int", paper_default=int_default("let_frequency", 1, 10)),
    Param("let_relation", "relation", paper_default=relation_default("let_relation")),
    category="Keyword", table_row=15,
    paper_fixup=_letter_fixup,
)
def letter_frequency(view: TextView, args: dict, rules: Rules):
    letter = args["letter"]
    if rules.paper:
        # the authors count collections.Counter(text)[letter]: characters, so a letter of
        # more than one code point (a consonant and its vowel sign) is never found
        n = view.lower.count(letter) if len(letter) == 1 else 0
    else:
        # one code point after NFC, case-insensitively: "ओ" counts the letter ओ, not the sign ो
        target = nfc(letter).casefold()
        n = view.nfc.casefold().count(target) if target else 0
    return counted(n, f"× {letter!r}", args["let_relation"], args["let_frequency"])
