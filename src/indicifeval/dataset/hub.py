"""Rows from the Hugging Face hub, through the ``datasets`` library.

Offline, ``datasets`` retries for half a minute and ends in a long traceback; we look first
(a three-second connection to the hub) and say in one line how to use a local copy."""

from __future__ import annotations

import os
import socket
from contextvars import ContextVar
from pathlib import Path
from urllib.parse import urlparse

from indicifeval.core.errors import InputError, Source, first_line
from indicifeval.core.safe_text import sanitize_value
from indicifeval.dataset.hub_layout import configs
from indicifeval.dataset.rows import Row, check_unique, parse_row

PROBE_TIMEOUT_S = 3.0
# how the command at hand takes its data ("--data" for run and score, "--source" for build trans,
# "DATA" for validate): set by the CLI, so the advice names a flag the user can pass
DATA_ARGUMENT: ContextVar[str | None] = ContextVar("indicifeval_data_argument", default=None)


def _argument() -> tuple[str, str]:
    """(where, how to pass a local copy) in the words of the command at hand."""
    name = DATA_ARGUMENT.get()
    if name is None:
        return "hub", "give DIR instead of 'hub'"
    if name.startswith("-"):
        return f"{name} hub", f"pass {name} DIR"
    return f"{name} hub", f"give DIR as {name} instead of 'hub'"


def _offline_mode() -> bool:
    return any(os.environ.get(v, "").lower() in ("1", "true", "yes", "on")
               for v in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE"))


def _unreachable(repo: str) -> str | None:
    """Why the hub cannot be reached, or None if it can (or a proxy decides)."""
    if any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")):
        return None
    endpoint = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host = endpoint.hostname or "huggingface.co"
    port = endpoint.port or (443 if endpoint.scheme != "http" else 80)
    try:
        socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S).close()
    except OSError as exc:
        return f"cannot reach the Hugging Face hub at {host}:{port} ({exc.strerror or exc.__class__.__name__})"
    return None


def _advice(repo: str) -> str:
    return (f"on a machine with internet run `huggingface-cli download {repo} --repo-type dataset --local-dir DIR`, "
            f"copy DIR here and {_argument()[1]} (or set HF_HUB_OFFLINE=1 if it is in your Hugging Face cache)")


def rows_from_hub(repo: str, revision: str | None, splits: list[tuple[str, str]]) -> list[Row]:
    """Rows of each (language, subset) split; splits a config lacks are skipped."""
    try:
        import datasets
    except ImportError:
        raise InputError("reading the hub needs the datasets library: pip install 'indicifeval[hub]'") from None
    local = Path(repo).exists()
    if not local and not _offline_mode():
        why = _unreachable(repo)
        if why:
            raise InputError(f"{why}; {_advice(repo)}", f"{_argument()[0]} ({repo})")
    rows: list[Row] = []
    names = configs()
    for lang, subset in splits:
        where = f"{repo}:{names[subset]}/{lang}"
        try:
            split = datasets.load_dataset(repo, names[subset], split=lang, revision=revision)
        except ValueError as exc:  # unknown split: a language the config does not have
            if "split" in str(exc).lower() and "unknown" in str(exc).lower():
                continue
            raise InputError(first_line(exc), where) from None
        except Exception as exc:  # network, auth, missing repo: one line, never a traceback
            hint = "" if local else f"; {_advice(repo)}"
            raise InputError(f"{exc.__class__.__name__}: {first_line(exc)}{hint}", where) from None
        for i, record in enumerate(split, start=1):
            rows.append(parse_row(sanitize_value(record), Source(where, i), layout=(lang, subset)))
    return check_unique(rows)

