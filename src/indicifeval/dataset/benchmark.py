"""``load_dataset``: IndicIFEval rows from the hub, a local copy of it, a file, or the sample.

The hub serves ``ai4bharat/IndicIFEval`` with one config per subset (``indicifeval-trans``:
splits ``en`` and the 14 Indic codes; ``indicifeval-ground``: the 14 Indic codes), as parquet
files ``<config>/<split>-00000-of-00001.parquet``; the repository, configs and splits come from
the composition (``languages/benchmark.json`` and the profiles). A local folder in that layout
is read directly; the hub itself through the ``datasets`` library (``pip install
'indicifeval[hub]'``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.checkers import SUBSETS
from indicifeval.core.errors import InputError
from indicifeval.dataset.hub import rows_from_hub
from indicifeval.dataset.rows import SAMPLES, Row, load_rows
from indicifeval.languages import UnknownLanguageError, composition, get_profile

HUB = "hub"
__all__ = ["HUB", "PAPER_TRANS_TAGS", "Dataset", "load_dataset", "parse_languages", "select"]
PAPER_TRANS_TAGS = ("correct", "parallel")  # the paper's 321-prompt parallel Trans subset


@dataclass
class Dataset:
    rows: list[Row]
    info: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.rows)


def parse_languages(languages: str | Iterable[str] | None) -> list[str] | None:
    """``"all"``/None -> None (every language present); ``"hi,bn"`` -> ["hi", "bn"]."""
    if languages is None or languages == "all":
        return None
    codes = [c.strip() for c in (languages.split(",") if isinstance(languages, str) else languages) if c.strip()]
    for code in codes:
        try:
            get_profile(code)
        except UnknownLanguageError as exc:
            raise InputError(str(exc), field="languages") from None
    return codes


def _split_names(subset: str, languages: list[str] | None) -> list[str]:
    available = composition().languages_of(subset)
    if languages is None:
        return list(available)
    return [c for c in languages if c in available]


def load_dataset(
    subsets: str | Iterable[str] = ("trans", "ground"),
    languages: str | Iterable[str] | None = "all",
    source: str | Path = HUB,
    *,
    revision: str | None = None,
    repo: str | None = None,
    tags: Iterable[str] | None = None,
    limit: int | None = None,
    language: str | None = None,
    subset: str | None = None,
) -> Dataset:
    """Benchmark rows for the chosen subsets and languages, validated.

    ``source``: ``"hub"`` (via ``datasets``; ``revision`` pins a commit), a folder in the
    hub's parquet layout, a JSONL/JSON/Parquet file, or ``"sample"``. ``tags``: keep rows that
    carry all of them (``correct``, ``parallel``, ``gold prompt`` …). ``limit``: the first N
    rows of each language and subset. ``language``/``subset`` fill in rows that carry none
    (a row that carries another is an error, never relabelled).
    """
    subset_list = parse_subsets(subsets)
    langs = parse_languages(languages)
    source_str = str(source)
    info: dict[str, Any] = {"source": source_str, "subsets": subset_list, "languages": langs or "all",
                            "tags": list(tags or []), "limit": limit}
    # a file of one language/subset need not say so on every row
    defaults = (langs[0] if langs and len(langs) == 1 else None, subset_list[0] if len(subset_list) == 1 else None)
    repo = repo or composition().hub_repo
    if source_str == HUB:
        info.update(repo=repo, revision=revision or "main")
        rows = rows_from_hub(repo, revision, [(lang, s) for s in subset_list for lang in _split_names(s, langs)])
    elif source_str in SAMPLES or Path(source_str).exists():
        rows = load_rows(source_str, language, subset, splits=(subset_list, langs), defaults=defaults)
    else:
        raise InputError("no such file or folder (use 'hub', 'sample', 'sample-beyond', a file or a folder)",
                         source_str)
    rows = select(rows, subset_list, langs, tags, limit)
    if not rows:
        raise InputError("no rows left after choosing subsets, languages and tags", source_str)
    info["rows"] = len(rows)
    return Dataset(rows, info)


def parse_subsets(subsets: str | Iterable[str] | None) -> list[str]:
    if subsets is None:
        return list(SUBSETS)
    subset_list = [s.strip() for s in (subsets.split(",") if isinstance(subsets, str) else subsets) if s.strip()]
    for s in subset_list:
        if s not in SUBSETS:
            raise InputError(f"unknown subset {s!r}; choose from {', '.join(SUBSETS)}", field="subsets")
    return subset_list or list(SUBSETS)


NOT_TAG = "not:"  # --tags not:beyond: rows without the tag


def select(rows: list[Row], subsets: Iterable[str] | None = None, languages: Iterable[str] | None = None,
           tags: Iterable[str] | None = None, limit: int | None = None) -> list[Row]:
    """The rows of the chosen subsets and languages that carry every tag (and none written
    ``not:tag``), the first ``limit`` of each language and subset."""
    wanted_tags = {t for t in tags or () if not t.startswith(NOT_TAG)}
    unwanted_tags = {t.removeprefix(NOT_TAG) for t in tags or () if t.startswith(NOT_TAG)}
    wanted_subsets = None if subsets is None else set(subsets)
    wanted_langs = None if languages is None else set(languages)
    out: list[Row] = []
    per_split: dict[tuple[str, str], int] = {}
    for row in rows:
        if wanted_subsets is not None and row.subset not in wanted_subsets:
            continue
        if wanted_langs is not None and row.language not in wanted_langs:
            continue
        if (wanted_tags and not wanted_tags <= set(row.tags)) or (unwanted_tags and unwanted_tags & set(row.tags)):
            continue
        split = (row.language, row.subset)
        per_split[split] = per_split.get(split, 0) + 1
        if limit is not None and per_split[split] > limit:
            continue
        out.append(row)
    return out
