"""What the benchmark is made of, from data: ``benchmark.json`` (hub repository, subsets and
their configs, the shipped languages in the paper's order) and the language profiles.

Every list of languages anywhere in the package comes from here, so a profile added in
``$INDICIFEVAL_PROFILE_PATH`` is scored, run, loaded from a local hub layout, reported (as a
column, and in the Indic averages if it is Indic) and given lm-eval tasks, with no code change."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from indicifeval.languages.profile import _all_profiles


@dataclass(frozen=True)
class Composition:
    name: str
    hub_repo: str
    subsets: tuple[str, ...]
    configs: dict[str, str] = field(hash=False)
    titles: dict[str, str] = field(hash=False)
    languages: tuple[str, ...] = ()  # every profiled language: the benchmark's order, then added ones
    language_subsets: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    indic: tuple[str, ...] = ()  # the languages whose profile follows Indic text rules, in order

    def subsets_of(self, language: str) -> tuple[str, ...]:
        return self.language_subsets.get(language, ())

    def languages_of(self, subset: str) -> tuple[str, ...]:
        return tuple(c for c in self.languages if subset in self.subsets_of(c))

    def config_of(self, subset: str) -> str:
        return self.configs[subset]


@cache
def composition() -> Composition:
    data = json.loads(resources.files("indicifeval.languages").joinpath("benchmark.json").read_text(encoding="utf-8"))
    profiles = _all_profiles()
    listed = [c for c in data["languages"] if c in profiles]
    added = sorted(c for c in profiles if c not in listed)
    languages = tuple(listed + added)
    subsets = tuple(data["subsets"])
    default = tuple(data["default_subsets"])
    per_language = {}
    for code in languages:
        own = profiles[code].subsets
        per_language[code] = tuple(s for s in (own or data["language_subsets"].get(code) or default) if s in subsets)
    return Composition(
        name=data["name"], hub_repo=data["hub_repo"], subsets=subsets,
        configs={s: info["config"] for s, info in data["subsets"].items()},
        titles={s: info.get("title", s) for s, info in data["subsets"].items()},
        languages=languages, language_subsets=per_language,
        indic=tuple(c for c in languages if profiles[c].is_indic),
    )


def indic_codes() -> tuple[str, ...]:
    """The Indic languages, in the benchmark's order (the paper's 14, then any added)."""
    return composition().indic


@cache
def script_fonts() -> dict[str, tuple[str, ...]]:
    """Script -> the font families that draw it, in order of preference (scripts.json)."""
    table = json.loads(resources.files("indicifeval.languages").joinpath("scripts.json").read_text(encoding="utf-8"))
    return {code: tuple(info["fonts"]) for code, info in table.items()
            if not code.startswith("_") and info.get("fonts")}
