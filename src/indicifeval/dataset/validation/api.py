"""``validate_rows`` and ``validate``: every check over every row, in row order, then what only
the dataset as a whole can show (source keys the data lacks)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import write_jsonl
from indicifeval.dataset.validation import artefacts, formats, language, lexical, numbers, source
from indicifeval.dataset.validation.findings import CHECK_NAMES, CHECKS, SOURCE_CHECKS, Finding, counts
from indicifeval.dataset.validation.loading import (
    Data,
    build_folder_files,
    read_rows,
    read_source,
)
from indicifeval.dataset.validation.prompt import Prompt

RowCheck = Callable[[Prompt], Iterator[Finding]]
ROW_CHECKS: tuple[RowCheck, ...] = (
    lexical.kwarg_missing, lexical.lexical_in_prompt, lexical.lexical_duplicate, lexical.letter_in_prompt,
    lexical.repeat_prompt, lexical.constrained_options,
    formats.two_responses_separator, formats.json_mentioned, formats.bullet_example, formats.highlight_example,
    formats.title_example,
    numbers.number_stated, numbers.relation_missing,
    language.language_named, language.resp_lang, language.prompt_language,
    artefacts.leftover_placeholder, artefacts.doubled_punctuation, artefacts.bidi_control,
)
DEFAULT_OUT = "validation.jsonl"


def validate_rows(rows: Data, source_rows: Data | None = None) -> list[Finding]:
    """Findings for ``rows`` (parsed rows, row dicts or a path), every instruction of every row;
    with ``source_rows`` (the English rows), each Trans split is compared with them as well."""
    row_list = read_rows(rows)
    index = source.source_index(read_source(source_rows)) if source_rows is not None else None
    repeated = source.duplicate_keys(row_list)
    prompts = [Prompt(r, index.get(str(r.key)) if index is not None and r.subset == "trans" else None)
               for r in row_list]
    cues = formats.format_cues(prompts)
    findings: list[Finding] = []
    for i, p in enumerate(prompts):
        p.cues = cues
        if i in repeated:
            findings.append(repeated[i])
        for check in ROW_CHECKS:
            findings.extend(check(p))
        if index is not None and p.row.subset == "trans":
            findings.extend(source.against_source(p))
    if index is not None:
        findings.extend(source.missing_keys(row_list, index))
    return findings


@dataclass
class ValidationReport:
    """The findings of one validation, with what was validated."""

    findings: list[Finding]
    rows: int
    instructions: int
    data: str
    source: str | None = None
    checks: tuple[str, ...] = field(default_factory=tuple)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if not f.is_error]

    def counts(self) -> dict[str, tuple[int, int]]:
        return counts(self.findings, self.checks)

    def write(self, path: str | Path = DEFAULT_OUT) -> Path:
        """One finding per line, replaced atomically."""
        return write_jsonl(path, (f.to_json() for f in self.findings))


def validate(data: Data, language: str | None = None, subset: str | None = None,
             source_rows: Data | None = None, skip: Iterable[str] = ()) -> ValidationReport:
    """Validate rows from ``data`` (a file, folder, build folder, ``"sample"``, ``"hub"`` or
    rows), against the English ``source_rows`` if given (a build folder's own by default);
    ``skip``: checks to leave out. Bad input raises InputError."""
    skipped = set(skip)
    unknown = sorted(skipped - set(CHECK_NAMES))
    if unknown:
        raise InputError(f"unknown check {', '.join(map(repr, unknown))}; checks: {', '.join(CHECK_NAMES)}",
                         field="skip")
    built = build_folder_files(data)
    if built is not None:  # a build folder: its rows, the Trans ones against the rows they were made from
        files, made_from = built
        rows = [row for file in files for row in read_rows(file, language, subset)]
        if source_rows is None and made_from is not None:
            source_rows = made_from
        data = files[0] if len(files) == 1 else f"{data} ({', '.join(f'{f.parent.name}/{f.name}' for f in files)})"
    else:
        rows = read_rows(data, language, subset)
    if source_rows is not None and not any(r.subset == "trans" for r in rows):
        raise InputError("--source compares Trans rows with their English source, and the data has no Trans rows",
                         _name(data))
    source_name = _name(source_rows) if source_rows is not None else None
    if source_rows is not None:
        source_list = read_source(source_rows)
        keys = {str(r.key) for r in source_list}
        if not any(str(r.key) in keys for r in rows if r.subset == "trans"):
            raise InputError("no Trans row's key is in the source: is it the English split these rows were "
                             "translated from?", _name(source_rows), field="key")
        source_rows = source_list
    findings = [f for f in validate_rows(rows, source_rows) if f.check not in skipped]
    checks = tuple(c.name for c in CHECKS
                   if c.name not in skipped and (source_rows is not None or c.name not in SOURCE_CHECKS))
    return ValidationReport(findings, len(rows), sum(len(r.instruction_id_list) for r in rows), _name(data),
                            source_name, checks)


def _name(data: Data | None) -> str:
    return str(data) if isinstance(data, (str, Path)) else "<rows>"


__all__ = ["DEFAULT_OUT", "ROW_CHECKS", "ValidationReport", "validate", "validate_rows"]
