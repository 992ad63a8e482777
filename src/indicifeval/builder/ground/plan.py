"""A Ground plan: how many contexts of each kind, from documents of which length, and how their
keywords are chosen; the shipped plans (``plans/NAME.json``) by name, or a YAML or JSON file,
checked field by field."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from indicifeval.builder.ground import beyond
from indicifeval.core.errors import InputError
from indicifeval.core.settings_file import read_settings

_PAIR = re.compile(r"\s*(\d+)\s+in\s+(\d+)\s*")
CHOICES = ("spread", "pool")
STARTS = ("sentence", "document")  # where a pooled first-word context may begin (``first_word_from``)
POOLED = ("keyword_frequency", "forbidden_word", "first_word")  # the kinds whose word comes from the pool


@dataclass
class KeywordChoice:
    """How the keyword-count, forbidden-word and first-word contexts choose their words.
    ``spread``: each context its own best word, a word used at most ``per_keyword`` times in all
    (many words, each tested once or twice). ``pool``: one pool of words for the language, drawn
    (seeded) from the words the corpus's contexts can fill most, shared by the three kinds; a word
    is used at most ``max_uses[kind]`` times per kind and ``per_count`` times per count N of the
    keyword-count constraint. The pool holds ``pool_size`` words at least, more where the corpus
    gives too few contexts per word to fill the quotas (0: as many as the quotas need).
    ``first_word_from`` (pool only): ``sentence``, a first-word context is the passage of a
    document from any sentence that opens with the word to the document's end (the document's
    own start first); ``document``, only a document that opens with it."""

    choice: str = "spread"
    pool_size: int = 0
    max_uses: dict[str, int] = field(default_factory=lambda: {"keyword_frequency": 5, "forbidden_word": 1,
                                                              "first_word": 5})
    per_count: int = 1
    first_word_from: str = "sentence"

    def to_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "pool_size": self.pool_size, "max_uses": dict(self.max_uses),
                "per_count": self.per_count, "first_word_from": self.first_word_from}


def _count(value: Any, name: str, where: str, least: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise InputError(f"{name} must be a whole number >= {least}, got {value!r}", where, field=name)
    return value


def keyword_choice(value: Any, where: str) -> KeywordChoice:
    """The plan's ``keywords`` setting: ``{choice: spread}`` or ``{choice: pool, pool_size: N,
    max_uses: {kind: N}, per_count: N, first_word_from: sentence|document}`` (a setting left out takes
    its default)."""
    if not isinstance(value, dict):
        raise InputError('keywords must be a mapping, e.g. {"choice": "pool", "pool_size": 13}', where,
                         field="keywords")
    out = KeywordChoice()
    for name, item in value.items():
        if str(name).startswith("_"):
            continue
        if name == "choice":
            if item not in CHOICES:
                raise InputError(f"keywords.choice must be one of {', '.join(CHOICES)}, got {item!r}", where,
                                 field="keywords.choice")
            out.choice = item
        elif name == "first_word_from":
            if item not in STARTS:
                raise InputError(f"keywords.first_word_from must be one of {', '.join(STARTS)}, got {item!r}",
                                 where, field="keywords.first_word_from")
            out.first_word_from = item
        elif name in ("pool_size", "per_count"):
            setattr(out, name, _count(item, f"keywords.{name}", where, 0 if name == "pool_size" else 1))
        elif name == "max_uses":
            if not isinstance(item, dict) or set(item) - set(POOLED):
                raise InputError(f"keywords.max_uses maps {', '.join(POOLED)} to the most uses of one word",
                                 where, field="keywords.max_uses")
            out.max_uses = {**out.max_uses, **{k: _count(v, f"keywords.max_uses.{k}", where, 1)
                                               for k, v in item.items()}}
        else:
            raise InputError("unknown keywords setting; the settings are choice, first_word_from, max_uses, per_count, "
                             "pool_size",
                             where, field=f"keywords.{name}")
    return out


@dataclass
class SelectionPlan:
    """How many contexts of each kind, from documents of which length; ``seed`` decides.
    These defaults are the shipped ``default`` plan (plans/default.json)."""

    seed: int = 42
    min_chars: int = 80
    max_chars: int = 1000
    keyword_frequency: dict[int, int] = field(default_factory=lambda: {1: 10, 2: 10, 3: 10, 4: 5, 5: 5})
    forbidden_word: int = 10
    forbidden_min_count: int = 2  # the forbidden word occurs at least this often in its context
    number_sentences: dict[int, int] = field(default_factory=lambda: {2: 5, 3: 5, 4: 5, 5: 5})
    number_paragraphs: dict[int, int] = field(default_factory=lambda: {1: 5, 2: 5, 3: 5})
    first_word: int = 20
    # "exactly S sentences in P paragraphs" (two instructions in one row): contexts per (S, P)
    sentences_and_paragraphs: dict[tuple[int, int], int] = field(default_factory=dict)
    per_keyword: int = 2  # contexts per keyword at most, so many keywords are tested
    context_required_share: float = 0.1  # of the requests, the share whose style needs the context
    # the instructions beyond the paper (numbers, units, romanised answers): contexts per id
    beyond: dict[str, int] = field(default_factory=dict)
    keywords: KeywordChoice = field(default_factory=KeywordChoice)  # how keywords are chosen (spread or a pool)

    def to_json(self) -> dict[str, Any]:
        return {k: (v.to_json() if isinstance(v, KeywordChoice) else {value_label(n): q for n, q in v.items()}
                    if isinstance(v, dict) else v) for k, v in self.__dict__.items()}


QUOTAS = ("keyword_frequency", "forbidden_word", "number_sentences", "number_paragraphs", "first_word",
          "sentences_and_paragraphs", "beyond")


def scaled(plan: SelectionPlan, factor: float) -> SelectionPlan:
    """``plan`` with every quota multiplied by ``factor`` (rounded; a quota above 0 stays at
    least 1), its mix kept: ``--plan paper --plan-scale 3.75`` asks for the release's 341 rows."""
    if factor <= 0:
        raise InputError(f"the plan's scale must be above 0, got {factor}", field="plan_scale")

    def one(n: int) -> int:
        return max(1, round(n * factor)) if n else 0

    out = replace(plan)
    for name in QUOTAS:
        value = getattr(plan, name)
        setattr(out, name, {k: one(v) for k, v in value.items()} if isinstance(value, dict) else one(value))
    out.keywords = replace(plan.keywords, pool_size=one(plan.keywords.pool_size))  # the pool grows with its uses
    return out


