"""Credentials never reach a file or the terminal.

A key can travel in a URL (``https://user:key@host/v1``, ``...?key=...``) or be echoed back
in a server's error text; everything recorded or printed about a backend goes through here."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from indicifeval.core.errors import InputError

MASK = "***"
_SENSITIVE = re.compile(r"(key|token|secret|password|passwd|pwd|auth|sig|signature|credential|session)", re.I)
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


def redact_url(url: str) -> str:
    """The URL with any user/password and the values of key-like query parameters masked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, MASK if _SENSITIVE.search(k) else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def url_secrets(url: str) -> list[str]:
    """The credential strings a URL carries (to mask wherever they might be echoed)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return [url]
    found = [s for s in (parts.password, parts.username) if s]
    found += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if _SENSITIVE.search(k) and v]
    return found


def redact_text(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with every given secret and the credentials of every URL in it masked."""
    for secret in sorted((s for s in secrets if s and len(s) >= 4), key=len, reverse=True):
        text = text.replace(secret, MASK)
    return _URL.sub(lambda m: redact_url(m.group(0)), text)


def check_env_name(name: str, flag: str = "--api-key-env") -> str:
    """``name`` if it is a plausible environment-variable name; never echoes it otherwise
    (a key typed in its place must not reach the terminal or a file)."""
    looks_random = len(name) > 24 and any(c.isdigit() for c in name) and any(c.islower() for c in name)
    if not _ENV_NAME.match(name) or looks_random:
        raise InputError(f"{flag} takes the NAME of an environment variable that holds the key (e.g. OPENAI_API_KEY), "
                         f"not the key itself; the value given is not a variable name (not shown)")
    return name


def env_key_problem(name: str) -> str | None:
    """Why the key in environment variable ``name`` cannot be sent in a header (a line break, a
    space or a control character in it), without showing it; None when it can (or is unset)."""
    import os

    key = os.environ.get(name) or ""
    if any(ord(c) < 0x21 or ord(c) == 0x7F for c in key):
        return f"the key in ${name} holds a line break, space or control character (not shown): set it to the key alone"
    return None
