"""``indicifeval serve``: the verifier for RL training (NeMo Gym's verify request, batches)."""

from __future__ import annotations

import argparse

from indicifeval.cli.common import add_parser
from indicifeval.core.modes import ScoringMode

DEFAULT_PORT = 8088


def register(sub: argparse._SubParsersAction) -> None:
    p = add_parser(
        sub, "serve",
        description="Serve the scorer over HTTP as a reward for RL training: POST /verify takes NeMo Gym's "
        "instruction-following verify request and answers as its resource server does (reward, "
        "follow_all_instructions, follow_instruction_list) plus explanations; POST /score scores a batch of "
        "{language, instruction_id_list, kwargs, response} items (or {key, response} against --data), as JSON or "
        "JSON lines; GET /health and GET /instructions. See docs/rewards.md.",
    )
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="the port")
    p.add_argument("--workers", type=int, default=1, help="worker processes (a killed one is replaced)")
    p.add_argument("--scoring", choices=[m.value for m in ScoringMode], default="fixed", help="the checker set")
    p.add_argument("--reward", choices=("all", "fraction", "loose-fraction"), default="all",
                   help="all: 1 when every instruction is followed (strict), else 0; fraction: the share followed "
                   "(strict); loose-fraction: the share followed (loose)")
    p.add_argument("--keep-reasoning", action="store_true",
                   help="score answers as they are (otherwise a <think>…</think> block is cut off first, as run and "
                   "score do)")
    p.add_argument("--think", choices=("strip", "keep"), help=argparse.SUPPRESS)  # 0.1's spelling, still read
    p.add_argument("--unknown-ids", choices=("error", "zero"), default="error",
                   help="an instruction id no checker knows: error, a 422 naming it (a malformed request is not a "
                   "zero reward); zero, not followed with the reason, as NeMo Gym's own verifier treats one")
    p.add_argument("--data", help="rows that items may name by key (a file, folder, 'sample' or 'hub')")
    p.add_argument("--max-body-mb", type=float, default=32.0, help="the largest request body")
    p.add_argument("--max-batch", type=int, default=4096, help="the most items in one /score request")
    p.add_argument("--max-answer-chars", type=int, default=1_000_000, help="the longest answer scored (longer: 422)")
    p.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"),
                   help="uvicorn's log level (info: one line per request)")
    p.set_defaults(handler=run, data_argument="--data")


def run(args: argparse.Namespace) -> int:
    import os

    from indicifeval.cli.common import require_extra
    from indicifeval.core.errors import InputError
    from indicifeval.core.sockets import listen

    require_extra("indicifeval serve", ("starlette", "uvicorn"))
    import uvicorn

    from indicifeval.rewards.server import SETTINGS_ENV, ServeSettings, create_app, settings_to_env
    from indicifeval.rewards.verdicts import legacy_think

    if args.workers < 1 or args.max_batch < 1 or args.max_answer_chars < 1 or args.max_body_mb <= 0:
        raise InputError("--workers, --max-batch, --max-answer-chars and --max-body-mb must be above 0",
                         field="workers")
    strip_reasoning = legacy_think(args.think, not args.keep_reasoning)
    settings = ServeSettings(args.scoring, args.reward, strip_reasoning, args.data, int(args.max_body_mb * 2**20),
                             args.max_batch, args.max_answer_chars, args.unknown_ids)
    app = create_app(settings)  # bad settings or --data: said now, once (each of N workers makes its own)
    sock = listen(args.host, args.port)  # a busy port or a bad address: one line, before the banner
    print(f"indicifeval serve: http://{args.host}:{args.port} ({args.workers} worker{'s' * (args.workers > 1)}, "
          f"{args.scoring} scoring, reward {args.reward}); POST /verify, POST /score, GET /health", flush=True)
    options = {"host": args.host, "port": args.port, "log_level": args.log_level, "access_log": False,
               "proxy_headers": False}
    if args.workers == 1:
        uvicorn.Server(uvicorn.Config(app, **options)).run(sockets=[sock])
    else:  # uvicorn binds the socket its workers share itself
        sock.close()
        os.environ[SETTINGS_ENV] = settings_to_env(settings)
        uvicorn.run("indicifeval.rewards.server:app_from_env", factory=True, workers=args.workers, **options)
    return 0

