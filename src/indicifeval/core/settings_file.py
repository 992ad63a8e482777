"""Reading a small settings file a person wrote (a build plan, the annotators): JSON by its
name, YAML otherwise (safe-loaded: no object can be built from the file), every problem one
InputError naming the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError


def read_settings(path: str | Path, what: str) -> Any:
    """The parsed content of ``path``; ``what`` names it in errors ("plan", "annotators file")."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read the {what} ({exc.strerror or exc})", where) from None
    except UnicodeDecodeError as exc:
        line = Path(path).read_bytes()[: exc.start].count(b"\n") + 1
        raise InputError(f"the {what} is not UTF-8 text (byte 0x{exc.object[exc.start]:02x})", where, line) from None
    if where.endswith(".json"):
        try:
            return json.loads(text)
        except RecursionError:
            raise InputError(f"not a valid {what} (nested too deeply)", where) from None
        except ValueError as exc:
            raise InputError(f"not a valid {what} ({str(exc).splitlines()[0][:160]})", where) from None
    try:
        import yaml
    except ImportError:
        raise InputError(f"a YAML {what} needs PyYAML: pip install pyyaml (or write it as .json)", where) from None
    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise InputError(f"not a valid {what} (nested too deeply)", where) from None
    except yaml.YAMLError as exc:
        raise InputError(f"not a valid {what} ({str(exc).splitlines()[0][:160]})", where) from None


__all__ = ["read_settings"]
