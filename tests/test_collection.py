"""Every test file under tests/ is collected: pytest's default ``norecursedirs`` once hid a
whole folder (``tests/build``) from CI. When the whole suite runs, each ``test_*.py`` file must
have been collected (or skipped as a module); otherwise this test fails and names it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import seen_modules

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _whole_suite(config: pytest.Config) -> bool:
    args = [Path(a.split("::")[0]).resolve() for a in config.args] or [ROOT]
    return any(arg in (TESTS, ROOT) for arg in args) and not config.option.keyword and not config.option.markexpr


def test_every_test_file_is_collected(request: pytest.FixtureRequest) -> None:
    if not _whole_suite(request.config):
        pytest.skip("only meaningful when the whole suite is collected")
    files = {str(p.relative_to(ROOT)) for p in TESTS.rglob("test_*.py") if "fixtures" not in p.parts}
    missing = sorted(files - seen_modules())
    assert not missing, f"test files pytest did not collect (a reserved folder name?): {missing}"


def test_no_test_folder_has_a_reserved_name() -> None:
    """pytest, setuptools and .gitignore treat these names as build output."""
    reserved = {"build", "dist", "venv", "node_modules", "CVS", "_darcs"}
    named = sorted(str(p.relative_to(ROOT)) for p in TESTS.rglob("*") if p.is_dir() and p.name in reserved)
    assert not named, named
