"""Loading benchmark rows and model responses, with errors that name file, line and field."""

from indicifeval.core.errors import InputError, Source
from indicifeval.dataset.benchmark import (
    HUB,
    PAPER_TRANS_TAGS,
    Dataset,
    load_dataset,
    parse_languages,
    parse_subsets,
    select,
)
from indicifeval.dataset.readers import read_records
from indicifeval.dataset.responses import Responses, load_responses, sample_answers
from indicifeval.dataset.rows import SAMPLE, load_rows, parse_row, sample_path
from indicifeval.dataset.writers import hub_record, write_hub_layout, write_rows_jsonl
from indicifeval.records import Row, RowId

__all__ = ["HUB", "PAPER_TRANS_TAGS", "SAMPLE", "Dataset", "InputError", "Responses", "Row", "Source",
           "RowId", "load_dataset", "load_responses", "load_rows", "parse_languages", "parse_row", "parse_subsets",
           "hub_record", "read_records", "sample_answers", "sample_path", "select", "write_hub_layout",
           "write_rows_jsonl"]
