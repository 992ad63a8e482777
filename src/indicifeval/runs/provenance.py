"""What made a run's answers, recorded in its ``manifest.json`` under ``provenance``: enough to
tell whether two runs' numbers can be compared, and to make the run again.

The model (its name, and for a local folder a hash of its config and weights index, never the
weights), its chat template's hash, precision, the backend and its package's version, every
sampling setting and the samples' seeds, thinking and how reasoning was taken out of answers,
the token budget and how many answers were truncated or empty (counted again as the run
finishes), the data (hub revision, or a hash of the rows' contents), the scorer, the command
line and the machine. Nothing secret and no local path: every string goes through
``public()``, which masks key-like flags, ``Authorization`` values, URL credentials and the
values of key-like environment variables, and turns absolute and home paths into
``<local>/<name>``. A resumed run records its own invocation; those before are kept under
``earlier``."""

from __future__ import annotations

import hashlib
import os
import platform
import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from indicifeval._version import __version__
from indicifeval.core.secrets import MASK, redact_text
from indicifeval.runs.backends.spec import ModelSpec
from indicifeval.runs.requests import text_hash
from indicifeval.runs.sampling import SEED_SCHEME

LOCAL = "<local>"
PACKAGES = {"vllm": ("vllm", "torch"), "hf": ("transformers", "torch"), "seq2seq": ("transformers", "torch")}
REASONING = ("reasoning a server returns apart (reasoning_content) is kept apart; inline <think>…</think> before the "
             "answer is cut off (text.reasoning.split_reasoning); a think block that never closes leaves an empty "
             "answer, counted under answers.reasoning_unterminated; only the answer is scored")
_SENSITIVE_FLAG = re.compile(r"(api[-_]?key|secret|password|passwd|credential|auth|token|bearer|cookie)", re.I)
_NOT_SECRET_FLAG = re.compile(r"(max[-_](new[-_])?tokens|[-_]env$)", re.I)
_SENSITIVE_ENV = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH)", re.I)
_BEARER = re.compile(r"(authorization\s*[:=]\s*(?:bearer\s+|basic\s+|token\s+)?|bearer\s+)\S+", re.I)
_ABSOLUTE = re.compile(r"(?<![\w:/<>~.])(?:~/|~$|/)[^\s'\"=,;]*(?<!/)")
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".gguf", ".pt", ".pth")


def env_secrets() -> list[str]:
    """The values of environment variables whose names say they hold a secret."""
    return [v for k, v in os.environ.items() if _SENSITIVE_ENV.search(k) and v and len(v) >= 4]


def _local(match: re.Match) -> str:
    text = match.group(0)
    name = Path(text.rstrip("/")).name
    return f"{LOCAL}/{name}" if name else LOCAL


def public(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with secrets masked and local paths reduced to ``<local>/<name>``."""
    text = redact_text(text, [*secrets, *env_secrets()])
    text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    home = str(Path.home())
    if len(home) > 1:
        text = text.replace(home, "~")
    return _ABSOLUTE.sub(_local, text)


def public_value(value: Any, secrets: Sequence[str] = ()) -> Any:
    """Every string in ``value`` (dicts and lists walked) made ``public``."""
    if isinstance(value, str):
        return public(value, secrets)
    if isinstance(value, dict):
        return {k: public_value(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [public_value(v, secrets) for v in value]
    return value


def public_command(argv: Sequence[str]) -> list[str]:
    """The command line with the values of key-like flags masked (``--api-key X``,
    ``--token=X``; not ``--max-tokens`` or ``--api-key-env NAME``), then made ``public``."""
    out: list[str] = []
    mask_next = False
    for token in argv:
        if mask_next:
            out.append(MASK)
            mask_next = False
            continue
        if token.startswith("-"):
            name, eq, _ = token.partition("=")
            sensitive = bool(_SENSITIVE_FLAG.search(name)) and not _NOT_SECRET_FLAG.search(name)
            if sensitive:
                out.append(f"{name}={MASK}" if eq else name)
                mask_next = not eq
                continue
        out.append(public(token))
    return out


def weights_hash(model: str) -> str | None:
    """For a local model folder: sha256 of its config.json and weights index files (contents)
    and of its weight files' names and sizes (never their contents); None otherwise."""
    folder = Path(model).expanduser()
    if not model or not folder.is_dir():
        return None
    digest = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.name == "config.json" or path.name.endswith(".index.json"):
            digest.update(f"{path.name}\n".encode() + path.read_bytes())
        elif path.suffix in WEIGHT_SUFFIXES and path.is_file():
            digest.update(f"{path.name} {path.stat().st_size}\n".encode())
    return digest.hexdigest()[:16]


def package_versions(backend: str) -> dict[str, str | None]:
    names = PACKAGES.get(backend, ())
    out: dict[str, str | None] = {"indicifeval": __version__}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def machine() -> dict[str, Any]:
    """CPU model, GPU names (nvidia-smi, where there is one), Python and the OS; no host name."""
    cpu = platform.processor() or None
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    gpus: list[str] = []
    if shutil.which("nvidia-smi"):
        try:
            found = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                                   text=True, timeout=10, check=False)
            gpus = [g.strip() for g in found.stdout.splitlines() if g.strip()] if found.returncode == 0 else []
        except (OSError, subprocess.SubprocessError):
            gpus = []
    return {"cpu": cpu, "cpu_count": os.cpu_count(), "gpus": gpus, "python": platform.python_version(),
            "python_implementation": platform.python_implementation(),
            "os": f"{platform.system()} {platform.release()}".strip(), "machine": platform.machine()}


