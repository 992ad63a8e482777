"""Output folders a tool owns.

Each tool (``score``, ``run``, ``report``) records itself and the files it wrote in the
folder's ``manifest.json``. It writes into a folder only if the folder is new, empty, or its
own (``--overwrite`` lifts that), and each time it writes a complete set: files it wrote
before and did not write again are removed, so no stale file outlives the run that made it."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from indicifeval.core.errors import InputError, OutputError
from indicifeval.core.files import TEMP_NAME, ensure_folder, write_text
from indicifeval.core.lock import LOCK_NAME
from indicifeval.core.names import MANIFEST

_OUR_TEMP = TEMP_NAME  # what core.files.atomic_writer leaves on a kill


def read_manifest(folder: str | Path) -> dict[str, Any] | None:
    path = Path(folder) / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise InputError("unreadable manifest (nested too deeply)", str(path)) from None
    except ValueError as exc:  # not JSON, not UTF-8, an integer too long to convert
        raise InputError(f"unreadable manifest ({str(exc).splitlines()[0][:160]})", str(path)) from None
    if not isinstance(data, dict):
        raise InputError("unreadable manifest (not a JSON object)", str(path))
    return data


def tool_of(manifest: dict[str, Any] | None) -> str | None:
    if manifest is None:
        return None
    if "tool" in manifest:
        return str(manifest["tool"])
    return "run" if "generation" in manifest else None  # run folders of 0.1, before "tool"


def write_manifest(folder: str | Path, manifest: dict[str, Any]) -> Path:
    return write_text(Path(folder) / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")


def _content(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name != LOCK_NAME and not _OUR_TEMP.match(p.name)]


def claim(folder: str | Path, tool: str, overwrite: bool = False, flag: str = "--out") -> dict[str, Any] | None:
    """Check, before any work, that ``tool`` may write ``folder``; returns the folder's
    manifest when it is the tool's own, else None. Raises OutputError otherwise."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{flag} {folder}: exists and is a file, not a folder")
    if not folder.exists():
        parent = folder.absolute().parent
        while not parent.exists():
            parent = parent.parent
        if not parent.is_dir():
            raise OutputError(f"{flag} {folder}: {parent} is a file, not a folder")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OutputError(f"{flag} {folder}: not allowed to create it in {parent}")
        return None
    manifest = read_manifest(folder)
    made_by = tool_of(manifest)
    if made_by == tool:
        return manifest
    if not _content(folder):
        return None
    if made_by is not None:  # another tool's folder is never written over, even when asked
        raise OutputError(f"{flag} {folder}: holds the output of `indicifeval {made_by}` and was not made by "
                          f"`indicifeval {tool}`; choose another folder")
    if overwrite:
        return None
    raise OutputError(f"{flag} {folder}: is not empty and was not made by `indicifeval {tool}`; choose a new or "
                      f"empty folder, or pass --overwrite to write into it anyway")


def prepare(folder: str | Path) -> Path:
    """Create the folder and drop temporary files (and staging folders) a killed writer left
    behind."""
    import shutil

    folder = ensure_folder(folder)
    for p in folder.iterdir():
        if _OUR_TEMP.match(p.name):
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)
    return folder


def remove_stale(folder: str | Path, previous: Iterable[str], current: Iterable[str]) -> list[str]:
    """Delete files listed in ``previous`` (relative names) that are not in ``current``;
    never anything outside the folder or not listed. Empty subfolders left behind go too."""
    folder = Path(folder).resolve()
    keep = set(current)
    removed = []
    for name in sorted(set(previous) - keep):
        path = (folder / name).resolve()
        if folder not in path.parents or not path.is_file():
            continue
        path.unlink(missing_ok=True)
        removed.append(name)
        parent = path.parent
        while parent != folder and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    return removed


class StagedFolder:
    """Build a folder's new contents in a hidden staging folder inside it, then move them into
    place file by file (renames need no space) and drop what the previous set had and this
    one lacks. A failure while building leaves the previous contents untouched.

        with StagedFolder(out, previous_files) as stage:
            write everything under stage.path
        stage.files  # the names now in ``out``
    """

    def __init__(self, folder: str | Path, previous: Iterable[str] = ()):
        self.folder = Path(folder)
        self.previous = list(previous)
        self.path = Path()
        self.files: list[str] = []

    def __enter__(self) -> StagedFolder:
        import tempfile

        prepare(self.folder)
        self.path = Path(tempfile.mkdtemp(prefix=".staging.", suffix=".tmp", dir=self.folder))
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        import shutil

        try:
            if exc_type is None:
                names = sorted(str(p.relative_to(self.path)) for p in self.path.rglob("*") if p.is_file())
                for name in names:
                    target = self.folder / name
                    ensure_folder(target.parent)
                    if target.is_dir():
                        shutil.rmtree(target)
                    (self.path / name).replace(target)
                self.files = names
                remove_stale(self.folder, self.previous, [*names, MANIFEST])
        finally:
            shutil.rmtree(self.path, ignore_errors=True)
