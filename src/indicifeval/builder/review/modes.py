"""The modes of the review's own files, set by intent whatever the umask: its databases (the
verdicts, the secrets) the owner's alone, its exports the owner's and their group's. Every
other file the toolkit writes takes the user's umask."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from indicifeval.core.files import describe_os_error, ensure_folder

DB_MODE, EXPORT_MODE = 0o600, 0o640  # the review's databases: the owner's; exports: also their group's


def create_private(path: str | Path, mode: int = DB_MODE) -> Path:
    """Make ``path`` (empty) with exactly ``mode`` whatever the umask, or set an existing file
    (and its SQLite journals, which SQLite creates with the database's own mode) to it."""
    path = Path(path)
    ensure_folder(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        os.close(fd)
    except FileExistsError:
        pass
    except OSError as exc:
        raise describe_os_error(exc, path) from None
    for each in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm", "-journal"))):
        try:
            os.chmod(each, mode)
        except FileNotFoundError:
            continue
        except OSError:  # not ours to change: its owner decided
            continue
    return path


def restrict_handle(fh: Any, mode: int = EXPORT_MODE) -> None:
    """Set an open file (an atomic writer's staged file) to ``mode`` before any content is in it."""
    if os.chmod in os.supports_fd:
        os.chmod(fh.fileno(), mode)


def scrub_old_hashes(db: str | Path) -> bool:
    """Review databases made before tokens left them held unsalted SHA-256 token hashes (the
    ``annotators`` table): dropped, their pages overwritten. True when there was one."""
    db = Path(db)
    if not db.is_file():
        return False
    con = sqlite3.connect(db, timeout=10)
    try:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'annotators'").fetchall():
            return False
        con.execute("PRAGMA secure_delete = ON")
        con.execute("DROP TABLE annotators")
        con.commit()
        con.execute("VACUUM")
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return True
    finally:
        con.close()


__all__ = ["DB_MODE", "EXPORT_MODE", "create_private", "restrict_handle", "scrub_old_hashes"]