def rows_hash(content_hashes: Iterable[str]) -> str:
    """A hash of the rows' contents (each row's prompt, instructions and kwargs), in order."""
    return hashlib.sha256("\n".join(content_hashes).encode()).hexdigest()[:16]


def build(spec: ModelSpec, data_info: dict, content_hashes: Iterable[str], *, scoring: str, samples: int,
          max_answer_chars: int, command: Sequence[str] | None, started_at: str | None) -> dict[str, Any]:
    """A run's provenance as it starts (``answers`` and ``chat_template_hash`` are filled in
    once the backend is open and the run has finished)."""
    settings = spec.settings.to_json() if spec.settings is not None else {}
    options = spec.options.values()
    identity = spec.identity()
    seed = settings.get("seed", 0)
    out = {
        "model": {"id": spec.model, "revision": options.get("revision"), "weights_hash": weights_hash(spec.model),
                  "system_prompt_hash": text_hash(spec.system)},
        "chat_template_hash": identity.get("chat_template_hash"),
        "precision": {"dtype": options.get("dtype"), "quantization": options.get("quantization")},
        "backend": {"name": spec.backend, "versions": package_versions(spec.backend),
                    "options": spec.options.output_settings()},
        "sampling": {**settings, "samples": samples, "seeds": [seed + s for s in range(samples)],
                     "seed_scheme": SEED_SCHEME},
        "thinking": {"mode": settings.get("thinking"), "reasoning": REASONING},
        "answers": {"max_tokens": settings.get("max_tokens"), "max_answer_chars": max_answer_chars},
        "dataset": {"source": data_info.get("source"), "repo": data_info.get("repo"),
                    "revision": data_info.get("revision"), "rows": data_info.get("rows"),
                    "content_hash": rows_hash(content_hashes)},
        "scorer": {"name": "indicifeval", "version": __version__, "mode": scoring},
        "command": public_command(command) if command is not None else None,
        "machine": machine(),
        "recorded_at": started_at,
    }
    return public_value(out)


def answer_counts(generations: dict[str, dict], uids: Iterable[str]) -> dict[str, int]:
    """How the latest answer of each item came out: truncated at the token limit, empty
    (answered, nothing left to score), cut at the size cap, reasoning never ended, failed."""
    counts = {"answered": 0, "truncated": 0, "empty": 0, "capped": 0, "reasoning_unterminated": 0, "failed": 0}
    for uid in uids:
        g = generations.get(uid)
        if g is None:
            continue
        if g.get("error"):
            counts["failed"] += 1
            continue
        counts["answered"] += 1
        counts["truncated"] += bool(g.get("truncated"))
        counts["empty"] += not (g.get("answer") or "").strip()
        counts["capped"] += g.get("capped_from_chars") is not None
        counts["reasoning_unterminated"] += bool(g.get("reasoning_unterminated"))
    return counts


def carried(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """``new``, with the invocations before it (command, machine, versions) under ``earlier``."""
    if not old:
        return new
    earlier = list(old.get("earlier") or [])
    before = {k: old.get(k) for k in ("command", "machine", "backend", "recorded_at")}
    if before != {k: new.get(k) for k in before}:
        earlier.append(before)
    return {**new, "earlier": earlier} if earlier else new


__all__ = ["LOCAL", "answer_counts", "build", "carried", "machine", "public", "public_command", "public_value",
           "rows_hash", "weights_hash"]
