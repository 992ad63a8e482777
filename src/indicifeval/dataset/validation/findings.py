"""What the validator reports: one ``Finding`` per problem, and the checks it can come from.

A finding names the row (``RowId``), the instruction (its index in ``instruction_id_list``, so
every occurrence of a repeated id is told apart), the check, a severity and the evidence (the
span of the prompt or the kwarg value). Errors make ``indicifeval validate`` exit 1; warnings
are things a reviewer should look at that may be fine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from indicifeval.core.errors import Source
from indicifeval.records import Row, RowId

FINDING_FORMAT = 1
Severity = Literal["error", "warning"]
ERROR: Severity = "error"
WARNING: Severity = "warning"


@dataclass(frozen=True)
class Check:
    name: str
    what: str  # one line for the table and the docs
    dataset: bool = False  # compares rows with each other or with the source, not one prompt


# In the order the table lists them.
CHECKS: tuple[Check, ...] = (
    Check("instruction_defined", "every instruction is defined for the row's language (an open-instruct or IFBench "
                                 "id about letter case, say, is not in Hindi)"),
    Check("kwarg_missing", "every kwarg the checker needs is given (relations: relation_missing)"),
    Check("lexical_in_prompt", "keywords, forbidden words, first word, end phrase, marker, splitter in the prompt"),
    Check("lexical_duplicate", "a value listed twice in one kwarg"),
    Check("letter_in_prompt", "the letter of letter_frequency shown in the prompt"),
    Check("repeat_prompt", "prompt_to_repeat is a verbatim piece of the prompt"),
    Check("constrained_options", "the profile's constrained-response phrases in the prompt"),
    Check("two_responses_separator", "****** shown for two responses"),
    Check("json_mentioned", "JSON (or a ``` fence) mentioned for json_format"),
    Check("bullet_example", "a bullet marker or the word for bullets"),
    Check("highlight_example", "a non-empty *highlight* example (or the word)"),
    Check("title_example", "a non-empty <<title>> example (or the words)"),
    Check("number_stated", "each number of the kwargs stated in digits or words"),
    Check("beyond_stated", "an instruction beyond the paper defined for the language and stated (digits, system, "
                           "units, Latin letters)"),
    Check("relation_missing", "a relation where the checker needs one"),
    Check("language_named", "the requested response language named in the prompt"),
    Check("resp_lang", "resp_lang agrees with the instructions"),
    Check("prompt_language", "the prompt is in the row's language (its script; the language identified)"),
    Check("bidi_control", "no bidi embedding, override or isolate characters in the key, prompt or kwargs"),
    Check("leftover_placeholder", "no {{1}}, [[1]], ⟦1⟧, <ph1> or [INSERT … HERE] left in the prompt"),
    Check("doubled_punctuation", "no doubled punctuation (??, ।।) from translation or copying"),
    Check("turn_conflict", "no two instructions of one turn conflict (conversations; an error where a later turn "
                           "brought the conflict)"),
    Check("duplicate_key", "one row per language, subset and key", dataset=True),
    Check("source_keys", "the same keys as the English source", dataset=True),
    Check("source_instructions", "the source's instruction ids, in its order", dataset=True),
    Check("source_kwargs", "numbers, relations, language codes and resp_lang as in the source", dataset=True),
    Check("source_verbatim", "the source's verbatim (resp_lang not src) values in the translated prompt",
          dataset=True),
)
CHECK_NAMES = tuple(c.name for c in CHECKS)
SOURCE_CHECKS = tuple(c.name for c in CHECKS if c.name.startswith("source_"))


@dataclass(frozen=True)
class Finding:
    row: RowId | None
    check: str
    severity: Severity
    message: str
    evidence: str | None = None
    instruction_index: int | None = None  # 0-based position in instruction_id_list
    instruction_id: str | None = None
    where: Source | None = None  # the file and line the row came from

    def __post_init__(self):
        if self.check not in CHECK_NAMES:
            raise ValueError(f"unknown check {self.check!r}")
        if self.severity not in (ERROR, WARNING):
            raise ValueError(f"severity must be error or warning, got {self.severity!r}")

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_json(self) -> dict:
        row = self.row
        return {"format_version": FINDING_FORMAT, "row": str(row) if row else None,
                "language": row.language if row else None, "subset": row.subset if row else None,
                "key": row.key if row else None, "instruction_index": self.instruction_index,
                "instruction_id": self.instruction_id, "check": self.check, "severity": self.severity,
                "message": self.message, "evidence": self.evidence,
                "file": self.where.file if self.where else None, "line": self.where.line if self.where else None}

    @classmethod
    def from_json(cls, data: dict) -> Finding:
        row = RowId.parse(data["row"]) if data.get("row") else None
        where = Source(data["file"], data.get("line")) if data.get("file") else None
        return cls(row, data["check"], data["severity"], data["message"], data.get("evidence"),
                   data.get("instruction_index"), data.get("instruction_id"), where)


def finding(row: Row | None, check: str, severity: Severity, message: str, evidence: str | None = None,
            index: int | None = None) -> Finding:
    """A finding about ``row`` (and its instruction ``index``), located where the row was read."""
    if row is None:
        return Finding(None, check, severity, message, evidence)
    iid = row.instruction_id_list[index] if index is not None else None
    return Finding(row.id, check, severity, message, evidence, index, iid, row.source)


def counts(findings: list[Finding], checks: tuple[str, ...] = CHECK_NAMES) -> dict[str, tuple[int, int]]:
    """check -> (errors, warnings), for every check asked (zeros included), in table order."""
    table = {name: [0, 0] for name in checks}
    for f in findings:
        table.setdefault(f.check, [0, 0])[0 if f.is_error else 1] += 1
    return {name: (e, w) for name, (e, w) in table.items()}
