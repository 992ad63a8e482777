"""Reading rows for validation: as ``load_rows`` reads them (every schema problem is an
InputError naming file, line and field), except that a repeated key is kept, so that it is
reported as a finding beside all the others instead of stopping at the first. The hub's rows
come through ``load_dataset``, whose refusal of a repeated key stands (the hub's splits have
none)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from indicifeval.core.errors import InputError
from indicifeval.core.folders import read_manifest, tool_of
from indicifeval.dataset.benchmark import HUB, load_dataset
from indicifeval.dataset.hub_layout import is_hub_layout
from indicifeval.dataset.multiturn import is_multiturn_data
from indicifeval.dataset.rows import SAMPLES, _records, load_rows, parse_row
from indicifeval.records import Row
from indicifeval.records.layout import BUILD_ROWS, RELEASE_HUB, RELEASE_INFO, RELEASE_ROWS

Data = str | Path | Iterable[dict] | Iterable[Row]


def build_folder_files(data: Data) -> tuple[list[Path], Path | None] | None:
    """(row files, source) of a build folder (``indicifeval build``): each pipeline's final
    rows, or the Trans candidates when its validate stage has not run, and the English rows
    the Trans rows were made from; None when ``data`` is not a build folder."""
    if not isinstance(data, (str, Path)) or not Path(data).is_dir() or tool_of(read_manifest(data)) != "build":
        return None
    folder = Path(data)
    files: list[Path] = []
    source: Path | None = None
    for final, assembled, made_from in BUILD_ROWS.values():
        found = next((folder / name for name in (final, assembled) if (folder / name).is_file()), None)
        if found is not None:
            files.append(found)
            if made_from is not None and (folder / made_from).is_file():
                source = folder / made_from
    if not files:
        raise InputError("the build folder has no rows yet (run the build through its assemble or rows stage)",
                         str(folder))
    return files, source


def release_files(data: Data) -> Path | None:
    """The rows of a release folder: finalize's rows.jsonl, else publish's hub/ layout; None
    when ``data`` is not a release folder (one with a release.json)."""
    if not isinstance(data, (str, Path)) or not (Path(data) / RELEASE_INFO).is_file():
        return None
    folder = Path(data)
    if (folder / RELEASE_ROWS).is_file():
        return folder / RELEASE_ROWS
    if is_hub_layout(folder / RELEASE_HUB):
        return folder / RELEASE_HUB
    raise InputError(f"a release folder without {RELEASE_ROWS} or a {RELEASE_HUB}/ layout", str(folder))


RowReader = Callable[[], Iterator[Row]]


def row_reader(data: Data, language: str | None = None, subset: str | None = None) -> RowReader:
    """A way to read the rows as often as needed without holding them: a file or folder is read
    again line by line each time; rows in memory (and the hub's) are read once and kept."""
    if isinstance(data, (str, Path)) and str(data) not in (HUB, *SAMPLES):
        if not Path(data).exists():
            raise InputError("no such file or folder (use 'sample', 'hub', a file or a folder)", str(data))
        if is_multiturn_data(data):
            from indicifeval.dataset.validation.turns import conversations, turn_rows

            def turns() -> Iterator[Row]:
                for conversation in conversations(data, language):
                    yield from turn_rows(conversation)

            return turns
        path = release_files(data) or data

        def again() -> Iterator[Row]:
            empty = True
            for source, record, layout in _records(path):
                empty = False
                yield parse_row(record, source, language, subset, layout)
            if empty:
                raise InputError("no rows", str(path))

        return again
    rows = read_rows(data, language, subset)
    return lambda: iter(rows)


def read_rows(data: Data, language: str | None = None, subset: str | None = None) -> list[Row]:
    """Rows from a file, a folder (the hub's parquet layout included), ``"sample"``, ``"hub"``,
    a release folder, row dicts or parsed rows; ``language``/``subset`` fill in rows that carry
    none."""
    if not isinstance(data, (str, Path)):
        items: list = list(data)
        if items and all(isinstance(r, Row) for r in items):
            return items
        data = items
    elif str(data) == HUB:
        return load_dataset(source=HUB, language=language, subset=subset).rows
    elif str(data) not in SAMPLES and not Path(data).exists():
        raise InputError("no such file or folder (use 'sample', 'hub', a file or a folder)", str(data))
    else:
        data = release_files(data) or data
    rows = [parse_row(record, source, language, subset, layout)
            for source, record, layout in _records(data)]
    if not rows:
        raise InputError("no rows", str(data) if isinstance(data, (str, Path)) else None)
    return rows


def read_source(data: Data) -> list[Row]:
    """The English rows a Trans split was translated from (rows without a language are English
    Trans rows); a repeated key there is an error, as the loader makes it."""
    if not isinstance(data, (str, Path)):
        items: list = list(data)
        if items and all(isinstance(r, Row) for r in items):
            return items
        data = items
    elif not Path(data).exists() and str(data) not in SAMPLES:
        raise InputError("no such file or folder", f"--source {data}")
    return load_rows(data, defaults=("en", "trans"))
