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


def serve(folders: Sequence[str | Path]) -> str:
    """The review app over ``folders``, and what its annotator list holds (it must exist first)."""
    return (command("build", "review", "serve", *folders, "--annotators", ANNOTATORS)
            + f" with {ANNOTATORS} naming each reviewer, 'name: annotator' or 'name: admin' a line")


def run_on(data: str | Path) -> str:
    """A model run over released rows: every flag an OpenAI-compatible server needs, URL and
    MODEL to fill in (without --base-url the command stops at once)."""
    return command("run", "--data", data, "--backend", "openai", "--base-url", "URL", "--model", "MODEL", "--out",
                   "runs/MODEL")


def review_or_accept(folders: Sequence[str | Path], unreviewed: int) -> str:
    """For rows nobody reviewed: review them, or release the auto-ok ones as silver."""
    return (f"{unreviewed} unreviewed: have them reviewed ({serve(folders)}) or release the auto-ok ones unreviewed, "
            f"as silver, with --accept-unreviewed")


def after_build(folder: str | Path, stage: str, until: str | None, stages: Sequence[str], needs_review: int) -> str:
    """After ``build trans`` or ``build ground``: go on, or review and release."""
    if until is not None and stage != stages[-1]:
        return "next: the same command without --until goes on from here"
    what = f" ({needs_review} need it before they can be released)" if needs_review else ""
    finalize = command("build", "finalize", folder, "--out", "release")
    return f"next: have the rows reviewed{what}: {serve([folder])}; then {finalize}"


def after_finalize(report, folders: Sequence[str | Path], out: str | Path, accept_unreviewed: bool) -> str:
    steps = []
    if report.unreviewed and not accept_unreviewed:
        steps.append(review_or_accept(folders, report.unreviewed))
    elif report.unreviewed:  # needs-review rows are never released unreviewed
        steps.append(f"{report.unreviewed} rows that need review were left out: have them reviewed "
                     f"({serve(folders)})")
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
    return f"; next: evaluate a model on it ({run_on(folder)}) or upload it with --push ORG/NAME"


def not_a_run(folder: str | Path) -> str | None:
    """For ``report`` given a folder that holds no run: what the folder is, and the commands
    that do with it what the user is after; None for a run or score folder (or an unknown one:
    report then says what it lacks)."""
    from indicifeval.core.folders import read_manifest, tool_of
    from indicifeval.dataset.hub_layout import is_hub_layout
    from indicifeval.records.layout import RELEASE_HUB, RELEASE_INFO

    path = Path(folder)
    if not path.is_dir():
        return None
    made_by = tool_of(read_manifest(path))
    if made_by == "build":
        release = "release"
        return (f"a build folder (from `indicifeval build`), not a run or score folder: its own report is "
                f"{command('build', 'report', folder, '--out', 'build-report.html')}; to evaluate a model on its "
                f"rows, release them ({command('build', 'finalize', folder, '--out', release)}, after their review "
                f"or with --accept-unreviewed; then {command('build', 'publish', release)}) and run the model on "
                f"them: {run_on(Path(release) / RELEASE_HUB)}, then {command('report', 'runs/MODEL')}")
    if (path / RELEASE_INFO).is_file():
        hub = path / RELEASE_HUB
        first = "" if is_hub_layout(hub) else f"{command('build', 'publish', folder)}, then "
        return (f"a release folder (from `indicifeval build finalize`), not a run or score folder: to evaluate a "
                f"model on its rows, {first}{run_on(hub)}, then {command('report', 'runs/MODEL')}")
    if is_hub_layout(path):
        return (f"a dataset in the hub's layout, not a run or score folder: evaluate a model on it with "
                f"{run_on(folder)}, then {command('report', 'runs/MODEL')}")
    if made_by == "report":
        return f"a report folder (from `indicifeval report`): open {path / 'report.html'} in a browser"
    return None


def after_scores(out: str | Path) -> str:
    return f"; next: {command('report', out, '--out', 'report')}"


__all__ = ["after_build", "after_finalize", "after_publish", "after_scores", "command", "finalize_error",
           "not_a_run", "review_or_accept", "run_on", "serve"]
