"""Opening the store's SQLite database, with every way that can fail said in one line.

sqlite3 says "unable to open database file" for a directory, a missing parent
and a read-only location alike, so the path is checked first and the
operating system's own reason given.  Every connection runs in WAL mode with
synchronous=FULL: a commit returns only once it is on the disk.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

from host.store.schema import MIGRATIONS, VERSION

BUSY_MS = 5000  # another process writing another game: wait this long for its transaction
SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(Exception):
    """The store cannot be used: the message names the path and the reason."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def reason_of(exc: BaseException) -> str:
    """An OS or SQLite error as a short reason, without the path (the caller names it)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    name = getattr(exc, "sqlite_errorname", None)  # e.g. SQLITE_IOERR_WRITE: which I/O failed
    return f"{exc} ({name})" if name and name != "SQLITE_ERROR" else str(exc) or type(exc).__name__


def _fsync_dir(path: Path) -> None:
    """Make a new directory entry survive a power cut (the file's own fsync does not)."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _make_dirs(path: Path) -> None:
    """Create ``path`` and its missing parents, each one synced into its parent."""
    missing = []
    while not path.exists():
        missing.append(path)
        path = path.parent
    for directory in reversed(missing):
        directory.mkdir()
        _fsync_dir(directory.parent)


def _prepare_file(path: Path) -> None:
    """The database file exists, is a regular file this process can write, and is a database."""
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise StoreError(path, f"cannot open: {reason_of(exc)}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise StoreError(path, "cannot open: it is a directory (give a file name, e.g. games.sqlite3)")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise StoreError(path, "cannot open: not a regular file")
    try:
        _make_dirs(path.parent)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreError(path, f"cannot open: {reason_of(exc)}") from None
    try:
        head = os.read(fd, len(SQLITE_MAGIC))
        if info is None:
            os.fsync(fd)
            _fsync_dir(path.parent)
    except OSError as exc:
        raise StoreError(path, f"cannot open: {reason_of(exc)}") from None
    finally:
        os.close(fd)
    if head and head != SQLITE_MAGIC[: len(head)]:
        raise StoreError(
            path,
            "not a game store (an old journal file? import it with `magboard history import FILE`)",
        )


def connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode with synchronous=FULL; explicit transactions only."""
    conn = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
    try:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise sqlite3.OperationalError(f"the file system does not allow write-ahead logging ({mode})")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        conn.close()
        raise
    return conn


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken at once (BEGIN IMMEDIATE) so it never fails half way on a lock."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to VERSION in one transaction (a no-op write proves the store writable)."""
    with transaction(conn):
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > VERSION:
            raise StoreError(
                path, f"made by a newer magboard (schema {version}; this one knows up to {VERSION})"
            )
        for statements in MIGRATIONS[version:]:
            for statement in statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {VERSION}")


def open_store(path: Path) -> sqlite3.Connection:
    """The store at ``path``, created if missing and migrated; StoreError says why it cannot be."""
    _prepare_file(path)
    try:
        conn = connect(path)
    except sqlite3.Error as exc:
        raise StoreError(path, f"cannot open: {reason_of(exc)}") from None
    try:
        migrate(conn, path)
    except StoreError:
        conn.close()
        raise
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError(path, f"cannot write: {reason_of(exc)}") from None
    return conn


@contextlib.contextmanager
def opened(path: Path) -> Iterator[sqlite3.Connection]:
    conn = open_store(path)
    try:
        yield conn
    finally:
        conn.close()
