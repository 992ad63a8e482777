"""Shared test helpers: score one instruction on one response in a few words."""

from __future__ import annotations

from pathlib import Path

import pytest

from indicifeval.dataset import Source, parse_row
from indicifeval.scoring.engine import score_row

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def make_row(ids, kwargs, language, subset="trans", key=1, prompt="p"):
    if isinstance(ids, str):
        ids, kwargs = [ids], [kwargs]
    record = {"key": key, "prompt": prompt, "instruction_id_list": ids, "kwargs": kwargs,
              "language": language, "subset": subset}
    return parse_row(record, Source("<test>", 1))


def verdict(iid, response, kwargs=None, language="hi", subset="trans", mode="fixed", key=1):
    """(strict, loose, explanation) of one instruction."""
    s = score_row(make_row(iid, kwargs or {}, language, subset, key), response, mode)
    return s.strict[0], s.loose[0], s.explanations[0]


def strict(iid, response, kwargs=None, language="hi", subset="trans", mode="fixed", key=1):
    return verdict(iid, response, kwargs, language, subset, mode, key)[0]


def shared_path(*parts) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not available (../shared is absent)")
    return path


_SEEN_MODULES: set[str] = set()


def pytest_collectreport(report):
    """Record every test module pytest collected (or skipped as a whole, e.g. for a missing
    optional dependency): tests/test_collection.py checks that none was left out."""
    if report.nodeid.endswith(".py") and report.outcome in ("passed", "skipped"):
        _SEEN_MODULES.add(report.nodeid.split("::")[0])


def seen_modules() -> set[str]:
    return set(_SEEN_MODULES)
