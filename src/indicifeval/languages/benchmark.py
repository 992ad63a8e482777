"""What the benchmark is made of, from data: ``benchmark.json`` (hub repository, subsets and
their configs, the shipped languages in the paper's order) and the language profiles, which the
caller hands over as the function that reads them (``profile.composition`` does): this module
reads no profile itself, so it needs nothing from the profiles' module.

Every list of languages anywhere in the package comes from here, so a profile added in
``$INDICIFEVAL_PROFILE_PATH`` is scored, run, loaded from a local hub layout, reported (as a
column, and in the Indic averages if it is Indic) and given lm-eval tasks, with no code change."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Protocol

from indicifeval.languages.data_files import read_data


class Profiled(Protocol):
    """What the composition reads of a language's profile."""

    @property
    def subsets(self) -> tuple[str, ...] | None: ...

    @property
    def is_indic(self) -> bool: ...


@dataclass(frozen=True)
class Composition:
    """The benchmark's subsets and configs (read at once), and its languages, read from the
    profiles only when first asked for: a bad profile is then an error the command reports in
    one line, not one raised while the package is imported."""

    name: str
    hub_repo: str
    subsets: tuple[str, ...]
    configs: dict[str, str] = field(hash=False)
    titles: dict[str, str] = field(hash=False)
    profiles: Callable[[], Mapping[str, Profiled]] = field(hash=False, compare=False, repr=False)  # read when asked
    data: dict = field(default_factory=dict, hash=False, compare=False, repr=False)  # benchmark.json
    # conversations (``multiturn``) -> their config: kept apart from ``subsets``, whose rows are
    # parsed, scored and given lm-eval tasks; a conversation is not a row
    conversation_configs: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    @cached_property
    def languages(self) -> tuple[str, ...]:
        """Every profiled language: the benchmark's order, then the added ones."""
        profiles = self.profiles()  # the subsets alone need no profile
        listed = [c for c in self.data["languages"] if c in profiles]
        return tuple(listed + sorted(c for c in profiles if c not in listed))

    @cached_property
    def language_subsets(self) -> dict[str, tuple[str, ...]]:
        profiles = self.profiles()  # the subsets alone need no profile
        default = tuple(self.data["default_subsets"])
        return {code: tuple(s for s in (profiles[code].subsets or self.data["language_subsets"].get(code) or default)
                            if s in self.subsets) for code in self.languages}

    @cached_property
    def indic(self) -> tuple[str, ...]:
        """The languages whose profile follows Indic text rules, in order."""
        profiles = self.profiles()  # the subsets alone need no profile
        return tuple(c for c in self.languages if profiles[c].is_indic)

    def subsets_of(self, language: str) -> tuple[str, ...]:
        return self.language_subsets.get(language, ())

    def languages_of(self, subset: str) -> tuple[str, ...]:
        return tuple(c for c in self.languages if subset in self.subsets_of(c))

    def config_of(self, subset: str) -> str:
        return self.configs[subset]

    def conversation_config(self, kind: str = "multiturn") -> str:
        """The hub config of a kind of conversation (``indicifeval-multiturn``)."""
        return self.conversation_configs[kind]


def read_composition(profiles: Callable[[], Mapping[str, Profiled]]) -> Composition:
    """The composition of ``benchmark.json``, its languages from what ``profiles()`` returns
    when they are first asked for."""
    data = read_data("benchmark.json")
    return Composition(name=data["name"], hub_repo=data["hub_repo"], subsets=tuple(data["subsets"]),
                       configs={s: info["config"] for s, info in data["subsets"].items()},
                       titles={s: info.get("title", s) for s, info in {**data["subsets"],
                                                                        **data.get("conversations", {})}.items()},
                       profiles=profiles, data=data,
                       conversation_configs={s: info["config"] for s, info in data.get("conversations", {}).items()})


@cache
def script_fonts() -> dict[str, tuple[str, ...]]:
    """Script -> the font families that draw it, in order of preference (scripts.json)."""
    table = read_data("scripts.json")
    return {code: tuple(info["fonts"]) for code, info in table.items()
            if not code.startswith("_") and info.get("fonts")}