def value_label(n: int | tuple[int, int]) -> str:
    return f"{n[0]} in {n[1]}" if isinstance(n, tuple) else str(n)


def _quota(value: Any, name: str, where: str) -> dict[int, int]:
    if not isinstance(value, dict) or not all(str(k).isdigit() and isinstance(v, int) and not isinstance(v, bool)
                                              and v >= 0 for k, v in value.items()):
        raise InputError(f"{name} must map counts to how many contexts, e.g. {{1: 10, 2: 5}}", where, field=name)
    return {int(k): v for k, v in value.items()}


def _pairs(value: Any, name: str, where: str) -> dict[tuple[int, int], int]:
    out: dict[tuple[int, int], int] = {}
    for k, v in (value.items() if isinstance(value, dict) else [(None, None)]):
        match = _PAIR.fullmatch(str(k))
        if match is None or not isinstance(v, int) or isinstance(v, bool) or v < 0 or int(match[2]) < 1 \
                or int(match[1]) < int(match[2]):
            raise InputError(f'{name} must map "S in P" (S sentences in P paragraphs, S >= P >= 1) to how many '
                             f'contexts, e.g. {{"4 in 2": 5}}', where, field=name)
        out[int(match[1]), int(match[2])] = v
    return out


def _setting(plan: SelectionPlan, name: str, value: Any, where: str) -> Any:
    default = getattr(plan, name)
    if name == "sentences_and_paragraphs":
        return _pairs(value, name, where)
    if name == "beyond":
        return beyond.quotas(value, name, where)
    if name == "keywords":
        return keyword_choice(value, where)
    if isinstance(default, dict):
        return _quota(value, name, where)
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InputError(f"{name} must be a share from 0 to 1, got {value!r}", where, field=name)
        return float(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError(f"{name} must be a whole number >= 0, got {value!r}", where, field=name)
    return value


def load_plan(path: str | Path | None) -> SelectionPlan:
    """A plan by name (a shipped one, see ``plan_path``) or from a YAML or JSON file
    (safe-loaded), checked field by field; None: the default plan. Keys starting with "_"
    are comments."""
    file = plan_path(path)
    where = str(path if path is not None else file)
    data = read_settings(file, "plan file")
    if not isinstance(data, dict):
        raise InputError("a plan is a mapping of settings", where)
    plan, known = SelectionPlan(), set(SelectionPlan().__dict__)
    for name, value in data.items():
        if str(name).startswith("_"):
            continue
        if name not in known:
            raise InputError(f"unknown setting; the settings are {', '.join(sorted(known))}", where, field=str(name))
        setattr(plan, name, _setting(plan, name, value, where))
    if plan.min_chars > plan.max_chars:
        raise InputError("min_chars is above max_chars", where, field="min_chars")
    return plan


def _shipped() -> Path:
    return Path(str(resources.files("indicifeval.builder.ground").joinpath("plans")))


def plan_names() -> list[str]:
    """The plans shipped in the package (``plans/NAME.json``)."""
    return sorted(p.stem for p in _shipped().glob("*.json"))


def plan_path(plan: str | Path | None) -> Path:
    """The file of ``--plan``: a shipped plan's name (None: ``default``), else a YAML or JSON
    file; one that is neither is one line naming the shipped plans."""
    name = "default" if plan is None else str(plan)
    if name in plan_names():
        return _shipped() / f"{name}.json"
    path = Path(name)
    if path.is_file():
        return path
    what = "no such plan file" if path.suffix or len(path.parts) > 1 else "no such plan"
    raise InputError(f"{what}; the shipped plans are {', '.join(plan_names())} (or give a .yaml or .json file)",
                     name, field="plan")


def plan_label(plan: str | Path | None) -> str:
    """How a build records its plan: a shipped plan's name, else the file's name."""
    name = "default" if plan is None else str(plan)
    return name if name in plan_names() else Path(name).name


__all__ = ["CHOICES", "POOLED", "QUOTAS", "STARTS", "KeywordChoice", "SelectionPlan", "keyword_choice", "load_plan",
           "plan_label", "plan_names", "plan_path", "scaled", "value_label"]
