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
from indicifeval.dataset.responses import Responses, load_responses
from indicifeval.dataset.rows import SAMPLE, Row, key_id, load_rows, parse_row, sample_path

__all__ = ["HUB", "PAPER_TRANS_TAGS", "SAMPLE", "Dataset", "InputError", "Responses", "Row", "Source",
           "key_id", "load_dataset", "load_responses", "load_rows", "parse_languages", "parse_row", "parse_subsets",
           "sample_path", "select"]
