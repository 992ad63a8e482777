"""``validate_rows`` and ``validate``: every check over every row, in row order, then what only
the dataset as a whole can show (source keys the data lacks)."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from indicifeval.core.errors import InputError
from indicifeval.core.jsonl import write_jsonl
from indicifeval.dataset.multiturn import is_multiturn_data
from indicifeval.dataset.validation import artefacts, beyond, formats, language, lexical, numbers, source, turns
from indicifeval.dataset.validation.findings import CHECK_NAMES, CHECKS, SOURCE_CHECKS, Finding, counts
from indicifeval.dataset.validation.loading import Data, RowReader, build_folder_files, read_source, row_reader
from indicifeval.dataset.validation.prompt import Prompt
from indicifeval.records import Row

RowCheck = Callable[[Prompt], Iterator[Finding]]
ROW_CHECKS: tuple[RowCheck, ...] = (
    lexical.instruction_defined, lexical.kwarg_missing, lexical.lexical_in_prompt, lexical.lexical_duplicate,
    lexical.letter_in_prompt, lexical.repeat_prompt, lexical.constrained_options,
    formats.two_responses_separator, formats.json_mentioned, formats.bullet_example, formats.highlight_example,
    formats.title_example,
    numbers.number_stated, numbers.relation_missing, beyond.beyond_stated,
    language.language_named, language.resp_lang, language.prompt_language,
    artefacts.leftover_placeholder, artefacts.doubled_punctuation, artefacts.bidi_control,
)
DEFAULT_OUT = "validation.jsonl"


@dataclass
class _Survey:
    """What one pass over the rows learns before any row is checked: the format cue words of
    the whole dataset (formats.py), and the counts the report and the source checks need."""

    cues: formats.Cues
    repeated: frozenset[int] = frozenset()  # digests of ids that occur more than once
    rows: int = 0
    instructions: int = 0
    trans: int = 0
    trans_in_source: int = 0


def _survey(rows: RowReader, index: dict[str, Row] | None) -> _Survey:
    counts = formats.CueCounts()
    survey = _Survey({})
    digests = array("Q")
    for row in rows():
        counts.add(Prompt(row))
        digests.append(source.id_digest(row))
        survey.rows += 1
        survey.instructions += len(row.instruction_id_list)
        if row.subset == "trans":
            survey.trans += 1
            survey.trans_in_source += index is not None and str(row.key) in index
    survey.cues = counts.table()
    survey.repeated = source.repeated_digests(digests)
    return survey


def _findings(rows: RowReader, index: dict[str, Row] | None, survey: _Survey,
              whole: Callable[[], Iterator[Finding]] | None = None) -> Iterator[Finding]:
    """Every check over every row, in row order (a row is read, checked and let go), then the
    source keys no Trans split has."""
    repeated = source.DuplicateKeys(survey.repeated)
    cues = survey.cues
    present: dict[str, set[str]] = {}
    for row in rows():
        p = Prompt(row, index.get(str(row.key)) if index is not None and row.subset == "trans" else None, cues)
        twice = repeated.check(row)
        if twice is not None:
            yield twice
        for check in ROW_CHECKS:
            yield from check(p)
        if index is not None and row.subset == "trans":
            yield from source.against_source(p)
            keys = present.setdefault(row.language, set())
            if str(row.key) in index:  # a key the source lacks is its own finding: the sets stay the source's size
                keys.add(str(row.key))
    if index is not None:
        yield from source.missing_keys(present, index)
    if whole is not None:  # what only a whole conversation shows
        yield from whole()


def validate_rows(rows: Data, source_rows: Data | None = None) -> list[Finding]:
    """Findings for ``rows`` (parsed rows, row dicts or a path), every instruction of every row;
    with ``source_rows`` (the English rows), each Trans split is compared with them as well."""
    reader = row_reader(rows)
    index = source.source_index(read_source(source_rows)) if source_rows is not None else None
    return list(_findings(reader, index, _survey(reader, index)))


@dataclass
class ValidationReport:
    """The findings of one validation, with what was validated. ``tally``: check -> (errors,
    warnings) over every finding; ``findings`` holds them all, or, from ``validate_into``, the
    first ``keep`` of each check and severity (the file it wrote holds them all)."""

    findings: list[Finding]
    rows: int
    instructions: int
    data: str
    source: str | None = None
    checks: tuple[str, ...] = field(default_factory=tuple)
    tally: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if not f.is_error]

    @property
    def error_count(self) -> int:
        return sum(e for e, _ in self.tally.values())

    @property
    def warning_count(self) -> int:
        return sum(w for _, w in self.tally.values())

    def counts(self) -> dict[str, tuple[int, int]]:
        return {**{name: (0, 0) for name in self.checks}, **self.tally}

    def write(self, path: str | Path = DEFAULT_OUT) -> Path:
        """One finding per line, replaced atomically."""
        return write_jsonl(path, (f.to_json() for f in self.findings))


def validate(data: Data, language: str | None = None, subset: str | None = None,
             source_rows: Data | None = None, skip: Iterable[str] = ()) -> ValidationReport:
    """Validate rows from ``data`` (a file, folder, build folder, ``"sample"``, ``"hub"`` or
    rows), against the English ``source_rows`` if given (a build folder's own by default);
    ``skip``: checks to leave out. Bad input raises InputError."""
    report, found = _prepare(data, language, subset, source_rows, skip)
    report.findings = list(found)
    report.tally = counts(report.findings, report.checks)
    return report


def validate_into(path: str | Path | None, data: Data, language: str | None = None, subset: str | None = None,
                  source_rows: Data | None = None, skip: Iterable[str] = (), keep: int = 20) -> ValidationReport:
    """``validate``, writing every finding to ``path`` (JSON lines, atomically; None: nowhere) as
    it is found, so that memory does not grow with the dataset: the report keeps the counts and
    the first ``keep`` findings of each check and severity."""
    report, found = _prepare(data, language, subset, source_rows, skip)
    tally = {name: [0, 0] for name in report.checks}
    kept: dict[tuple[bool, str], list[Finding]] = {}

    def each() -> Iterator[dict]:
        for f in found:
            tally.setdefault(f.check, [0, 0])[0 if f.is_error else 1] += 1
            bucket = kept.setdefault((f.is_error, f.check), [])
            if len(bucket) < keep:
                bucket.append(f)
            yield f.to_json()

    if path is not None:
        write_jsonl(path, each())
    else:
        for _ in each():
            pass
    report.findings = [f for bucket in kept.values() for f in bucket]
    report.tally = {name: (e, w) for name, (e, w) in tally.items()}
    return report


def _prepare(data: Data, language: str | None, subset: str | None, source_rows: Data | None,
             skip: Iterable[str]) -> tuple[ValidationReport, Iterator[Finding]]:
    """The report's frame (rows, instructions, names, checks) from a first pass over the rows,
    and the findings, made as they are asked for by a second."""
    skipped = set(skip)
    unknown = sorted(skipped - set(CHECK_NAMES))
    if unknown:
        raise InputError(f"unknown check {', '.join(map(repr, unknown))}; checks: {', '.join(CHECK_NAMES)}",
                         field="skip")
    built = build_folder_files(data)
    if built is not None:  # a build folder: its rows, the Trans ones against the rows they were made from
        files, made_from = built
        readers = [row_reader(file, language, subset) for file in files]

        def reader() -> Iterator[Row]:
            for each in readers:
                yield from each()

        if source_rows is None and made_from is not None:
            source_rows = made_from
        data = files[0] if len(files) == 1 else f"{data} ({', '.join(f'{f.parent.name}/{f.name}' for f in files)})"
    else:
        reader = row_reader(data, language, subset)
    source_name = _name(source_rows) if source_rows is not None else None
    index = source.source_index(read_source(source_rows)) if source_rows is not None else None
    survey = _survey(reader, index)
    if index is not None and not survey.trans:
        raise InputError("--source compares Trans rows with their English source, and the data has no Trans rows",
                         _name(data))
    if index is not None and not survey.trans_in_source:
        raise InputError("no Trans row's key is in the source: is it the English split these rows were "
                         "translated from?", source_name, field="key")
    checks = tuple(c.name for c in CHECKS
                   if c.name not in skipped and (index is not None or c.name not in SOURCE_CHECKS))
    whole = None
    if built is None and isinstance(data, (str, Path)) and is_multiturn_data(data):
        path = data

        def whole() -> Iterator[Finding]:
            for conversation in turns.conversations(path, language):
                yield from turns.turn_conflicts(conversation)

    found = (f for f in _findings(reader, index, survey, whole) if f.check not in skipped)
    return ValidationReport([], survey.rows, survey.instructions, _name(data), source_name, checks), found


def _name(data: Data | None) -> str:
    return str(data) if isinstance(data, (str, Path)) else "<rows>"


__all__ = ["DEFAULT_OUT", "ROW_CHECKS", "ValidationReport", "validate", "validate_into", "validate_rows"]
