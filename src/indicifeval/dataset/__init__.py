"""Loading benchmark rows and model responses, with errors that name file, line and field."""

from indicifeval.dataset.benchmark import HUB, HUB_REPO, PAPER_TRANS_TAGS, Dataset, load_dataset, parse_languages
from indicifeval.dataset.errors import InputError, Source
from indicifeval.dataset.responses import Responses, load_responses
from indicifeval.dataset.rows import SAMPLE, Row, load_rows, parse_row, sample_path

__all__ = ["HUB", "HUB_REPO", "PAPER_TRANS_TAGS", "SAMPLE", "Dataset", "load_dataset", "parse_languages", "InputError", "Responses", "Row", "Source", "load_responses", "load_rows", "parse_row", "sample_path"]
