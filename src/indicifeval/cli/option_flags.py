"""Flags made from option declarations (``runs/backends/options.py``, the translation engines):
one flag per option, shared by the backends that declare it, unset unless given, so that a
flag given for another backend than the chosen one is refused instead of ignored."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from indicifeval.core.errors import InputError
from indicifeval.runs.backends.options import BackendOptions, OptionSpec

Classes = Mapping[str, type[BackendOptions]]


def _flags(classes: Classes) -> dict[str, list[tuple[str, OptionSpec]]]:
    """flag -> [(backend, spec)]: one flag can serve several backends (--dtype: hf, vllm)."""
    flags: dict[str, list[tuple[str, OptionSpec]]] = {}
    for backend, cls in classes.items():
        for spec in cls.specs():
            if spec.flag:
                flags.setdefault(spec.flag, []).append((backend, spec))
    return flags


def _dest(flag: str) -> str:
    return "opt_" + flag.lstrip("-").replace("-", "_")


def add_option_flags(group: argparse._ArgumentGroup, classes: Classes, identity: str = "run") -> None:
    for flag, users in _flags(classes).items():
        spec = users[0][1]
        names = ", ".join(b for b, _ in users)
        shown = "" if spec.default in (None, False) else f" (default: {spec.default})"
        affects = f"; part of the {identity}'s identity" if spec.affects_output else ""
        kwargs: dict[str, Any] = {"dest": _dest(flag), "default": None, "help": f"{names}: {spec.help}{shown}{affects}"}
        if spec.type is bool:
            kwargs["action"] = "store_true"
        else:
            kwargs["type"] = spec.type
            if spec.choices:
                kwargs["choices"] = spec.choices
            else:
                kwargs["metavar"] = flag.lstrip("-").replace("-", "_").upper()
        group.add_argument(flag, **kwargs)


def option_values(args: argparse.Namespace, chosen: str, classes: Classes, noun: str = "backend") -> dict[str, Any]:
    """The values given for ``chosen``'s options; a flag of another one is an error."""
    values = {}
    for flag, users in _flags(classes).items():
        value = getattr(args, _dest(flag), None)
        mine = [spec for backend, spec in users if backend == chosen]
        if mine:
            if value is not None:
                values[mine[0].name] = value
        elif value is not None:
            raise InputError(f"{flag} is an option of the {' and '.join(b for b, _ in users)} {noun} only, not of "
                             f"{chosen}")
    return values


def add_model_flags(parser: argparse.ArgumentParser, classes: Classes, *, what: str, identity: str,
                    max_tokens: int | None = None, system_help: str | None = None, alias: bool = False) -> None:
    """The one set of model flags (``run``, ``build trans``, ``build ground``): which backend and
    model, the backend's own options, and (where the command's requests take them from the
    command line: ``max_tokens`` given) the sampling settings and the system turn."""
    names = ["--backend", "--engine"] if alias else ["--backend"]
    parser.add_argument(*names, dest="backend", choices=tuple(classes), metavar="BACKEND",
                        help=f"{what}: {', '.join(classes)} (mock: in-process answers for tests and demos)"
                        + ("; --engine is the same flag, its former name" if alias else ""))
    parser.add_argument("--model", help="the model: a server's model name, a path or hub id (hf, vllm, seq2seq), "
                        "any label (mock; default there: fake)")
    if max_tokens is not None:
        gen = parser.add_argument_group("generation")
        gen.add_argument("--max-tokens", type=int, default=max_tokens, help="generation budget per request")
        gen.add_argument("--temperature", type=float, default=0.0, help="0 = greedy")
        gen.add_argument("--top-p", type=float, default=1.0, help="nucleus sampling (with --temperature > 0)")
        gen.add_argument("--seed", type=int, default=0, help="sampling seed")
        gen.add_argument("--thinking", choices=["on", "off"],
                         help="switch reasoning on/off where the model supports it (default: the model's own)")
        gen.add_argument("--gen-kwargs", metavar="K=V,...", help="further sampling settings passed to the backend "
                         "as they are, e.g. top_k=20,presence_penalty=0.5 (recorded; part of the identity)")
        gen.add_argument("--system-prompt", help=system_help or "a system turn before every prompt")
    add_option_flags(parser.add_argument_group("backend options (each applies to the backends it names)"), classes,
                     identity=identity)


def model_spec(args: argparse.Namespace, classes: Classes, *, language: str | None = None) -> Any:
    """The ``ModelSpec`` of the model flags: options typed and checked here, at the edge. A
    backend must be named (the mock only when asked for)."""
    from indicifeval.runs.backends.spec import ModelSpec
    from indicifeval.runs.requests import SamplingSettings, parse_gen_kwargs

    backend = getattr(args, "backend", None)
    if backend is None:
        raise InputError("name the model's backend with --backend (mock: the in-process fake, for tests and demos)",
                         field="backend")
    model = args.model or ("fake" if backend == "mock" else None)
    if not model:
        raise InputError(f"name the model with --model (the {backend} backend's model)", field="model")
    options = option_values(args, backend, classes)
    settings = None
    if hasattr(args, "max_tokens"):
        thinking = None if args.thinking is None else args.thinking == "on"
        settings = SamplingSettings(args.max_tokens, args.temperature, args.top_p, args.seed, thinking,
                                    parse_gen_kwargs(args.gen_kwargs))
    return ModelSpec.of(backend, model, options, settings=settings, system=getattr(args, "system_prompt", None),
                        language=language)
