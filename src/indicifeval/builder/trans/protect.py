"""How the words a constraint is about reach the engine (``protect``), and what is checked
when its translation comes back.

* ``inline`` (the paper's method, and the authors' ``apply_pretranslations.py``): the target
  text of a span (the translated keyword, the target letter, the language's own name, the
  profile's "My answer is …") is written into the English prompt before translation, so the
  engine sees it in context and can build the sentence around it. After translation each
  inserted text must still be there as a whole word; one the engine inflected or dropped
  makes the row need review.
* ``placeholder``: every span becomes an opaque ``{{N}}`` that the engine should leave alone
  and that is put back afterwards (``trans.restore``); the engine never sees the word.

In both modes what must stay verbatim — markup, code, URLs, and the keywords of rows
answered in another language — travels as a placeholder: an engine would translate it.

Titles ``<<…>>`` and highlights ``*…*`` are translated with the prose; ``markup_problems``
says when a translation lost or broke one (a closing ``*`` gone, ``<<`` turned into ``«``)."""

from __future__ import annotations

from collections import Counter

import regex

from indicifeval.builder.trans.plan import PLACEHOLDER, Span, Unit

PROTECT = ("inline", "placeholder")
INLINE_ROLES = ("lexical", "letter", "answer", "language")
_TITLE = regex.compile(r"<<[^<>\n]+>>")
_HIGHLIGHT = regex.compile(r"(?<![*\w])\*(?![\s*])[^*\n]+?(?<![\s*])\*(?![*\w])")
_BOLD = regex.compile(r"(?<!\*)\*\*(?![\s*])[^*\n]+?(?<![\s*])\*\*(?!\*)")
_WORD = r"[\p{L}\p{M}\p{N}]"


def inlined(span: Span, protect: str) -> bool:
    """Whether ``span`` is written into the English text (inline) or sent as a placeholder."""
    return protect == "inline" and span.role in INLINE_ROLES and not span.keep


def sent_text(unit: Unit, spans: list[Span], values: dict[int, str], protect: str) -> str:
    """The text of ``unit`` as the engine gets it: inline spans replaced by their target text
    (a span whose text is unknown stays a placeholder, and assembling reports it)."""
    text = unit.text
    for span in spans:
        if inlined(span, protect) and span.id in values:
            text = text.replace(PLACEHOLDER % span.id, values[span.id])
    return text


def inserted(unit: Unit, spans: list[Span], values: dict[int, str], protect: str) -> Counter[str]:
    """The target texts written into ``unit``, with how often each was written."""
    return Counter(values[s.id] for s in spans
                   if inlined(s, protect) and s.id in values and PLACEHOLDER % s.id in unit.text)


def _whole(value: str) -> regex.Pattern:
    left = rf"(?<!{_WORD})" if regex.match(_WORD, value[:1]) else ""
    right = rf"(?!{_WORD})" if regex.match(_WORD, value[-1:]) else ""
    return regex.compile(left + r"\s+".join(regex.escape(p) for p in value.split()) + right)


def inline_problems(translation: str, wanted: Counter[str]) -> list[str]:
    """What became of each text written into the English: none there as a whole word is a
    problem (inflected — a case ending glued on — or lost); fewer than written is one too."""
    problems = []
    for value, count in wanted.items():
        if not value.strip():
            continue
        found = len(_whole(value).findall(translation))
        if found >= count:
            continue
        loose = translation.count(value)
        if found == 0:
            what = "inflected (no longer a whole word)" if loose else "lost in translation"
            problems.append(f"{value!r} {what}")
        else:
            problems.append(f"{value!r} written {count} times, found {found} times")
    return problems


def _markup(text: str) -> Counter[str]:
    return Counter({"title <<…>>": len(_TITLE.findall(text)), "highlight *…*": len(_HIGHLIGHT.findall(text)),
                    "bold **…**": len(_BOLD.findall(text))})


def markup_problems(source: str, translation: str) -> list[str]:
    """Each kind of inline markup the English has that the translation has fewer of."""
    have, got = _markup(source), _markup(translation)
    return [f"{kind} markup lost ({have[kind]} in the English, {got[kind]} in the translation)"
            for kind in have if got[kind] < have[kind]]


__all__ = ["INLINE_ROLES", "PROTECT", "inline_problems", "inlined", "inserted", "markup_problems", "sent_text"]
