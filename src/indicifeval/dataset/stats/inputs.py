"""What ``stats`` reads: whatever ``validate`` reads, through the same readers, plus the two
release folders the builder writes (``build finalize``: rows.jsonl beside release.json;
``build publish``: its hub/ parquet layout), and each row's build status where the file has
one (a build folder's rows, before finalize gives them tags)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from indicifeval.core.errors import InputError
from indicifeval.dataset.benchmark import HUB
from indicifeval.dataset.hub_layout import is_hub_layout
from indicifeval.dataset.rows import SAMPLES, _records, check_unique, parse_row
from indicifeval.dataset.stats.paper import PaperRecords
from indicifeval.dataset.validation.loading import build_folder_files, read_rows, release_files
from indicifeval.records import Row
from indicifeval.records.layout import RELEASE_INFO

PAPER_RECORDS = "paper_records"  # release.json's key for what finalize recorded for Tables 6 and 7


@dataclass
class StatsInput:
    """Rows to describe, where they came from, and each row's build status (None: no status)."""

    rows: list[Row]
    name: str
    kind: str  # rows | release | build | hub | sample
    statuses: list[str | None]
    source: Path | None = None  # a build folder's English rows
    records: PaperRecords | None = None  # what a release folder's release.json recorded for Tables 6 and 7

    @property
    def has_statuses(self) -> bool:
        return any(s is not None for s in self.statuses)


def _read_with_status(path: str | Path, language: str | None, subset: str | None,
                      fill_only: bool) -> tuple[list[Row], list]:
    rows, statuses = [], []
    given, defaults = ((None, None), (language, subset)) if fill_only else ((language, subset), (None, None))
    for source, record, layout in _records(path):
        rows.append(parse_row(record, source, *given, layout, defaults))
        status = record.get("status")
        statuses.append(str(status) if status is not None else None)
    return rows, statuses


def load_input(data: str | Path, language: str | None = None, subset: str | None = None,
               fill_only: bool = False) -> StatsInput:
    """Rows from a file, a folder (the hub's layout), a release or build folder, 'sample' or
    'hub'; ``language``/``subset`` fill in rows that carry none, and a row that says another is
    an error unless ``fill_only``. A repeated key is an error."""
    text = str(data)
    if text == HUB:
        return StatsInput(read_rows(HUB, language, subset), HUB, "hub", [])  # the hub: they select splits
    if text not in SAMPLES and not Path(data).exists():
        raise InputError("no such file or folder (use 'sample', 'hub', a file or a folder)", text)
    kind, source, records = ("sample" if text in SAMPLES else "rows"), None, None
    files: list[Path | str] = [text]
    if text not in SAMPLES and Path(data).is_dir():
        folder = Path(data)
        built = build_folder_files(folder)
        release = release_files(folder) if built is None else None
        if built is not None:
            kind, (found, source) = "build", built
            files = list(found)
        elif release is not None:
            kind, files = "release", [release]
            records = _release_records(folder)
        elif is_hub_layout(folder):
            kind = "hub"
    rows: list[Row] = []
    statuses: list[str | None] = []
    for file in files:
        more, status = _read_with_status(file, language, subset, fill_only)
        rows += more
        statuses += status
    if not rows:
        raise InputError("no rows", text)
    return StatsInput(check_unique(rows), text, kind, statuses, source, records)


def _release_records(folder: Path) -> PaperRecords | None:
    """What ``build finalize`` recorded in release.json for Tables 6 and 7 (None: a release
    finalized before it did, or unreadable)."""
    import json

    try:
        info = json.loads((folder / RELEASE_INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return PaperRecords.from_json(info.get(PAPER_RECORDS)) if isinstance(info, dict) else None


__all__ = ["PAPER_RECORDS", "StatsInput", "load_input"]
