"""Atomic file writes: a unique temporary name in the same folder, flushed, fsynced, then
renamed over the target. A reader sees the old file or the new one, never half of one; a
full disk leaves the old file intact and no temporary behind, and says so in one line."""

from __future__ import annotations

import errno
import io
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from indicifeval.core.errors import OutputError

_NO_SPACE = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG}
# the names this module's writers stage under: mkstemp's ".NAME." + 8 random characters + ".tmp"
# (StagedFiles) and mkdtemp's ".staging." + 8 + ".tmp" (core.folders.StagedFolder); a kill leaves them
TEMP_NAME = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")


def current_umask() -> int:
    """The process's umask now (it may change after import): read from /proc where the system
    has it, since setting it to read it back is not safe while other threads create files."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def describe_os_error(exc: OSError, path: str | Path) -> OutputError:
    """One clear line for a failed write."""
    if exc.errno in _NO_SPACE:
        return OutputError(f"{path}: no space left on the device; earlier outputs are left as they were")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return OutputError(f"{path}: not allowed to write here ({exc.strerror})")
    return OutputError(f"{path}: cannot write ({exc.strerror or exc})")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # e.g. Windows: directories cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def ensure_folder(folder: str | Path) -> Path:
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"{folder}: a part of this path is a file, not a folder") from None
    except OSError as exc:
        raise describe_os_error(exc, folder) from None
    return folder


@contextmanager
def atomic_writer(path: str | Path, mode: str = "w", newline: str | None = None) -> Iterator[IO]:
    """Write ``path`` atomically: ``with atomic_writer(p) as fh: fh.write(...)``."""
    path = Path(path)
    with StagedFiles(path.parent) as files, files.open(path.name, mode, newline) as fh:
        yield fh


def write_text(path: str | Path, text: str) -> Path:
    with atomic_writer(path) as fh:
        fh.write(text)
    return Path(path)


def write_bytes(path: str | Path, data: bytes) -> Path:
    with atomic_writer(path, "wb") as fh:
        fh.write(data)
    return Path(path)


def sha256_of(path: str | Path, chunk: int = 1 << 20) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def remove_stale_temporaries(folder: str | Path, skip: tuple[str, ...] = ()) -> list[str]:
    """Remove the temporaries killed writers left in ``folder`` and its subfolders: files and
    staging folders under this module's own names (``TEMP_NAME``), never another ``*.tmp``.
    Why: a killed build or run leaves them, and nothing else ever would. Call it only while
    holding the folder's lock, so that no live writer's temporary goes; ``skip`` names the
    subfolders written without that lock. Returns what went (names relative to ``folder``)."""
    import shutil  # not at the top: every command imports this module, few clear a folder

    root = Path(folder)
    removed: list[str] = []
    for top, dirs, files in os.walk(root):  # links are not followed
        here = Path(top)
        if here == root:
            dirs[:] = [d for d in dirs if d not in skip]
        for name in [d for d in dirs if TEMP_NAME.match(d)]:
            dirs.remove(name)
            shutil.rmtree(here / name, ignore_errors=True)
            removed.append((here / name).relative_to(root).as_posix())
        for name in files:
            if TEMP_NAME.match(name):
                try:
                    (here / name).unlink()
                except FileNotFoundError:
                    continue
                except OSError as exc:
                    raise describe_os_error(exc, here / name) from None
                removed.append((here / name).relative_to(root).as_posix())
    return sorted(removed)


class StagedFiles:
    """A set of files that replace their old versions together: each is written in full to a
    temporary name first, and only when all are on disk are they renamed into place. A full
    disk therefore fails before any old file is touched.

        with StagedFiles(folder) as files:
            files.write_text("summary.json", text)
            with files.open("scores.jsonl") as fh: ...
    """

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self._staged: list[tuple[Path, Path]] = []
        self.names: list[str] = []

    @contextmanager
    def open(self, name: str, mode: str = "w", newline: str | None = None) -> Iterator[IO]:
        final = self.folder / name
        ensure_folder(final.parent)
        try:
            fd, tmp_name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
        except OSError as exc:
            raise describe_os_error(exc, final) from None
        tmp = Path(tmp_name)
        self._staged.append((tmp, final))
        try:
            # mkstemp makes it 0600, readable by its owner alone: give it what a plain open() would
            # (the user's umask), so a teammate or a web server can read a published release
            os.chmod(tmp, 0o666 & ~current_umask())
        except OSError:
            pass
        try:
            raw = os.fdopen(fd, "wb")
            fh: IO = raw if "b" in mode else io.TextIOWrapper(raw, encoding="utf-8", newline=newline)
            try:
                yield fh
                fh.flush()
                os.fsync(raw.fileno())
            finally:
                fh.close()
        except OSError as exc:
            raise describe_os_error(exc, final) from None
        self.names.append(name)

    def write_text(self, name: str, text: str) -> None:
        with self.open(name) as fh:
            fh.write(text)

    def write_bytes(self, name: str, data: bytes) -> None:
        with self.open(name, "wb") as fh:
            fh.write(data)

    def commit(self) -> list[Path]:
        done = []
        for tmp, final in self._staged:
            os.replace(tmp, final)
            done.append(final)
        for parent in {final.parent for _, final in self._staged}:
            _fsync_dir(parent)
        self._staged = []
        return done

    def abort(self) -> None:
        for tmp, _ in self._staged:
            tmp.unlink(missing_ok=True)
        self._staged = []

    def __enter__(self) -> StagedFiles:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort()
