"""Writing rows, beside the readers: JSON lines (``rows.jsonl``) and the hub's parquet layout
(``<config>/<split>-00000-of-00001.parquet`` plus a README whose YAML names the configs), so
that what the package writes, ``load_dataset`` and ``datasets.load_dataset`` read back."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from indicifeval.checkers import KWARG_NAMES, REGISTRY
from indicifeval.core.errors import InputError
from indicifeval.core.files import StagedFiles
from indicifeval.core.jsonl import write_jsonl
from indicifeval.dataset.hub_layout import configs
from indicifeval.records import Row

_INT_KINDS = {"int"}
_FLOAT_KINDS = {"float"}
_LIST_KINDS = {"strlist"}


def write_rows_jsonl(path: str | Path, rows: Iterable[Row]) -> Path:
    """One row per line, with its format version; replaced atomically."""
    return write_jsonl(path, (row.to_json() for row in rows))


def _kwarg_kinds() -> dict[str, str]:
    kinds: dict[str, str] = {}
    for spec in REGISTRY.values():
        for param in spec.params:
            kinds.setdefault(param.name, param.kind)
    return kinds


def kwarg_names(rows: Iterable[Row]) -> tuple[str, ...]:
    """The kwarg names a file of ``rows`` carries: IFEval's 24 (as the hub serves them), then, in
    name order, those of any other suite's instructions the rows ask for (IFBench's ``N``,
    ``options``...), so a release of IFEval rows is as it always was."""
    extra = {p.name for row in rows for iid in row.instruction_id_list if iid in REGISTRY
             for p in REGISTRY[iid].params} - set(KWARG_NAMES)
    return (*KWARG_NAMES, *sorted(extra))


def hub_record(row: Row, names: tuple[str, ...] | None = None) -> dict:
    """A row as the hub serves it: every kwarg dict with all the kwarg names (``kwarg_names``:
    IFEval's 24 and any of the row's own), the unused ones null."""
    names = names or kwarg_names([row])
    return {"key": row.key, "prompt": row.prompt, "instruction_id_list": list(row.instruction_id_list),
            "kwargs": [{name: kw.get(name) for name in names} for kw in row.kwargs],
            "tags": list(row.tags), "resp_lang": row.resp_lang}


def _pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet  # noqa: F401  (pa.parquet)
    except ImportError:
        raise InputError("writing Parquet needs pyarrow: pip install 'indicifeval[parquet]'") from None
    return pa


def _schema():
    pa = _pyarrow()

    kinds = _kwarg_kinds()

    def kind_type(name: str):
        kind = kinds.get(name, "str")
        if kind in _INT_KINDS:
            return pa.int64()
        if kind in _FLOAT_KINDS:
            return pa.float64()
        if kind in _LIST_KINDS:
            return pa.list_(pa.string())
        return pa.string()

    key_type = pa.string()
    return lambda keys_are_ints, names: pa.schema([
        ("key", pa.int64() if keys_are_ints else key_type), ("prompt", pa.string()),
        ("instruction_id_list", pa.list_(pa.string())),
        ("kwargs", pa.list_(pa.struct([(n, kind_type(n)) for n in names]))),
        ("tags", pa.list_(pa.string())), ("resp_lang", pa.string()),
    ])


def parquet_bytes(records: list[dict], schema: Any = None) -> bytes:
    """Records as one Parquet file's bytes (pyarrow's types inferred unless ``schema`` is given)."""
    pa = _pyarrow()
    buffer = io.BytesIO()
    pa.parquet.write_table(pa.Table.from_pylist(records, schema=schema), buffer)
    return buffer.getvalue()


def write_hub_layout(folder: str | Path, rows: Iterable[Row], name: str = "IndicIFEval") -> list[Path]:
    """The rows as a local copy of the hub's layout: one parquet file per (subset, language)
    and a README.md whose front matter declares the configs and splits. All files are staged
    and replace earlier ones together."""
    by_split: dict[tuple[str, str], list[Row]] = {}
    for row in rows:
        by_split.setdefault((row.subset, row.language), []).append(row)
    names = configs()
    schema = _schema()
    kwargs_of = kwarg_names([r for split in by_split.values() for r in split])  # one schema for every file
    staged = StagedFiles(folder)
    with staged:
        for (subset, lang), split_rows in sorted(by_split.items()):
            ints = all(isinstance(r.key, int) and not isinstance(r.key, bool) for r in split_rows)
            # a split whose keys mix numbers and text stores them all as text (7 and "7" are one key)
            records = [{**hub_record(r, kwargs_of), "key": r.key if ints else str(r.key)} for r in split_rows]
            staged.write_bytes(f"{names[subset]}/{lang}-00000-of-00001.parquet",
                               parquet_bytes(records, schema(ints, kwargs_of)))
        staged.write_text("README.md", _card(name, sorted(by_split), names))
    return [Path(folder) / n for n in staged.names]


def _card(name: str, splits: list[tuple[str, str]], names: dict[str, str]) -> str:
    lines = ["---", "configs:"]
    for subset, config in names.items():
        langs = [lang for s, lang in splits if s == subset]
        if not langs:
            continue
        lines += [f"- config_name: {config}", "  data_files:"]
        lines += [f"  - split: {lang}\n    path: {config}/{lang}-*.parquet" for lang in langs]
    lines += ["---", f"# {name}", "",
              "Written by indicifeval: one parquet file per subset (config) and language (split).",
              ""]
    return "\n".join(lines)
