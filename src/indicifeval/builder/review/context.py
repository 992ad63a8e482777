"""The passage a Ground row was written from, as the review shows it: found by the row's
provenance (``context_id``) in its build folder's ``ground/contexts.jsonl``, cut into
paragraphs and sentences by the scorer's own text functions, and marked where the row's
constraint applies: the keyword's (or forbidden word's) occurrences exactly as the checker
counts them, the paragraph's first word, numbered sentences and paragraphs. A reviewer cannot
judge whether a prompt is faithful to its source without the source. Text segments only: the
template escapes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import regex

from indicifeval.checkers.rules import get_rules
from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import read_jsonl
from indicifeval.languages import get_profile
from indicifeval.records import Candidate
from indicifeval.records.layout import GROUND_CONTEXTS as CONTEXTS
from indicifeval.text.keywords import keyword_pattern
from indicifeval.text.normalize import match_key, match_key_of_nfc, nfc
from indicifeval.text.paragraphs import paragraphs, strip_edges
from indicifeval.text.sentences import split_sentences

Span = tuple[int, int]
_KEYWORD = {"keywords:frequency": "keyword", "keywords:forbidden_words": "forbidden_words",
            "keywords:existence": "keywords"}
_FIRST_WORD, _SENTENCES, _PARAGRAPHS = ("length_constraints:nth_paragraph_first_word",
                                        "length_constraints:number_sentences", "length_constraints:number_paragraphs")
_TOKEN = regex.compile(r"\S+")
_cache: dict[Path, tuple[tuple[int, int], dict[str, dict]]] = {}


def contexts_in(folder: Path) -> dict[str, dict]:
    """context id -> record of the folder's contexts file, read again only when it changes."""
    path = Path(folder) / CONTEXTS
    try:
        stat = path.stat()
    except OSError:
        return {}
    stamp = (stat.st_mtime_ns, stat.st_size)
    hit = _cache.get(path)
    if hit is None or hit[0] != stamp:
        try:
            table = {str(r.get("id")): r for _, r in read_jsonl(path)}
        except InputError:
            table = {}
        hit = _cache[path] = (stamp, table)
    return hit[1]


def _keyed(text: str) -> tuple[str, list[int]]:
    """``match_key(text)`` (of an NFC text) and, for each of its characters, where it came from:
    the key is made character by character (joiners dropped, quotes unified, case folded)."""
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        key = match_key_of_nfc(ch)
        out.append(key)
        origin += [i] * len(key)
    return "".join(out), origin


def _word_spans(text: str, words: list[str]) -> list[Span]:
    """Where the checker finds ``words`` in ``text``: whole words of the matching key."""
    keyed, origin = _keyed(text)
    spans: list[Span] = []
    for word in words:
        pattern = keyword_pattern(word)
        if pattern is not None:
            spans += [(origin[m.start()], origin[m.end() - 1] + 1) for m in pattern.finditer(keyed)]
    return sorted(set(spans))


def _paragraph_spans(text: str) -> list[Span]:
    spans, at = [], 0
    for para in paragraphs(text):  # each is a stripped stretch of the text, in order
        start = text.find(para, at)
        if start < 0:
            break
        spans.append((start, start + len(para)))
        at = start + len(para)
    return spans


def _sentence_spans(text: str, span: Span, language: str) -> list[Span] | None:
    """The sentences of one paragraph as spans of ``text``; None when one cannot be placed."""
    profile = get_profile(language)
    start, end = span
    out, at = [], start
    for sentence in split_sentences(text[start:end], profile.sentence_terminators, profile.abbreviations):
        pattern = regex.compile(r"\s+".join(regex.escape(t) for t in sentence.split()))
        m = pattern.search(text, at, end)
        if m is None:
            return None
        out.append((m.start(), m.end()))
        at = m.end()
    return out


def _first_word(text: str, span: Span) -> Span | None:
    for m in _TOKEN.finditer(text, span[0], span[1]):
        core = strip_edges(m.group())
        if core:
            begin = m.start() + m.group().index(core)
            return begin, begin + len(core)
    return None


def _segments(text: str, span: Span, marks: list[Span]) -> list[tuple[str, bool]]:
    out, at = [], span[0]
    for s, e in marks:
        s, e = max(s, at), min(e, span[1])
        if s >= e:
            continue
        if s > at:
            out.append((text[at:s], False))
        out.append((text[s:e], True))
        at = e
    if at < span[1]:
        out.append((text[at:span[1]], False))
    return out


