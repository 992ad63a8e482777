"""What to do next, for the closing line of a command where there is a next step: the exact
command, with the folders as given, so that it can be copied."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import Path

from indicifeval.core.errors import InputError

ANNOTATORS = "annotators.yaml"  # the name the docs give the annotator list (docs/building.md §5)


def command(*words: str | Path) -> str:
    return "indicifeval " + shlex.join(str(w) for w in words)


def review_or_accept(folders: Sequence[str | Path], unreviewed: int) -> str:
    """For rows nobody reviewed: review them, or release the auto-ok ones as silver."""
    serve = command("build", "review", "serve", *folders, "--annotators", ANNOTATORS)
    return (f"{unreviewed} unreviewed: have them reviewed ({serve}) or release the auto-ok ones unreviewed, "
            f"as silver, with --accept-unreviewed")


def after_build(folder: str | Path, stage: str, until: str | None, stages: Sequence[str], needs_review: int) -> str:
    """After ``build trans`` or ``build ground``: go on, or review and release."""
    if until is not None and stage != stages[-1]:
        return "next: the same command without --until goes on from here"
    what = f" ({needs_review} need it before they can be released)" if needs_review else ""
    serve = command("build", "review", "serve", folder, "--annotators", ANNOTATORS)
    finalize = command("build", "finalize", folder, "--out", "release")
    return f"next: have the rows reviewed{what}: {serve}, then {finalize}"


def after_finalize(report, folders: Sequence[str | Path], out: str | Path, accept_unreviewed: bool) -> str:
    steps = []
    if report.unreviewed and not accept_unreviewed:
        steps.append(review_or_accept(folders, report.unreviewed))
    elif report.unreviewed:  # needs-review rows are never released unreviewed
        serve = command("build", "review", "serve", *folders, "--annotators", ANNOTATORS)
        steps.append(f"{report.unreviewed} rows that need review were left out: have them reviewed ({serve})")
    if report.disputed:
        steps.append("adjudicate the disputed items on the review app's /admin page")
    steps.append(f"next: {command('build', 'publish', out)}")
    return "; ".join(steps)


def finalize_error(exc: InputError, folders: Sequence[str | Path], accept_unreviewed: bool) -> InputError:
    """``nothing to release (…, 48 unreviewed; …)`` with the two ways on."""
    found = re.search(r"(\d+) unreviewed", exc.message)
    if found is None or int(found.group(1)) == 0 or accept_unreviewed:
        return exc
    return InputError(f"{exc.message}; {review_or_accept(folders, int(found.group(1)))}", exc.file, exc.line,
                      exc.field)


def after_publish(folder: Path, pushed: bool) -> str:
    if pushed:
        return ""
    run = command("run", "--data", folder, "--backend", "openai", "--model", "MODEL", "--out", "runs/MODEL")
    return f"; next: evaluate a model on it ({run}) or upload it with --push ORG/NAME"


def after_scores(out: str | Path) -> str:
    return f"; next: {command('report', out, '--out', 'report')}"


__all__ = ["after_build", "after_finalize", "after_publish", "after_scores", "command", "finalize_error",
           "review_or_accept"]
