"""The instruction registry: ``@checker`` registers a check function under its IFEval id,
with the kwargs it takes. Argument validation and resolution live here, once, for all.

The registration also carries what building datasets needs about the instruction, so that it
cannot drift from the check: its paper category, each kwarg's role in a translation plan, how
to draw kwargs for a new prompt, and which instructions it cannot be asked together with
(queried through ``checkers.instructions``)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from indicifeval.checkers.rules import Draw, Rules, TextView
from indicifeval.languages import LanguageProfile, world_languages

Verdict = tuple[bool, str]
CheckFn = Callable[[TextView, dict, Rules], Verdict]
Kind = Literal["int", "float", "str", "strlist", "relation", "language"]
# What a translation plan does with a kwarg's value:
#   lexical        translate as a phrase (or keep verbatim when the row's resp_lang is not "src")
#   letter         one letter of the target profile's alphabet (defaults.letters)
#   copy_of_prompt must equal a piece of the translated prompt (see Param.copy_of)
#   number, relation, language_code: carried over unchanged
Role = Literal["lexical", "letter", "copy_of_prompt", "number", "relation", "language_code"]
ROLES: tuple[str, ...] = get_args(Role)
_ROLE_OF_KIND = {"int": "number", "float": "number", "relation": "relation", "language": "language_code"}
# The paper's five categories (Table 3), in its order, then those of the instructions it
# leaves to future work (scored in fixed mode only).
PAPER_CATEGORY_NAMES = ("English", "Keyword", "Format", "Length", "Language")
# the groups of the other suites' instructions: open-instruct's RL-training ids by their prefix,
# IFBench's by its own seven groups
SUITE_CATEGORY_NAMES = ("Copy", "Count", "Letters", "Words", "Ratio", "Sentence", "Repeat", "Custom", "Punctuation",
                        "Paragraphs", *PAPER_CATEGORY_NAMES)
CATEGORY_NAMES = (*PAPER_CATEGORY_NAMES, "Numerals and units", "Script")  # IFEval's and those beyond the paper
# Where an instruction comes from: IFEval's 25 (the paper's), the ones the paper leaves to
# future work (ours), open-instruct's RL-training ids ("IFEvalG"), IFBench's; and how a
# category of the last two is labelled beside IFEval's (its "Format" is not IFEval's)
SUITES = ("ifeval", "beyond", "open-instruct", "ifbench")
SUITE_LABELS = {"open-instruct": "RL", "ifbench": "IFBench"}
# (seeded rng, language profile, the kwargs drawn so far) -> a value
Sampler = Callable[[random.Random, LanguageProfile, dict], Any]

RELATIONS = ("less than", "at least", "exactly")
PAPER_RELATIONS = ("less than", "at least")

# The 24 kwarg names every hub row carries (unused ones null).
KWARG_NAMES = (
    "capital_frequency", "capital_relation", "end_phrase", "first_word", "forbidden_words", "frequency",
    "keyword", "keywords", "language", "let_frequency", "let_relation", "letter", "nth_paragraph",
    "num_bullets", "num_highlights", "num_paragraphs", "num_placeholders", "num_sections", "num_sentences",
    "num_words", "postscript_marker", "prompt_to_repeat", "relation", "section_spliter",
)


class KwargError(ValueError):
    """A kwarg is missing, of the wrong type, or not one this instruction takes."""

    def __init__(self, field_name: str, message: str):
        super().__init__(message)
        self.field = field_name


class _RngDraw:
    """``Draw``'s interface over one seeded ``random.Random``, so that generation draws from
    the same ranges as the paper defaults (IFEval's) without repeating them."""

    def __init__(self, rng: random.Random):
        self._rng = rng

    def choice(self, name: str, options):
        return self._rng.choice(list(options))

    def randint(self, name: str, lo: int, hi: int) -> int:
        return self._rng.randint(lo, hi)

    def sample(self, name: str, options, k: int) -> list:
        options = list(options)
        return self._rng.sample(options, min(k, len(options)))


def _sample_like(paper_default: Callable[[Draw, LanguageProfile], Any]) -> Sampler:
    return lambda rng, profile, drawn: paper_default(_RngDraw(rng), profile)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Param:
    name: str
    kind: Kind
    required: bool = True
    # The authors' random default when the value is missing (paper mode only).
    paper_default: Callable[[Draw, LanguageProfile], Any] | None = None
    # Its role in a translation plan; numbers, relations and language codes get theirs by kind.
    role: Role | None = None
    # Text a Trans pipeline must translate or protect; by default the lexical and letter roles.
    lexical: bool | None = None
    # For copy_of_prompt: "request", the whole request (the description refers to it, never
    # quotes it), or "phrase", a phrase the description itself quotes (so the prompt has it).
    copy_of: Literal["request", "phrase"] | None = None
    # How generation draws a value; by default as the paper default does (IFEval's range).
    sample: Sampler | None = None

    def __post_init__(self):
        role = self.role or _ROLE_OF_KIND.get(self.kind)
        if role not in ROLES:
            raise ValueError(f"kwarg {self.name!r}: declare its role, one of {', '.join(ROLES)}")
        object.__setattr__(self, "role", role)
        if self.lexical is None:
            object.__setattr__(self, "lexical", role in ("lexical", "letter"))
        if (role == "copy_of_prompt") != (self.copy_of is not None):
            raise ValueError(f"kwarg {self.name!r}: copy_of goes with the copy_of_prompt role, and only with it")
        if self.sample is None and self.paper_default is not None:
            object.__setattr__(self, "sample", _sample_like(self.paper_default))

    @property
    def shown(self) -> bool:
        """Whether an instruction description names the value (the request to repeat is the
        prompt itself, so it is not)."""
        return self.copy_of != "request"


@dataclass(frozen=True)
class AllBut:
    """A conflict set written as IFEval writes its widest ones: every instruction but these."""

    ids: frozenset[str] = frozenset()


def all_but(*ids: str) -> AllBut:
    return AllBut(frozenset(ids))


@dataclass(frozen=True)
class Checker:
    id: str
    fn: CheckFn
    params: tuple[Param, ...] = ()
    # Paper-mode adjustments after defaults (e.g. the letter rule); gets and returns args.
    paper_fixup: Callable[[dict, Draw, Rules], dict] | None = None
    category: str = ""  # the paper's Table 3
    table_row: int = 0  # its row in Table 3, which lists the ids in this order
    # Instructions it cannot sensibly be asked with (made symmetric by checkers.instructions).
    conflicts: tuple[str, ...] | AllBut = ()
    # Beyond the paper: not in paper mode, and only where the language's profile has the data
    # (``requires`` says what is missing, or None).
    fixed_only: bool = False
    requires: Callable[[LanguageProfile], str | None] | None = None
    suite: str = "ifeval"
    param_names: frozenset[str] = field(init=False)
    params_by_name: dict[str, Param] = field(init=False, repr=False, compare=False)  # (what clean_kwargs reads)

    def __post_init__(self):
        object.__setattr__(self, "param_names", frozenset(p.name for p in self.params))
        object.__setattr__(self, "params_by_name", {p.name: p for p in self.params})
        if self.suite not in SUITES:
            raise ValueError(f"{self.id}: suite must be one of {', '.join(SUITES)}, got {self.suite!r}")
        names = SUITE_CATEGORY_NAMES if self.suite in SUITE_LABELS else CATEGORY_NAMES
        if self.category not in names:
            raise ValueError(f"{self.id}: category must be one of {', '.join(names)}, got {self.category!r}")
        if self.suite != "ifeval" and not self.fixed_only:
            raise ValueError(f"{self.id}: only IFEval's instructions are scored in paper mode (say fixed_only=True)")

    def unavailable(self, profile: LanguageProfile, paper: bool) -> str | None:
        """Why a row of this language cannot ask for it in this mode, or None."""
        if paper and self.fixed_only:
            return (f"{self.id} is not one of the paper's instructions: score it with --scoring fixed, or leave "
                    f"such rows out (e.g. --tags not:beyond)")
        return self.requires(profile) if self.requires is not None else None

    @property
    def category_label(self) -> str:
        """Its category as tables show it: IFEval's as the paper names them, another suite's with
        the suite's name before it ("IFBench Format")."""
        label = SUITE_LABELS.get(self.suite)
        return f"{label} {self.category}" if label else self.category

    @property
    def family(self) -> str:
        return self.id.split(":", 1)[0]

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KwargError(name, f"{self.id} takes no kwarg {name!r}")


REGISTRY: dict[str, Checker] = {}


def checker(
    instruction_id: str,
    *params: Param,
    category: str,
    table_row: int,
    conflicts: tuple[str, ...] | AllBut = (),
    paper_fixup=None,
    fixed_only: bool = False,
    requires: Callable[[LanguageProfile], str | None] | None = None,
    suite: str | None = None,
) -> Callable[[CheckFn], CheckFn]:
    """Register ``fn`` as the check of ``instruction_id``. ``suite`` defaults to IFEval's, or to
    "beyond" for an instruction scored in fixed mode only."""
    def register(fn: CheckFn) -> CheckFn:
        if instruction_id in REGISTRY:
            raise RuntimeError(f"instruction {instruction_id} registered twice")
        REGISTRY[instruction_id] = Checker(
            instruction_id, fn, tuple(params), paper_fixup, category, table_row, conflicts, fixed_only, requires,
            suite or ("beyond" if fixed_only else "ifeval"),
        )
        return fn

    return register


# -- validation -----------------------------------------------------------------------------------
def _coerce(param: Param, value: Any) -> Any:
    name = param.name
    if param.kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise KwargError(name, f"{name} must be a number, got {value!r}")
        return float(value)
    if param.kind == "int":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise KwargError(name, f"{name} must be an integer, got {value!r}")
        if isinstance(value, float):
            if not math.isfinite(value) or not value.is_integer():
                raise KwargError(name, f"{name} must be a whole number, got {value!r}")
            value = int(value)
        return value
    if param.kind in ("str", "relation", "language"):
        if not isinstance(value, str):
            raise KwargError(name, f"{name} must be a string, got {value!r}")
        if param.kind == "relation" and value not in RELATIONS:
            raise KwargError(name, f"{name} must be one of {', '.join(RELATIONS)}; got {value!r}")
        if param.kind == "language" and value not in world_languages():
            raise KwargError(name, f"{name}: unknown language code {value!r}")
        return value
    if param.kind == "strlist":
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise KwargError(name, f"{name} must be a list of strings, got {value!r}")
        return list(value)
    raise AssertionError(param.kind)


def clean_kwargs(instruction_id: str, kwargs: dict | None) -> dict:
    """Type-check and normalise one instruction's kwargs: nulls dropped, 10.0 -> 10.
    Raises KwargError naming the offending field."""
    spec = REGISTRY[instruction_id]
    if kwargs is None:
        return {}
    if not isinstance(kwargs, dict):
        raise KwargError("kwargs", f"kwargs for {instruction_id} must be an object, got {type(kwargs).__name__}")
    by_name = spec.params_by_name
    out = {}
    for name, value in kwargs.items():
        if value is None:
            continue
        param = by_name.get(name)
        if param is None:
            raise KwargError(name, f"{instruction_id} takes no kwarg {name!r} (value {value!r})")
        out[name] = _coerce(param, value)
    return out


def resolve_args(instruction_id: str, kwargs: dict, rules: Rules, draw: Draw) -> dict:
    """The arguments a check runs with, from cleaned kwargs, in the rules' scoring mode."""
    spec = REGISTRY[instruction_id]
    if rules.paper:
        return _resolve_paper(spec, kwargs, rules, draw)
    args = {}
    for p in spec.params:
        value = kwargs.get(p.name)
        if value is None:
            if p.kind == "relation":
                value = "exactly"  # Ground rows omit it; their prompts say "exactly N"
            elif p.required:
                raise KwargError(p.name, f"{instruction_id} needs kwarg {p.name!r}")
        elif p.kind in ("int", "float") and value < 0:
            raise KwargError(p.name, f"{p.name} must not be negative, got {value}")
        elif isinstance(value, str):
            value = value.strip()
        args[p.name] = value
    return args


def _resolve_paper(spec: Checker, kwargs: dict, rules: Rules, draw: Draw) -> dict:
    # The authors keep only truthy kwargs, then draw a default for anything missing. A relation
    # "exactly" (their code would raise on it) is honoured as written.
    given = {k: v for k, v in kwargs.items() if v}
    args = {}
    for p in spec.params:
        value = given.get(p.name)
        if isinstance(value, str):
            value = value.strip()
        if p.kind == "int" and isinstance(kwargs.get(p.name), int) and kwargs[p.name] < 0:
            raise KwargError(p.name, f"{p.name} must not be negative, got {kwargs[p.name]}")  # in both modes
        if value is None and p.paper_default is not None:
            value = p.paper_default(draw, rules.profile)
        args[p.name] = value
    if spec.paper_fixup is not None:
        args = spec.paper_fixup(args, draw, rules)
    return args


# -- shared helpers for checkers ------------------------------------------------------------------
def relation_default(name: str) -> Callable[[Draw, LanguageProfile], str]:
    return lambda draw, profile: draw.choice(name, PAPER_RELATIONS)


def int_default(name: str, lo: int, hi: int) -> Callable[[Draw, LanguageProfile], int]:
    return lambda draw, profile: draw.randint(name, lo, hi)


def compare(count: int, relation: str, target: int) -> bool:
    if relation == "less than":
        return count < target
    if relation == "exactly":
        return count == target
    return count >= target  # "at least" (and, as in the authors' letter check, anything else)


def counted(count: int, noun: str, relation: str, target: int) -> Verdict:
    ok = compare(count, relation, target)
    return ok, f"{count} {noun}, needed {relation} {target}"
