"""The hub's parquet layout: ``<config>/<split>-NNNNN-of-NNNNN.parquet``, where the config
names the subset (``indicifeval-trans``, ``indicifeval-ground``) and the split the language.

A local copy (``huggingface-cli download ai4bharat/IndicIFEval --repo-type dataset
--local-dir DIR``) is read directly, with each row's language and subset taken from where it
lies, the same way by ``score --data`` and ``run --data``."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from indicifeval.core.errors import InputError
from indicifeval.languages import composition

_SPLIT_FILE = re.compile(r"^(?P<split>[A-Za-z][A-Za-z0-9_]*)-\d+-of-\d+\.parquet$")
_NAMED_FILE = re.compile(r"^(?P<config>[A-Za-z][\w.-]*)-(?P<lang>[a-z]{2,3})\.(?:jsonl|json|parquet)(?:\.gz)?$")


def configs() -> dict[str, str]:
    """Subset -> the hub config that holds it."""
    return dict(composition().configs)


def conversation_config(kind: str = "multiturn") -> str:
    """The hub config that holds conversations (``indicifeval-multiturn``), apart from the row
    configs: ``layout_files`` and ``is_hub_layout`` see rows only."""
    return composition().conversation_config(kind)


@lru_cache(maxsize=256)
def named_split(file: str) -> tuple[str | None, str | None]:
    """(language, subset) a file's name gives, as one split is saved on its own:
    ``indicifeval-ground-ne.jsonl`` (config, then language); (None, None) for other names.
    These only fill in rows that carry neither (unlike the folder layout, a name may be wrong)."""
    match = _NAMED_FILE.match(Path(file).name)
    if match is None:
        return None, None
    subset = {c: s for s, c in configs().items()}.get(match.group("config"))
    return (match.group("lang"), subset) if subset else (None, None)


def is_hub_layout(folder: Path) -> bool:
    return folder.is_dir() and any((folder / c).is_dir() and any((folder / c).glob("*.parquet"))
                                   for c in configs().values())


def layout_files(folder: Path, subsets: list[str] | None = None,
                 languages: list[str] | None = None) -> list[tuple[Path, str, str]]:
    """(file, language, subset) of every split file, in a stable order, for the subsets and
    languages wanted (None: all there are)."""
    out = []
    names = configs()
    for subset in subsets if subsets is not None else list(names):
        found = []
        for path in sorted((folder / names[subset]).glob("*.parquet")):
            match = _SPLIT_FILE.match(path.name)
            split = match.group("split") if match else path.name.split("-", 1)[0].removesuffix(".parquet")
            if languages is None or split in languages:
                found.append((path, split, subset))
        if languages is not None:  # in the order asked for, as the hub is read
            found.sort(key=lambda item: languages.index(item[1]))
        out += found
    if not out:
        wanted = ", ".join(names[s] for s in (subsets or names) if s in names)
        first = next(iter(names.values()))
        raise InputError(f"no split files for {wanted} (expected e.g. {first}/hi-00000-of-00001.parquet)",
                         str(folder))
    return out
