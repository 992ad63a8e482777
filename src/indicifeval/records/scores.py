"""One row's verdicts (a ``scores.jsonl`` line)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from indicifeval.records.ids import RowId

SCORE_FORMAT = 1


@dataclass
class RowScore:
    key: Any
    language: str
    subset: str
    instruction_id_list: list[str]
    strict: list[bool]
    loose: list[bool]
    prompt_strict: bool
    prompt_loose: bool
    explanations: list[str]
    response_missing: bool
    scoring: str
    version: str

    @property
    def id(self) -> RowId:
        return RowId.of(self.language, self.subset, self.key)

    def to_json(self) -> dict:
        # built by hand: dataclasses.asdict deep-copies every list, ten times slower
        return {"key": self.key, "language": self.language, "subset": self.subset,
                "instruction_id_list": self.instruction_id_list, "strict": self.strict, "loose": self.loose,
                "prompt_strict": self.prompt_strict, "prompt_loose": self.prompt_loose,
                "explanations": self.explanations, "response_missing": self.response_missing,
                "scoring": self.scoring, "version": self.version, "format_version": SCORE_FORMAT}

    @classmethod
    def from_json(cls, data: dict) -> RowScore:
        return cls(data["key"], data["language"], data["subset"], list(data["instruction_id_list"]),
                   list(data["strict"]), list(data["loose"]), bool(data["prompt_strict"]),
                   bool(data["prompt_loose"]), list(data.get("explanations") or []),
                   bool(data.get("response_missing")), data.get("scoring", "fixed"), data.get("version", ""))
