"""``indicifeval reward-profile``: which prompts teach anything, from a policy's k answers per
prompt (zero, one, flat or mixed rewards; only mixed give a GRPO-style gradient)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from indicifeval.cli.common import add_parser
from indicifeval.core.modes import ScoringMode

if TYPE_CHECKING:
    from rich.table import Table

    from indicifeval.rewards.profile import RewardProfile


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "reward-profile",
        description="Score a policy's k answers per prompt with the reward (as trl(), verl_compute_score and serve "
        "score them) and class each prompt: zero (every answer scores 0), one (every answer 1), flat (every answer "
        "the same share between 0 and 1) or mixed. Only mixed prompts give a GRPO-style gradient. Prints the shares "
        "per language and writes the profile as JSON, which `indicifeval export --keep mixed PROFILE` reads to "
        "keep the prompts that teach. See docs/rewards.md.",
    )
    p.add_argument("data", help="rows: 'hub', 'sample', a suite's sample, a file, a folder in the hub's layout, or a "
                   "release folder")
    p.add_argument("--answers", action="append", required=True, metavar="FILE",
                   help="answers: JSON lines of {key, language, subset, response} (several lines per key: several "
                   "samples) or {key, responses: [k answers]}, or a run folder of `indicifeval run` (one sample per "
                   "row); may be given more than once, every answer to a row counts as one of its samples")
    p.add_argument("--out", required=True, metavar="PROFILE", help="the profile to write (JSON)")
    p.add_argument("--reward", choices=("all", "fraction", "loose-fraction"), default="all",
                   help="all: 1 when every instruction is followed (strict), else 0; fraction: the share followed "
                   "(strict); loose-fraction: the share followed (loose)")
    p.add_argument("--implicit", default="all", metavar="all|none|NAMES",
                   help="the implicit constraints that zero a gamed answer's reward: all, none (the plain reward) or "
                   "names, comma-separated")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed", help="the checker set")
    p.add_argument("--keep-reasoning", action="store_true",
                   help="score answers as they are (otherwise a <think>…</think> block is cut off first)")
    p.add_argument("--quiet", action="store_true", help="no table, no progress bar")
    p.set_defaults(handler=run, data_argument="DATA")


def run(args: argparse.Namespace) -> int:
    from indicifeval.cli.output import progress_bar
    from indicifeval.dataset import load_dataset
    from indicifeval.rewards.profile import profile_rewards, write_profile

    rows = load_dataset(("trans", "ground"), "all", args.data).rows
    with progress_bar(None, "scoring answers", enabled=not args.quiet) as bar:
        profile = profile_rewards(rows, args.answers, reward=args.reward, scoring=args.scoring,
                                  implicit=args.implicit, strip_reasoning=not args.keep_reasoning, data=args.data,
                                  on_total=bar.total, on_progress=bar)
    write_profile(profile, args.out)
    if not args.quiet:
        _print(profile, args.out)
    return 0


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def profile_table(profile: RewardProfile) -> Table:
    from rich.table import Table

    implicit = "implicit constraints on" if profile.implicit else "no implicit constraints"
    table = Table(title=f"Which prompts teach anything (reward {profile.reward}, {profile.scoring} scoring, "
                  f"{implicit})")
    table.add_column("language", no_wrap=True)
    for name in ("prompts", "k", "zero %", "one %", "flat %", "mixed %"):
        table.add_column(name, justify="right")
    for language, block in profile.summary().items():
        k = str(block["k_min"]) if block["k_min"] == block["k_max"] else f"{block['k_min']}–{block['k_max']}"
        cells = [str(block["prompts"]), k, *(_pct(block["shares"][c]) for c in ("zero", "one", "flat", "mixed"))]
        if language == "all":
            table.add_row("[bold]all", *(f"[bold]{c}" for c in cells))
        else:
            table.add_row(language, *cells)
    return table


def _print(profile: RewardProfile, out: str) -> None:
    from indicifeval.cli.output import console, err_console

    console.print(profile_table(profile))
    if profile.unanswered:
        err_console.print(f"note: {profile.unanswered} of the {profile.rows} rows have no answer and are not in the "
                          f"profile", soft_wrap=True, markup=False)
    if profile.failed:
        err_console.print(f"note: {profile.failed} run-folder items failed to generate and are not samples",
                          soft_wrap=True, markup=False)
    block = profile.summary()["all"]
    console.print(f"wrote {out}: {block['prompts']} prompts, {block['counts']['mixed']} mixed "
                  f"({_pct(block['shares']['mixed'])}%) give a GRPO gradient; keep them with `indicifeval export "
                  f"{profile.data} --format trl --out DIR --keep mixed {out}`", soft_wrap=True, markup=False)
