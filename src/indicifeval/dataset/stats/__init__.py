"""Dataset statistics: the paper's dataset tables (Table 3's instruction categories, Table 6's
Ground totals, Table 7's Trans review counts), rows per split, verification tags and the
parallel subset, instruction and constraint distributions, tags, prompt lengths, from any
rows, and two datasets side by side. ``indicifeval stats`` prints them; the
release code puts ``markdown(stats_tables(stats), title)`` into a dataset card."""

from __future__ import annotations

from pathlib import Path

from indicifeval.dataset.stats.compare import Comparison, ListComparison, compare
from indicifeval.dataset.stats.compute import dataset_stats
from indicifeval.dataset.stats.inputs import PAPER_RECORDS, StatsInput, load_input
from indicifeval.dataset.stats.model import (
    CONTEXT_REQUIRED_STYLES,
    STATS_FORMAT,
    VERIFICATION_TAGS,
    DatasetStats,
    Lengths,
    SourceComparison,
    SubsetStats,
    Verification,
)
from indicifeval.dataset.stats.paper import GROUPS, GroundTotals, PaperRecords, TransReview
from indicifeval.dataset.stats.tables import StatsTable, markdown, stats_tables


def load_stats(data: str | Path, language: str | None = None, subset: str | None = None,
               source: str | Path | None = None, fill_only: bool = False,
               records: PaperRecords | None = None) -> DatasetStats:
    """The statistics of a dataset as ``indicifeval stats`` reads it (a file, a folder, a release
    or build folder, 'sample', 'hub'); ``language``/``subset`` as ``load_input`` takes them;
    ``source``: the English rows of its Trans split (a build folder's own by default);
    ``records``: what its build recorded for Tables 6 and 7 (a release folder's own by default;
    a build folder's are read by ``builder.release.records``)."""
    from indicifeval.dataset.validation.loading import read_source

    found = load_input(data, language, subset, fill_only)
    source = source if source is not None else found.source
    source_rows = None
    if source is not None:
        source_rows = read_source(source)
        if not any(r.subset == "trans" for r in found.rows):
            from indicifeval.core.errors import InputError

            raise InputError("--source compares Trans rows with their English source, and the data has no Trans "
                             "rows", found.name)
    return dataset_stats(found.rows, name=found.name, kind=found.kind, statuses=found.statuses, source=source_rows,
                         source_name=source or "<source>", records=records or found.records)


__all__ = ["CONTEXT_REQUIRED_STYLES", "GROUPS", "PAPER_RECORDS", "STATS_FORMAT", "GroundTotals", "PaperRecords",
           "TransReview", "VERIFICATION_TAGS", "Comparison", "DatasetStats", "Lengths",
           "ListComparison", "SourceComparison", "StatsInput", "StatsTable", "SubsetStats", "Verification", "compare",
           "dataset_stats", "load_input", "load_stats", "markdown", "stats_tables"]
