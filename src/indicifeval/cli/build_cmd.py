"""``indicifeval build``: dataset building. ``build status DIR`` prints a build folder's stage
table; the Trans, Ground, multi-turn and review verbs register themselves here."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import HelpFormatter, add_parser


def register(sub: argparse._SubParsersAction) -> None:
    from indicifeval.cli import build_ground_cmd, build_multiturn_cmd, build_review_cmd, build_trans_cmd
    from indicifeval.cli.build_common import show_status

    p = add_parser(sub, "build",
                   description="Build IndicIFEval-style datasets in a build folder, one stage at a time; each "
                   "stage records what it was made from and resumes when run again the same way.")
    verbs = p.add_subparsers(dest="build_command", required=True, metavar="VERB", help="what to do")
    status = verbs.add_parser("status", help="the stage table of a build folder", formatter_class=HelpFormatter,
                              description="Each stage: its status (running, complete, failed, stale, pending), "
                              "counts, times and parameters.")
    status.add_argument("folder", help="a build folder")
    status.add_argument("--json", action="store_true", help="print the table as JSON")
    status.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show the full traceback of an error")
    status.set_defaults(handler=show_status)
    build_trans_cmd.register(verbs)
    build_ground_cmd.register(verbs)
    build_multiturn_cmd.register(verbs)
    build_review_cmd.register(verbs)
