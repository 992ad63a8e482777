"""length_constraints:* — sentences, paragraphs, words, first word of a paragraph."""

from __future__ import annotations

import re

from indicifeval.checkers.registry import Param, checker, counted, int_default, relation_default
from indicifeval.checkers.rules import Draw, Rules, TextView
from indicifeval.text.normalize import match_key
from indicifeval.text.paragraphs import leading_words


@checker(
    "length_constraints:number_sentences",
    Param("num_sentences", "int", paper_default=int_default("num_sentences", 1, 20)),
    Param("relation", "relation", paper_default=relation_default("relation")),
    category="Length", table_row=23,
)
def number_sentences(view: TextView, args: dict, rules: Rules):
    return counted(view.sentence_count, "sentences", args["relation"], args["num_sentences"])


@checker(
    "length_constraints:number_words",
    # generation: IFEval's 100-500, in the round steps its prompts use
    Param("num_words", "int", paper_default=int_default("num_words", 100, 500),
          sample=lambda rng, p, drawn: rng.randrange(100, 501, 50)),
    Param("relation", "relation", paper_default=relation_default("relation")),
    category="Length", table_row=24,
)
def number_words(view: TextView, args: dict, rules: Rules):
    return counted(view.word_count, "words", args["relation"], args["num_words"])


PARAGRAPH_DIVIDER = re.compile(r"\s?\*\*\*\s?")


def divider_pieces(text: str) -> list[str]:
    """``PARAGRAPH_DIVIDER.split(text)``; a text without "***" (most) is not searched by the
    pattern, whose optional first space makes it try every position."""
    return PARAGRAPH_DIVIDER.split(text) if "***" in text else [text]


def paragraph_count(pieces: list[str]) -> tuple[int, int | None]:
    """The non-blank pieces a separator split a text into, and where a blank one stands between
    two separators (None: none does; one before the first or after the last is allowed)."""
    count = len(pieces)
    for i, piece in enumerate(pieces):
        if not piece.strip():
            if i not in (0, len(pieces) - 1):
                return count, i
            count -= 1
    return count, None


@checker(
    "length_constraints:number_paragraphs",
    Param("num_paragraphs", "int", paper_default=int_default("num_paragraphs", 1, 5)),
    category="Length", table_row=22,
    conflicts=("length_constraints:nth_paragraph_first_word", "length_constraints:number_sentences"),
)
def number_paragraphs(view: TextView, args: dict, rules: Rules):
    # Paragraphs are separated by the markdown divider ***, as every prompt of this id says.
    count, empty = paragraph_count(divider_pieces(view.text))
    if empty is not None:
        return False, f"empty paragraph between dividers (piece {empty + 1})"
    return count == args["num_paragraphs"], f"{count} ***-separated paragraphs, needed {args['num_paragraphs']}"


def _nth_fixup(args: dict, draw: Draw, rules: Rules) -> dict:
    num = args["num_paragraphs"]
    nth = args.get("nth_paragraph")
    if nth is None or nth <= 0 or nth > num:
        nth = draw.randint("nth_paragraph", 1, num + 1)
    return {**args, "nth_paragraph": nth, "first_word": args["first_word"].lower()}


_PAPER_STRIP = frozenset(".,?!'\"")
_STOP_CHARS = {stops: re.compile("[" + re.escape("".join(sorted(stops))) + "]")
               for stops in (_PAPER_STRIP, _PAPER_STRIP | {"*"})}


@checker(
    "length_constraints:nth_paragraph_first_word",
    Param("num_paragraphs", "int", required=False, paper_default=int_default("num_paragraphs", 1, 5)),
    # generation keeps the paragraph inside the count (IFEval's own draw may pass it by one)
    Param("nth_paragraph", "int", sample=lambda rng, p, drawn: rng.randint(1, drawn.get("num_paragraphs") or 1)),
    Param("first_word", "str", role="lexical",
          paper_default=lambda draw, p: draw.choice("first_word", p.default_keywords)),
    category="Keyword", table_row=12,
    paper_fixup=_nth_fixup,
)
def nth_paragraph_first_word(view: TextView, args: dict, rules: Rules):
    if rules.paper or rules.ifeval:
        return _nth_first_word_reference(view, args, rules)
    paras = view.paragraphs
    nth, wanted = args["nth_paragraph"], args["first_word"]
    num = args.get("num_paragraphs")
    if num is not None and len(paras) != num:
        return False, f"{len(paras)} paragraphs, needed {num}"
    if nth < 1 or nth > len(paras):
        return False, f"no paragraph {nth} ({len(paras)} paragraphs)"
    wanted_words = [match_key(w) for w in wanted.split()]
    got = leading_words(paras[nth - 1], len(wanted_words))
    shown = " ".join(got) or "nothing"
    return got == wanted_words, f"paragraph {nth} starts with {shown!r}, needed {wanted!r}"


def _nth_first_word_reference(view: TextView, args: dict, rules: Rules):
    """IFEval's check; the authors' Ground copy ignores the paragraph count and (except for
    or/pa) also stops the word at '*'."""
    pieces = view.text.split("\n\n")
    count = sum(1 for p in pieces if p.strip())
    nth, wanted, num = args["nth_paragraph"], args["first_word"].lower(), args["num_paragraphs"]
    if nth > count:
        return False, f"no paragraph {nth} ({count} paragraphs)"
    paragraph = pieces[nth - 1].strip()
    if not paragraph:
        return False, f"paragraph {nth} is blank"
    stops = _PAPER_STRIP
    ground = rules.paper and not rules.ifeval and rules.subset == "ground"
    if ground and rules.profile.paper and rules.profile.paper.ground_first_word_strips_star:
        stops = stops | {"*"}
    word = paragraph.split(maxsplit=1)[0].strip().lstrip("'").lstrip('"')
    # IFEval lower-cases the word character by character, up to the first stop character
    stop = _STOP_CHARS[stops].search(word)
    first = "".join(map(str.lower, word if stop is None else word[: stop.start()]))
    same = first == wanted
    if ground:
        return same, f"paragraph {nth} starts with {first!r}, needed {wanted!r}"
    if num is not None and count != num:
        return False, f"{count} paragraphs, needed {num}; paragraph {nth} starts with {first!r}"
    return same, f"paragraph {nth} starts with {first!r}, needed {wanted!r}"
