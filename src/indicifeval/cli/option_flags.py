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
