"""Release metadata without the building machine's paths. What a release records (stage
identities, manifests, notes, error lines) may hold the places its files had on the builder's
machine: a model named by its local path is identified by it, a folder made by an older version
recorded its inputs as typed. Those say nothing about the data and tell the world about the
builder's disk, so every absolute path becomes a name: relative to its build folder when it lies
inside one (``g-ne/ground/keywords.jsonl``), else its last part (``ne.jsonl``). Hub paths
(``hf://...``) and URLs are references, not places, and stay."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import regex

HUB_PREFIX = "hf://"
# an absolute path standing in text: /a/b..., C:\\a..., ~/a..., file:///a... (not the // of a URL)
_STOP = r"""\s"'`<>|;,()\[\]{}"""
_EMBEDDED = regex.compile(
    rf"""file://(?=/)[^{_STOP}]+"""
    rf"""|(?<![\w.~:/\\-])~?/[^{_STOP}/]+(?:/[^{_STOP}/]*)+"""
    rf"""|(?<![\w])[A-Za-z]:\\[^{_STOP}]+""")
_WHOLE = regex.compile(rf"""(?:~|/|[A-Za-z]:\\|file:///)[^{_STOP}]*""")


def build_roots(folders: list[Path]) -> dict[str, str]:
    """Each build folder's absolute forms (as given, resolved) -> its name."""
    roots: dict[str, str] = {}
    for folder in folders:
        for form in {str(folder.absolute()), str(folder.resolve())}:
            roots[form.rstrip("/\\")] = folder.name or "build"
    return roots


def portable_path(text: str, roots: Mapping[str, str] | None = None) -> str:
    """One absolute path as a name: inside a build folder, relative to it with the folder's name
    first; elsewhere, its last part."""
    path = text[len("file://"):] if text.startswith("file://") else text
    for root, name in sorted((roots or {}).items(), key=lambda kv: -len(kv[0])):
        if path == root:
            return name
        if path.startswith(root) and path[len(root)] in "/\\":
            return f"{name}/{path[len(root) + 1:]}".replace("\\", "/").rstrip("/")
    windows = regex.match(r"[A-Za-z]:\\", path) is not None
    parts = (PureWindowsPath(path) if windows else PurePosixPath(path.rstrip("/"))).parts
    named = [p for p in parts if p not in ("/", "~", "..", ".") and not p.endswith(":\\")]
    return named[-1] if named else "."


def portable_text(text: str, roots: Mapping[str, str] | None = None) -> str:
    """``text`` with every absolute path in it made a name (see ``portable_path``)."""
    if text.startswith(HUB_PREFIX) or "/" not in text and "\\" not in text:
        return text
    if _WHOLE.fullmatch(text):
        return portable_path(text, roots)
    return _EMBEDDED.sub(lambda m: portable_path(m.group(0), roots), text)


def portable(value: Any, roots: Mapping[str, str] | None = None) -> Any:
    """A JSON value with every string (keys too) made portable; everything else as it was."""
    if isinstance(value, str):
        return portable_text(value, roots)
    if isinstance(value, dict):
        return {portable_text(str(k), roots): portable(v, roots) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [portable(v, roots) for v in value]
    return value


def files_sha256(files: Mapping[str, str]) -> str:
    """One sha256 for a folder input ({relative path: sha256}): of its sorted "path sha256" lines."""
    lines = "".join(f"{name} {files[name]}\n" for name in sorted(files))
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


def corpus_reference(stages: Mapping[str, Any]) -> dict[str, Any] | None:
    """The corpus of a Ground build, as a release names it: {name, hub_id, path, revision,
    sha256, files, license}; None for a build without one. ``stages`` is the manifest's stage
    records (each with its identity) or a release's stage summary (params and inputs)."""
    shards = stages.get("shards")
    if not isinstance(shards, Mapping):
        return None
    identity: Mapping[str, Any] = shards["identity"] if isinstance(shards.get("identity"), Mapping) else shards
    params = identity.get("params") or {}
    given = str(params.get("corpus") or "")
    if not given:
        return None
    ref: dict[str, Any] = {"name": given if given.startswith(HUB_PREFIX) else portable_path(given)}
    if given.startswith(HUB_PREFIX):
        parts = given[len(HUB_PREFIX):].strip("/").split("/")
        if parts[0] == "datasets" and len(parts) >= 3:
            ref["hub_id"] = "/".join(parts[1:3]).split("@")[0]
            ref["path"] = "/".join(parts[3:]) or None
    ref["revision"] = params.get("revision")
    entry = (identity.get("inputs") or {}).get("corpus")
    if isinstance(entry, Mapping) and isinstance(entry.get("files"), Mapping):
        ref["sha256"], ref["files"] = files_sha256(entry["files"]), len(entry["files"])
    elif isinstance(entry, Mapping) and entry.get("sha256"):
        ref["sha256"] = entry["sha256"]
    elif isinstance(entry, str) and len(entry) == 64:  # a release's stage summary: the hash itself
        ref["sha256"] = entry
    rows = stages.get("rows")
    rows_identity: Mapping[str, Any] = {}
    if isinstance(rows, Mapping):
        rows_identity = rows["identity"] if isinstance(rows.get("identity"), Mapping) else rows
    provenance = (rows_identity.get("params") or {}).get("provenance") or {}
    ref["license"] = provenance.get("license") if isinstance(provenance, Mapping) else None
    return ref


__all__ = ["build_roots", "corpus_reference", "files_sha256", "portable", "portable_path", "portable_text"]
