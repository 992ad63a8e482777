"""``load_dataset``: IndicIFEval rows from the hub, a local copy of it, a file, or the sample.

The hub serves ``ai4bharat/IndicIFEval`` with configs ``indicifeval-trans`` (splits ``en`` and
the 14 Indic codes) and ``indicifeval-ground`` (the 14 Indic codes), as parquet files
``<config>/<split>-00000-of-00001.parquet``. A local folder in that layout is read directly;
the hub itself is read through the ``datasets`` library (``pip install 'indicifeval[hub]'``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from indicifeval.checkers import SUBSETS
from indicifeval.dataset.errors import InputError, Source
from indicifeval.dataset.readers import read_records
from indicifeval.dataset.rows import SAMPLE, Row, load_rows, parse_row
from indicifeval.languages import INDIC_CODES, UnknownLanguageError, get_profile

HUB_REPO = "ai4bharat/IndicIFEval"
HUB = "hub"
CONFIGS = {"trans": "indicifeval-trans", "ground": "indicifeval-ground"}
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
    available = list(INDIC_CODES) + (["en"] if subset == "trans" else [])
    if languages is None:
        return available
    return [c for c in languages if c in available]


def load_dataset(
    subsets: str | Iterable[str] = ("trans", "ground"),
    languages: str | Iterable[str] | None = "all",
    source: str | Path = HUB,
    *,
    revision: str | None = None,
    repo: str = HUB_REPO,
    tags: Iterable[str] | None = None,
    limit: int | None = None,
) -> Dataset:
    """Benchmark rows for the chosen subsets and languages, validated.

    ``source``: ``"hub"`` (via ``datasets``; ``revision`` pins a commit), a folder in the
    hub's parquet layout, a JSONL/JSON/Parquet file, or ``"sample"``. ``tags``: keep rows that
    carry all of them (``correct``, ``parallel``, ``gold prompt`` …). ``limit``: the first N
    rows of each language and subset.
    """
    subset_list = [s.strip() for s in (subsets.split(",") if isinstance(subsets, str) else subsets)]
    for s in subset_list:
        if s not in SUBSETS:
            raise InputError(f"unknown subset {s!r}; choose from {', '.join(SUBSETS)}", field="subsets")
    langs = parse_languages(languages)
    source_str = str(source)
    info: dict[str, Any] = {"source": source_str, "subsets": subset_list, "languages": langs or "all",
                            "tags": list(tags or []), "limit": limit}
    if source_str == HUB:
        info.update(repo=repo, revision=revision or "main")
        rows = _from_hub(repo, revision, subset_list, langs)
    elif source_str == SAMPLE or Path(source_str).is_file():
        # a file of one language/subset need not say so on every row
        default_lang = langs[0] if langs and len(langs) == 1 else None
        default_subset = subset_list[0] if len(subset_list) == 1 else None
        loaded = load_rows(source_str, language=default_lang, subset=default_subset)
        rows = [r for r in loaded if r.subset in subset_list and (langs is None or r.language in langs)]
    elif Path(source_str).is_dir():
        rows = _from_local_hub_layout(Path(source_str), subset_list, langs)
    else:
        raise InputError("no such file or folder (use 'hub', 'sample', a file or a folder)", source_str)
    rows = _filter(rows, tags, limit)
    if not rows:
        raise InputError("no rows left after choosing subsets, languages and tags", source_str)
    info["rows"] = len(rows)
    return Dataset(rows, info)


def _filter(rows: list[Row], tags: Iterable[str] | None, limit: int | None) -> list[Row]:
    wanted = set(tags or ())
    out, per_split = [], {}
    for row in rows:
        if wanted and not wanted <= set(row.tags):
            continue
        split = (row.language, row.subset)
        per_split[split] = per_split.get(split, 0) + 1
        if limit is not None and per_split[split] > limit:
            continue
        out.append(row)
    return out


def _from_local_hub_layout(folder: Path, subsets: list[str], languages: list[str] | None) -> list[Row]:
    rows: list[Row] = []
    found = False
    for subset in subsets:
        config_dir = folder / CONFIGS[subset]
        if not config_dir.is_dir():
            continue
        for lang in _split_names(subset, languages):
            files = sorted(config_dir.glob(f"{lang}-*.parquet"))
            for path in files:
                found = True
                for source, record in read_records(path):
                    rows.append(parse_row(record, source, lang, subset))
    if not found:
        raise InputError(f"no <config>/<split>-*.parquet files for {', '.join(subsets)} (expected e.g. "
                         f"{CONFIGS[subsets[0]]}/hi-00000-of-00001.parquet)", str(folder))
    return rows


def _from_hub(repo: str, revision: str | None, subsets: list[str], languages: list[str] | None) -> list[Row]:
    try:
        import datasets
    except ImportError:
        raise InputError("reading the hub needs the datasets library: pip install 'indicifeval[hub]'") from None
    rows: list[Row] = []
    for subset in subsets:
        for lang in _split_names(subset, languages):
            try:
                split = datasets.load_dataset(repo, CONFIGS[subset], split=lang, revision=revision)
            except ValueError as exc:  # unknown split: a language the config does not have
                if "split" in str(exc).lower():
                    continue
                raise InputError(f"{exc}", f"{repo}:{CONFIGS[subset]}/{lang}") from None
            for i, record in enumerate(split, start=1):
                rows.append(parse_row(record, Source(f"{repo}:{CONFIGS[subset]}/{lang}", i), lang, subset))
    return rows
