"""Opening the store's SQLite database, with every way that can fail said in one line.

sqlite3 says "unable to open database file" for a directory, a missing parent
and a read-only location alike, so the path is checked first and the
operating system's own reason given.  Every connection runs in WAL mode with
synchronous=FULL: a commit returns only once it is on the disk.

A store with a second hard link is refused: SQLite finds its write-ahead log by
the name it was opened under (it follows symbolic links to the file itself, but
two hard links are two equal names), so two processes using the two names would
write two logs into one database and lose each other's moves.  A damaged store
(PRAGMA integrity_check, at every open) is refused with what to do about it,
never used as if it were sound: with a broken index a game in progress is not
found, and a second one would be started in its slot.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import time
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


def another_name(info: os.stat_result) -> str:
    return (
        f"cannot open: the store has {info.st_nlink} names (hard links), and each would get a write-ahead "
        f"log of its own: remove all but one (find / -xdev -inum {info.st_ino})"
    )


def damaged(path: Path, problem: str) -> StoreError:
    return StoreError(
        path,
        f"the store is damaged ({problem}); nothing was changed: `magboard history repair` (with the same "
        "--journal) repairs it, keeping a copy, or play on with another --journal",
    )


def integrity_problem(conn: sqlite3.Connection) -> str | None:
    """The first thing SQLite finds wrong with the database (pages, indexes, constraints), or None."""
    try:
        problem = conn.execute("PRAGMA integrity_check(1)").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return reason_of(exc)
    if problem == "ok":
        return None
    lines = [
        line for line in str(problem).splitlines() if not line.startswith("***")
    ]  # "*** in database main"
    return "; ".join(lines) or str(problem)


def check_integrity(conn: sqlite3.Connection, path: Path) -> None:
    """StoreError unless SQLite finds the whole database sound."""
    problem = integrity_problem(conn)
    if problem is not None:
        raise damaged(path, problem)


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
    """The database file exists (made, durably, when missing) and is a regular file this process may write.

    An existing file is never opened here, only looked at: SQLite alone opens it, because closing any
    descriptor of a file drops every POSIX lock the process holds on it - SQLite's, of connections
    other threads have open, included.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise StoreError(path, f"cannot open: {reason_of(exc)}") from None
    if info is None:
        _create(path)
    elif stat.S_ISDIR(info.st_mode):
        raise StoreError(path, "cannot open: it is a directory (give a file name, e.g. games.sqlite3)")
    elif not stat.S_ISREG(info.st_mode):
        raise StoreError(path, "cannot open: not a regular file")
    elif info.st_nlink > 1:
        raise StoreError(path, another_name(info))
    elif not os.access(path, os.R_OK | os.W_OK):
        raise StoreError(path, "cannot open: permission denied")


def _create(path: Path) -> None:
    try:
        _make_dirs(path.parent)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        return  # another process made it meanwhile
    except OSError as exc:
        raise StoreError(path, f"cannot open: {reason_of(exc)}") from None
    try:
        os.fsync(fd)
        _fsync_dir(path.parent)
    except OSError as exc:
        raise StoreError(path, f"cannot open: {reason_of(exc)}") from None
    finally:
        os.close(fd)


def _cannot_open(path: Path, exc: sqlite3.Error) -> StoreError:
    """Why SQLite cannot open the store, with a damaged store and an old journal file said as such."""
    name = getattr(exc, "sqlite_errorname", None)
    if name == "SQLITE_CORRUPT":
        return damaged(path, reason_of(exc))
    if name == "SQLITE_NOTADB":  # no SQLite connection has it open now: it may be read
        try:
            with open(path, "rb") as existing:
                head = existing.read(len(SQLITE_MAGIC))
        except OSError:
            head = SQLITE_MAGIC
        if head[: len(SQLITE_MAGIC)] != SQLITE_MAGIC:
            return StoreError(
                path, "not a game store (an old journal file? import it with `magboard history import FILE`)"
            )
    return StoreError(path, f"cannot open: {reason_of(exc)}")


def store_text(data: bytes) -> str:
    """A TEXT value as a str: bytes that are not UTF-8 (a damaged store) kept as surrogates for the
    reader to name, rather than an error about the whole query."""
    return data.decode("utf-8", "surrogateescape")


def connect(path: Path) -> sqlite3.Connection:
    """A connection in WAL mode with synchronous=FULL; explicit transactions only."""
    conn = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
    conn.text_factory = store_text
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
    # SQLite's message about a damaged schema quotes its bytes, and Python's sqlite3 decodes that message
    # as UTF-8 strictly: bytes flipped there come out as a UnicodeDecodeError, not a DatabaseError.
    try:
        conn = connect(path)
    except sqlite3.Error as exc:
        raise _cannot_open(path, exc) from None
    except UnicodeDecodeError:
        raise damaged(path, "its schema is not text SQLite can read") from None
    try:
        check_integrity(conn, path)
        migrate(conn, path)
    except StoreError:
        conn.close()
        raise
    except sqlite3.Error as exc:
        conn.close()
        raise StoreError(path, f"cannot write: {reason_of(exc)}") from None
    except UnicodeDecodeError:
        conn.close()
        raise damaged(path, "its schema is not text SQLite can read") from None
    return conn


def _aside(path: Path) -> Path:
    """A name beside ``path`` for a copy of it that no file has yet."""
    base = f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    for number in range(1, 1000):
        copy = path.with_name(base if number == 1 else f"{base}-{number}")
        if not os.path.lexists(copy):
            return copy
    raise StoreError(path, f"cannot repair: too many copies named {base}* beside it already")


def repair(path: Path) -> str:
    """Rebuild a damaged store's indexes after copying it aside; what was done, in one line.

    An index that lost or gained rows (a torn page, a bit flipped on an SD card) is rebuilt from
    its table, and that is all a REINDEX can do: damage to the tables themselves is said, with the
    copy kept for sqlite3's ``.recover``.
    """
    _prepare_file(path)
    try:
        conn = connect(path)
    except sqlite3.Error as exc:
        raise _cannot_open(path, exc) from None
    except UnicodeDecodeError:  # as in open_store
        raise StoreError(
            path,
            "cannot repair: its schema is not text SQLite can read (sqlite3's .recover may save the games)",
        ) from None
    try:
        if integrity_problem(conn) is None:
            return f"{path}: the store is sound; nothing to repair"
        copy = _aside(path)
        try:
            with contextlib.closing(sqlite3.connect(copy)) as target:
                conn.backup(target)
        except sqlite3.Error as exc:
            raise StoreError(path, f"cannot repair: no copy could be made ({reason_of(exc)})") from None
        try:
            with transaction(conn):
                conn.execute("REINDEX")
            problem = integrity_problem(conn)
        except sqlite3.Error as exc:
            problem = reason_of(exc)
        if problem is not None:
            raise StoreError(
                path, f"rebuilding its indexes did not repair it ({problem}); the damaged store is kept as"
                f" {copy}: sqlite3's .recover may save its games",
            )  # fmt: skip
        return f"{path}: repaired (its indexes were rebuilt); the damaged store is kept as {copy}"
    finally:
        conn.close()


@contextlib.contextmanager
def opened(path: Path) -> Iterator[sqlite3.Connection]:
    conn = open_store(path)
    try:
        yield conn
    finally:
        conn.close()
