"""Validating IndicIFEval-style rows: does each prompt carry what its instructions need
(keywords, numbers, formats, relations, the response language), and does a Trans split agree
with its English source? ``validate_rows`` gives the findings; ``validate`` reads a dataset and
gives a report that ``indicifeval validate`` prints and writes."""

from indicifeval.dataset.validation.api import DEFAULT_OUT, ValidationReport, validate, validate_into, validate_rows
from indicifeval.dataset.validation.findings import CHECKS, ERROR, WARNING, Check, Finding, counts

__all__ = ["CHECKS", "DEFAULT_OUT", "ERROR", "WARNING", "Check", "Finding", "ValidationReport", "counts", "validate",
           "validate_into", "validate_rows"]