def _pieces(text: str, span: Span, sentences: list[Span] | None, marks: list[Span]) -> list[dict[str, Any]]:
    """A paragraph as pieces: numbered sentences (and the space between them), or one piece."""
    if not sentences:
        return [{"n": None, "segments": _segments(text, span, marks)}]
    out: list[dict[str, Any]] = []
    at = span[0]
    for s, e in sentences:
        if s > at:
            out.append({"n": None, "segments": _segments(text, (at, s), marks)})
        out.append({"n": 0, "segments": _segments(text, (s, e), marks)})
        at = e
    if at < span[1]:
        out.append({"n": None, "segments": _segments(text, (at, span[1]), marks)})
    return out


def context_view(folder: Path, candidate: Candidate) -> dict[str, Any] | None:
    """The item's context for the page, or None for a row with no recorded context (rows not
    built here, such as the hub's or the bundled sample's)."""
    row, provenance = candidate.row, candidate.provenance
    context_id = provenance.get("context_id")
    if row.subset != "ground" or not context_id:
        return None
    record = contexts_in(folder).get(str(context_id))
    view: dict[str, Any] = {"id": str(context_id), "doc_id": provenance.get("doc_id"),
                            "corpus": provenance.get("corpus"), "in_prompt": bool(provenance.get("context_required"))}
    if record is None:
        return {**view, "missing": f"context {context_id} is not in {CONTEXTS}", "paragraphs": [], "notes": []}
    language = row.language
    text = nfc(str(record.get("text", "")))
    paras = _paragraph_spans(text) or [(0, len(text))]
    notes: list[dict[str, Any]] = []
    marks: list[Span] = []
    numbered_sentences = numbered_paragraphs = False
    for iid, kw in zip(row.instruction_id_list, row.kwargs):
        if iid in _KEYWORD and kw.get(_KEYWORD[iid]):
            value = kw[_KEYWORD[iid]]
            for word in value if isinstance(value, list) else [value]:
                found = _word_spans(text, [str(word)])
                marks += found
                asks = "the prompt forbids it in the response" if iid.endswith("forbidden_words") else \
                    f"the prompt asks {kw.get('relation') or 'at least'} {kw.get('frequency') or 1}"
                notes.append({"label": "forbidden word" if iid.endswith("forbidden_words") else "keyword",
                              "word": str(word), "detail": f"marked {len(found)} times in the context; {asks}"})
        elif iid == _FIRST_WORD and kw.get("first_word"):
            nth = int(kw.get("nth_paragraph") or 1)
            span = _first_word(text, paras[nth - 1]) if nth <= len(paras) else None
            if span:
                marks.append(span)
            same = span is not None and match_key(text[span[0]:span[1]]) == match_key(str(kw["first_word"]))
            notes.append({"label": f"first word of paragraph {nth}", "word": text[span[0]:span[1]] if span else "",
                          "detail": "as the prompt asks" if same else f"(the prompt asks for {kw['first_word']})"})
        elif iid == _SENTENCES:
            numbered_sentences = True
            count = get_rules(language, "ground", "fixed").count_sentences(text)
            notes.append({"label": "sentences", "word": None,
                          "detail": f"{count} in the context (the checker's count); the prompt asks "
                                    f"{kw.get('relation') or 'exactly'} {kw.get('num_sentences')}"})
        elif iid == _PARAGRAPHS:
            numbered_paragraphs = True
            notes.append({"label": "paragraphs", "word": None,
                          "detail": f"{len(paragraphs(text))} in the context; the prompt asks "
                                    f"{kw.get('num_paragraphs')}"})
    marks = sorted(set(marks))
    out, n = [], 0
    for i, span in enumerate(paras, 1):
        pieces = _pieces(text, span, _sentence_spans(text, span, language) if numbered_sentences else None, marks)
        for piece in pieces:
            if piece["n"] is not None:
                n += 1
                piece["n"] = n
        out.append({"n": i, "pieces": pieces})
    return {**view, "missing": None, "paragraphs": out, "notes": notes, "number_sentences": numbered_sentences,
            "number_paragraphs": numbered_paragraphs, "marks": len(marks)}


__all__ = ["context_view", "contexts_in"]
