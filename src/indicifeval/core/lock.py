"""An OS-level lock on a folder, so two processes never write one run at once.

``flock`` on ``.indicifeval.lock`` in the folder: the kernel drops it when the holder exits,
however it exits (SIGKILL included), so a crash never leaves a folder locked."""

from __future__ import annotations

import os
from pathlib import Path

from indicifeval.core.errors import BusyError
from indicifeval.core.files import describe_os_error, ensure_folder

LOCK_NAME = ".indicifeval.lock"

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def _try_lock(fd: int) -> bool:
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False
    import msvcrt  # pragma: no cover - Windows

    try:  # pragma: no cover
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        return True
    except OSError:  # pragma: no cover
        return False


class FolderLock:
    """``with FolderLock(folder, "run"):`` — raises BusyError at once if another process
    holds it."""

    def __init__(self, folder: str | Path, purpose: str = "write"):
        self.folder = Path(folder)
        self.purpose = purpose
        self._fd: int | None = None

    @property
    def path(self) -> Path:
        return self.folder / LOCK_NAME

    def acquire(self) -> FolderLock:
        ensure_folder(self.folder)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise describe_os_error(exc, self.path) from None
        if not _try_lock(fd):
            holder = ""
            try:
                holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
            except OSError:
                pass
            os.close(fd)
            who = f" ({holder})" if holder else ""
            raise BusyError(f"{self.folder}: another indicifeval process is using this folder{who}; "
                            f"wait for it to finish or choose another folder")
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()}, {self.purpose}\n".encode(), 0)
        except OSError:
            pass  # the note is for people; the lock itself holds
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
