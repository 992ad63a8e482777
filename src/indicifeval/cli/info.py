"""``indicifeval languages`` and ``indicifeval instructions``: what the scorer knows."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import add_parser


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(sub, "languages", help="list the language profiles",
                   description="The language profiles: code, names, script, sentence ends, text rules.")
    p.set_defaults(handler=languages)
    p = add_parser(sub, "instructions", help="list the instruction ids with their paper category",
                   description="The instruction ids, their paper category (Table 3) and their kwargs.")
    p.set_defaults(handler=instructions)


def languages(args: argparse.Namespace) -> int:
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


def instructions(args: argparse.Namespace) -> int:
    from rich.table import Table

    from indicifeval.checkers import REGISTRY
    from indicifeval.cli.output import console
    from indicifeval.scoring.categories import CATEGORY_OF

    table = Table(title="Instructions")
    for col in ("id", "category", "kwargs"):
        table.add_column(col)
    for iid in sorted(REGISTRY, key=lambda i: (CATEGORY_OF[i], i)):
        table.add_row(iid, CATEGORY_OF[iid], ", ".join(p.name for p in REGISTRY[iid].params))
    console.print(table)
    return 0
