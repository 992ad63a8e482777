"""``indicifeval serve``: the verifier for RL training (NeMo Gym's verify request, batches)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

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
    p.add_argument("--implicit", default="all", metavar="all|none|NAMES",
                   help="the implicit constraints that make the reward hard to game (not_empty, no_invisible, "
                   "language, plausible, no_echo, no_padding, substance; comma-separated names), all of them, or none: "
                   "the plain IFEval reward (see docs/rewards.md)")
    p.add_argument("--judge-backend", choices=("openai", "vllm", "hf", "mock"),
                   help="an LLM judge's backend: its 1-10 score moves a rewarded answer's reward by up to "
                   "--judge-weight (IFBench's quality term); off unless given")
    p.add_argument("--judge-model", help="the judge model (with --judge-backend)")
    p.add_argument("--judge-base-url", help="the judge's server URL (openai backend)")
    p.add_argument("--judge-api-key-env", default="OPENAI_API_KEY",
                   help="the environment variable holding the judge's API key (its name, never the key)")
    p.add_argument("--judge-weight", type=float, default=0.1, help="the judge's share of the reward")
    p.add_argument("--judge-timeout", type=float, default=60.0,
                   help="seconds a batch waits for the judge; then the verifiable reward, said so")
    p.add_argument("--judge-cache", default="~/.cache/indicifeval/judge.jsonl",
                   help="where the judge's replies are kept (never asked twice)")
    p.add_argument("--data", help="rows that items may name by key (a file, folder, 'sample' or 'hub')")
    p.add_argument("--max-body-mb", type=float, default=32.0, help="the largest request body")
    p.add_argument("--max-batch", type=int, default=4096, help="the most items in one /score request")
    p.add_argument("--max-answer-chars", type=int, default=1_000_000, help="the longest answer scored (longer: 422)")
    p.add_argument("--max-batch-seconds", type=float, default=120.0,
                   help="the time a request has to send its body (longer: 408) and again to be scored (longer: 503, "
                   "the scoring stopped); 0: no limit")
    p.add_argument("--keep-alive", type=float, default=15.0,
                   help="seconds an idle connection is kept open (one that never sends a request included)")
    p.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"),
                   help="uvicorn's log level (info: one line per request)")
    p.set_defaults(handler=run, data_argument="--data")


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from indicifeval.cli.common import require_extra
    from indicifeval.core.errors import InputError
    from indicifeval.core.sockets import listen

    require_extra("indicifeval serve", ("starlette", "uvicorn"))
    import uvicorn

    from indicifeval.rewards.server import SETTINGS_ENV, SWITCH_SECONDS, ServeSettings, create_app, settings_to_env
    from indicifeval.rewards.verdicts import legacy_think

    if args.workers < 1 or args.max_batch < 1 or args.max_answer_chars < 1 or args.max_body_mb <= 0 or \
            not args.keep_alive > 0:
        raise InputError("--workers, --max-batch, --max-answer-chars, --max-body-mb and --keep-alive must be above 0",
                         field="workers")
    if not 0 <= args.max_batch_seconds < float("inf"):
        raise InputError("--max-batch-seconds must be 0 (no limit) or more", field="max_batch_seconds")
    strip_reasoning = legacy_think(args.think, not args.keep_reasoning)
    from indicifeval.scoring.implicit import parse_implicit

    parse_implicit(args.implicit)  # an unknown name: said now
    settings = ServeSettings(args.scoring, args.reward, strip_reasoning, args.data, int(args.max_body_mb * 2**20),
                             args.max_batch, args.max_answer_chars, args.unknown_ids, args.max_batch_seconds,
                             implicit=args.implicit, judge=judge_settings(args))
    app = create_app(settings, make_judge(settings))  # bad settings or --data: said now (each worker makes its own)
    sys.setswitchinterval(SWITCH_SECONDS)  # the event loop (/health) takes the GIL from a scoring thread sooner
    sock = listen(args.host, args.port)  # a busy port or a bad address: one line, before the banner
    print(f"indicifeval serve: http://{args.host}:{args.port} ({args.workers} worker{'s' * (args.workers > 1)}, "
          f"{args.scoring} scoring, reward {args.reward}); POST /verify, POST /score, GET /health", flush=True)
    from indicifeval.rewards.connections import IdleClosingProtocol

    options = {"host": args.host, "port": args.port, "log_level": args.log_level, "access_log": False,
               "proxy_headers": False, "timeout_keep_alive": args.keep_alive, "http": IdleClosingProtocol}
    if args.workers == 1:
        uvicorn.Server(uvicorn.Config(app, **options)).run(sockets=[sock])
    else:  # uvicorn binds the socket its workers share itself
        sock.close()
        os.environ[SETTINGS_ENV] = settings_to_env(settings)
        uvicorn.run("indicifeval.cli.serve_cmd:app_from_env", factory=True, workers=args.workers, **options)
    return 0


def judge_settings(args: argparse.Namespace) -> dict | None:
    from indicifeval.core.errors import InputError

    if args.judge_backend is None:
        return None
    if not args.judge_model:
        raise InputError("--judge-backend needs --judge-model", field="judge_model")
    if not 0 < args.judge_weight <= 1 or not args.judge_timeout > 0:
        raise InputError("--judge-weight must be in (0, 1] and --judge-timeout above 0", field="judge_weight")
    options = {"base_url": args.judge_base_url, "api_key_env": args.judge_api_key_env} \
        if args.judge_backend == "openai" else {}
    return {"backend": args.judge_backend, "model": args.judge_model, "options": options,
            "cache": str(Path(args.judge_cache).expanduser()), "timeout_s": args.judge_timeout,
            "weight": args.judge_weight}


def make_judge(settings: Any) -> Any:
    """The judge of the settings (the CLI reaches the backends; the reward layer only calls it)."""
    if not settings.judge:
        return None
    from indicifeval.runs.backends.spec import ModelSpec
    from indicifeval.runs.judge import ModelJudge

    j = settings.judge
    spec = ModelSpec.of(j["backend"], j["model"], {k: v for k, v in j["options"].items() if v is not None})
    Path(j["cache"]).parent.mkdir(parents=True, exist_ok=True)
    return ModelJudge(spec, j["cache"], timeout_s=j["timeout_s"])


def app_from_env() -> Any:
    """The app of one of uvicorn's worker processes, its settings (and judge) from the environment."""
    import json
    import os
    import sys

    from indicifeval.rewards.server import SETTINGS_ENV, SWITCH_SECONDS, ServeSettings, create_app

    raw = os.environ.get(SETTINGS_ENV)
    sys.setswitchinterval(SWITCH_SECONDS)
    settings = ServeSettings(**json.loads(raw)) if raw else ServeSettings()
    return create_app(settings, make_judge(settings))

