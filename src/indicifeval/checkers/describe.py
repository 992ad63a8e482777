"""Instruction descriptions: the constraint text a prompt carries, in the prompt's language,
rendered from the templates in the language profile (``instructions.templates``)."""

from __future__ import annotations

import re
from functools import lru_cache

from indicifeval.checkers.registry import REGISTRY, KwargError, clean_kwargs
from indicifeval.languages import LanguageProfile
from indicifeval.languages.profile import InstructionTexts

PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_]+)\}")


class DescriptionError(ValueError):
    """A profile has no usable description template for an instruction."""


def placeholders(template: str) -> tuple[str, ...]:
    return tuple(PLACEHOLDER.findall(template))


def texts_of(profile: LanguageProfile) -> InstructionTexts:
    if profile.instruction_texts is None:
        raise DescriptionError(f"profile {profile.code} has no instruction templates ('instructions' block)")
    return profile.instruction_texts


def templates_of(instruction_id: str, profile: LanguageProfile) -> tuple[str, ...]:
    """The description templates of one instruction (one, or one per set of optional kwargs given)."""
    found = texts_of(profile).templates.get(instruction_id)
    if not found:
        raise DescriptionError(f"profile {profile.code} has no template for {instruction_id}")
    return found


def join_list(items: list[str], texts: InstructionTexts) -> str:
    open_q, close_q = texts.list_quote
    quoted = [f"{open_q}{item}{close_q}" for item in items]
    if len(quoted) < 2:
        return "".join(quoted)
    return texts.list_separator.join(quoted[:-1]) + texts.list_last_separator + quoted[-1]


def render_description(instruction_id: str, kwargs: dict | None, profile: LanguageProfile) -> str:
    """The description of one instruction with these kwargs, in ``profile``'s language. A missing
    relation reads "exactly", as fixed-mode scoring reads it."""
    spec = REGISTRY[instruction_id]
    values = clean_kwargs(instruction_id, kwargs)
    for p in spec.params:
        if p.kind == "relation" and p.name not in values:
            values[p.name] = "exactly"
        if p.required and p.shown and p.name not in values:
            raise KwargError(p.name, f"{instruction_id} needs kwarg {p.name!r}")
    shown = {name for name in values if spec.param(name).shown}
    template = next((t for t in templates_of(instruction_id, profile) if set(placeholders(t)) == shown), None)
    if template is None:
        raise DescriptionError(f"profile {profile.code} has no template for {instruction_id} with {sorted(shown)}")
    texts = texts_of(profile)

    def one(name: str) -> str:
        param, value = spec.param(name), values[name]
        if param.role == "relation":
            raise DescriptionError(f"{instruction_id}: {{{name}}} must be followed by ' {{its number}}'")
        if param.role == "language_code":
            return profile.name_of(value)
        if isinstance(value, list):
            return join_list(value, texts)
        return str(value)

    def unit(match: re.Match) -> str:
        relation, number, name = match.groups()
        if not relation:
            return one(name)
        if spec.param(number).role != "number":
            raise DescriptionError(f"{instruction_id}: {{{relation}}} must be followed by its number")
        return texts.relations[values[relation]].replace("{n}", one(number))

    return _unit_pattern(instruction_id).sub(unit, template)


@lru_cache(maxsize=64)
def _unit_pattern(instruction_id: str) -> re.Pattern:
    """Placeholders, with a relation and the number after it as one unit: "{relation} {num_words}"."""
    relations = [p.name for p in REGISTRY[instruction_id].params if p.role == "relation"]
    if not relations:
        return re.compile(r"()()\{([A-Za-z0-9_]+)\}")
    return re.compile(r"\{(" + "|".join(relations) + r")\} \{([A-Za-z0-9_]+)\}|\{([A-Za-z0-9_]+)\}")
