"""A candidate row from a plan, the engine's translations and the phrase table, in the hub's
Trans schema (all 24 kwarg names, ``resp_lang``, ``tags``), with its provenance and an
automatic status: ``auto-ok``, or ``needs-review`` with the reasons."""

from __future__ import annotations

from typing import Any

import regex

from indicifeval.builder.trans.plan import ANSWERS, TransPlan
from indicifeval.builder.trans.protect import inline_problems, inlined, inserted, markup_problems, sent_text
from indicifeval.builder.trans.restore import restore
from indicifeval.checkers.instructions import copied_kwargs, kwarg_role, lexical_kwargs
from indicifeval.languages import LanguageProfile
from indicifeval.records import AUTO_OK, NEEDS_REVIEW, Candidate, Generation, Row
from indicifeval.text.scripts import script_counts

Lookup = dict[tuple[str, str], str]


def unit_uid(key: Any, index: int) -> str:
    return f"{key}/{index}"


def span_value(span, resp_src: bool, phrases: Lookup, profile: LanguageProfile) -> str | None:
    """What a protected span reads in the target prompt (None: the phrase table lacks it)."""
    if span.role == "keep" or (span.keep and span.role in ("lexical", "letter")):
        return span.text
    if span.role == "lexical":
        return phrases.get((span.phrase, "translate"))
    if span.role == "letter":
        return phrases.get((span.phrase, "letter"))
    if span.role == "answer":
        options = profile.constrained_responses
        return options[ANSWERS[span.phrase]] if len(options) == 3 else None
    if span.role == "language":
        return profile.name_of(span.phrase)
    return span.text


def _kwargs(row: Row, phrases: Lookup, repeat_text: str | None, problems: list[str]) -> list[dict]:
    keep = (row.resp_lang or "src") != "src"
    out = []
    for iid, kwargs in zip(row.instruction_id_list, row.kwargs):
        new = dict(kwargs)
        for name in lexical_kwargs(iid):
            value = kwargs.get(name)
            if value is None or keep:
                continue
            role = "letter" if kwarg_role(iid, name) == "letter" else "translate"
            values = value if isinstance(value, list) else [value]
            if role == "letter":
                mapped = [phrases.get((v, "letter"), v) if v.isalpha() else v for v in values]
            else:
                mapped = [phrases.get((v, "translate")) for v in values]
            if any(m is None for m in mapped):
                problems.append(f"{iid} {name}: no translation in the phrase table")
                mapped = [m if m is not None else v for m, v in zip(mapped, values)]
            new[name] = mapped if isinstance(value, list) else mapped[0]
        for name, what in copied_kwargs(iid).items():
            if what == "request" and kwargs.get(name) is not None:
                if repeat_text is None:
                    problems.append(f"{iid} {name}: the request to repeat could not be assembled")
                else:
                    new[name] = repeat_text
        out.append(new)
    return out


_LETTERS = regex.compile(r"\{\{\d+\}\}|[^\p{L}\p{M}]+")


def untranslated(source: str, translation: str, profile: LanguageProfile) -> str | None:
    """Why a unit's translation is not one: it came back as the source text, or (for a target
    in another script) mostly in the source's Latin letters. None when it looks translated."""
    letters = _LETTERS.sub("", source)
    if len(letters) < 4 or profile.code == "en":
        return None  # a name, a number, a bullet: nothing to translate (or an English "translation")
    if " ".join(translation.split()) == " ".join(source.split()):
        return "came back unchanged (not translated)"
    if profile.script == "Latn":
        return None
    counts = script_counts(_LETTERS.sub(" ", translation))
    total = sum(counts.values())
    if total and counts.get("Latn", 0) / total > 0.5 and counts.get(profile.script, 0) / total < 0.5:
        return f"came back mostly in Latin letters ({counts['Latn'] / total:.0%}), not in {profile.script}"
    return None


def span_values(plan: TransPlan, phrases: Lookup, profile: LanguageProfile) -> tuple[dict[int, str], list[str]]:
    """Each span's target text by its number, and the spans that have none."""
    values: dict[int, str] = {}
    problems = []
    for span in plan.spans:
        value = span_value(span, plan.resp_lang == "src", phrases, profile)
        if value is None:
            problems.append(f"{span.role} {span.phrase!r}: nothing to put in its place (phrase table)")
        else:
            values[span.id] = value
    return values, problems


def engine_texts(plan: TransPlan, phrases: Lookup, profile: LanguageProfile, protect: str) -> dict[str, str]:
    """uid -> the text the engine is asked to translate, for each unit that is translated."""
    values, _ = span_values(plan, phrases, profile)
    return {unit_uid(plan.key, i): sent_text(u, plan.spans, values, protect)
            for i, u in enumerate(plan.units) if u.translate}


def _translation(index: int, generation: Generation | None, problems: list[str]) -> str | None:
    if generation is None:
        problems.append(f"unit {index} was not translated")
    elif generation.error:
        problems.append(f"unit {index}: the engine failed ({generation.error})")
    elif generation.truncated or generation.capped_from_chars is not None:
        problems.append(f"unit {index}: the translation was cut at the length limit")
    else:
        return generation.answer if generation.answer is not None else generation.output
    return None


def assemble(plan: TransPlan, row: Row, generations: dict[str, Generation], phrases: Lookup,
             profile: LanguageProfile, provenance: dict[str, Any], protect: str = "placeholder") -> Candidate:
    """The candidate row, with ``needs-review`` and the reasons when anything is amiss;
    ``protect`` says how the spans were sent (``trans.protect``)."""
    values, problems = span_values(plan, phrases, profile)
    problems = list(plan.problems) + problems
    whole_words = {s.id for s in plan.spans if s.role in ("lexical", "letter") and s.id in values}
    pieces, repeat_pieces = [], []
    for index, unit in enumerate(plan.units):
        text, here = unit.text, {n: v for n, v in values.items() if f"{{{{{n}}}}}" in unit.text}
        if unit.translate:
            sent = sent_text(unit, plan.spans, values, protect)
            translated = _translation(index, generations.get(unit_uid(plan.key, index)), problems)
            if translated is not None:
                text = translated
                why = untranslated(sent, text, profile)
                problems += [f"unit {index}: {p}" for p in ([why] if why else [])
                             + inline_problems(text, inserted(unit, plan.spans, values, protect))
                             + markup_problems(sent, text)]
                by_id = {s.id: s for s in plan.spans}
                here = {n: v for n, v in here.items() if not inlined(by_id[n], protect)}
        restored = restore(text, here, whole_words & set(here))
        problems += [f"unit {index}: {p}" for p in restored.problems]
        pieces += [restored.text, unit.sep]
        if unit.repeat:
            repeat_pieces += [restored.text, unit.sep]
    prompt = "".join(pieces)
    repeat_text = "".join(repeat_pieces).strip() if repeat_pieces else None
    kwargs = _kwargs(row, phrases, repeat_text, problems)
    translated_row = row.__class__(row.key, prompt, row.instruction_id_list, tuple(kwargs), profile.code, "trans",
                                   row.tags, row.resp_lang)
    extra = {"protect": protect, **({"dropped_instructions": plan.dropped} if plan.dropped else {})}
    return Candidate(translated_row, NEEDS_REVIEW if problems else AUTO_OK, tuple(problems), (),
                     {**provenance, **extra})


__all__ = ["assemble", "engine_texts", "span_value", "span_values", "unit_uid", "untranslated"]
