"""``indicifeval languages`` and ``indicifeval instructions``: what the scorer knows; and
``languages --check PROFILE``: what a profile lacks, one line each (exit 1 on an error)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from indicifeval.cli.common import add_parser


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(sub, "languages",
                   description="The language profiles: code, names, script, sentence ends, text rules. Profiles "
                               "are read from the folders (or .json files) in $INDICIFEVAL_PROFILE_PATH, then the "
                               "shipped ones. --check PROFILE says what a profile lacks or gets wrong, one line each, "
                               "and exits 1 on an error.")
    p.add_argument("--check", metavar="PROFILE",
                   help="check one profile: a .json file (read as if it were on $INDICIFEVAL_PROFILE_PATH) or a code")
    p.add_argument("--sample", metavar="FILE",
                   help="with --check: text in the language (a JSONL corpus with 'text', or paragraphs separated by "
                        "blank lines): how much of it is identified as the language")
    p.set_defaults(handler=languages)
    p = add_parser(sub, "instructions",
                   description="The instruction ids, their suite, their category (the paper's Table 3 for IFEval's) "
                   "and their kwargs; with --where, the languages each is defined in and why not elsewhere.")
    p.add_argument("--suite", choices=("ifeval", "beyond", "open-instruct", "ifbench"),
                   help="only this suite's instructions (default: all)")
    p.add_argument("--where", action="store_true",
                   help="the languages where each instruction is defined, and, where it is not, why (one line)")
    p.add_argument("--markdown", action="store_true", help="print a Markdown table (the one docs/scoring.md holds)")
    p.set_defaults(handler=instructions)


def languages(args: argparse.Namespace) -> int:
    from indicifeval.core.errors import InputError

    if args.check:
        return check(args.check, Path(args.sample) if args.sample else None)
    if args.sample:
        raise InputError("--sample goes with --check PROFILE", field="sample")
    from rich.table import Table

    from indicifeval.cli.output import console
    from indicifeval.languages import get_profile, list_languages

    table = Table(title="Language profiles")
    for col in ("code", "name", "native", "script", "sentence ends", "text rules"):
        table.add_column(col)
    for code in list_languages():
        p = get_profile(code)
        table.add_row(code, p.name, p.native_name, p.script, " ".join(p.sentence_terminators), p.text_rules)
    console.print(table)
    return 0


@contextlib.contextmanager
def _first_on_path(path: Path) -> Iterator[None]:
    """Profiles read with ``path`` first on $INDICIFEVAL_PROFILE_PATH, as they were after."""
    from indicifeval.languages import reload_profiles
    from indicifeval.languages.profile import PROFILE_PATH_ENV

    before = os.environ.get(PROFILE_PATH_ENV)
    os.environ[PROFILE_PATH_ENV] = os.pathsep.join([str(path), *([before] if before else [])])
    reload_profiles()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(PROFILE_PATH_ENV, None)
        else:
            os.environ[PROFILE_PATH_ENV] = before
        reload_profiles()


def _profile_file(spec: str) -> Path:
    from indicifeval.core.errors import InputError
    from indicifeval.languages import UnknownLanguageError, get_profile

    path = Path(spec).expanduser()
    if path.is_file():
        return path
    if path.suffix == ".json" or os.sep in spec:
        raise InputError("no such profile file", spec, field="check")
    try:
        return Path(get_profile(spec).source)
    except UnknownLanguageError as exc:
        raise InputError(f"{exc.message} (or give the profile's .json file)", field="check") from None


def check(spec: str, sample: Path | None) -> int:
    """Every finding on one line, then a count; 1 when there is an error."""
    from indicifeval.checkers import available_ids
    from indicifeval.core.errors import InputError
    from indicifeval.languages import get_profile, list_languages, world_languages
    from indicifeval.languages.check import ProfileFinding, check_profile, check_schema
    from indicifeval.text.langid_check import check_identification, check_own_texts, check_sample

    path = _profile_file(spec)
    findings: list[ProfileFinding] = []
    measured = None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        data = None
        findings.append(ProfileFinding("error", "json", f"not a JSON profile: {exc}"))
    if data is not None and not isinstance(data, dict):
        data, findings = None, [ProfileFinding("error", "json", "a profile is a JSON object")]
    if data is not None:
        findings += check_schema(data, path.name.removesuffix(".json"))
    if not any(f.level == "error" for f in findings) and data is not None:
        try:
            with _first_on_path(path):
                profile = get_profile(data["code"])
                others = {c: get_profile(c) for c in list_languages() if c != profile.code}
                world = {c: info for c, info in world_languages().items() if c != profile.code}
                templates = profile.instruction_texts.templates if profile.instruction_texts else {}
                findings += check_profile(profile, others, world, available_ids(profile), templates)
                findings += check_identification(profile, world)
                findings += check_own_texts(profile)
                if sample is not None:
                    found, measured = check_sample(profile, sample)
                    findings += found
        except InputError as exc:
            if not exc.file or Path(exc.file).resolve() != path.resolve():
                raise  # another profile on the path, or the sample
            findings.append(ProfileFinding("error", exc.field or "profile", exc.message))
    for finding in findings:
        print(finding.line())
    if measured:
        print(measured)
    errors = sum(f.level == "error" for f in findings)
    warnings = len(findings) - errors
    verdict = "fix the errors, then check again" if errors else "usable" + (
        " (the warnings say what would make it better)" if warnings else "")
    print(f"{path.name}: {errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}: {verdict}")
    return 1 if errors else 0


def instructions(args: argparse.Namespace) -> int:
    from rich.table import Table

    from indicifeval.checkers import REGISTRY
    from indicifeval.checkers.instructions import availability
    from indicifeval.cli.output import console
    from indicifeval.scoring.categories import CATEGORY_OF

    ids = sorted((i for i in REGISTRY if args.suite is None or REGISTRY[i].suite == args.suite),
                 key=lambda i: (CATEGORY_OF[i], i))
    where = availability(args.suite) if args.where else {}
    header = ["id", "suite", "category", "kwargs"] + (["defined in", "not defined, because"] if args.where else [])
    rows = []
    for iid in ids:
        row = [iid, REGISTRY[iid].suite, CATEGORY_OF[iid], ", ".join(p.name for p in REGISTRY[iid].params)]
        if args.where:
            missing = {code: why for code, why in where[iid].items() if why}
            defined = [code for code, why in where[iid].items() if not why]
            row += ["all 15" if not missing else ", ".join(defined) or "none",
                    "; ".join(sorted(set(missing.values()))) if missing else ""]
        rows.append(row)
    if args.markdown:
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(f"`{c}`" if n == 0 else c.replace("|", "\\|") for n, c in enumerate(row)) + " |")
        return 0
    table = Table(title="Instructions")
    for col in header:
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    return 0
