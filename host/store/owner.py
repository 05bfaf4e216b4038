"""One owner per game: a second process opening the same game is refused, never a second writer.

The claim is a lock on one byte of the store file itself, so it belongs to the
file and not to the name it was opened by: a symbolic link to the store or to a
directory above it, or a bind mount, reaches the same file and meets the same
lock (a lock file named after the path let ``--journal alias/games.sqlite3``
own the game that ``--journal real/games.sqlite3`` was playing; a second hard
link is refused when the store is opened, host/store/database.py).  Each game slot (a game id
with its options: the slot whose unfinished game resumes) has a row in the
store's ``owners`` table, and the byte at LOCK_BASE + that row's id is its lock:
far beyond any byte SQLite locks or writes, and never written itself.

The lock is an open file description lock (F_OFD_SETLK): the kernel drops it
when its process dies however it dies, so a killed owner never blocks the next
start; and unlike a POSIX record lock it is not dropped when SQLite closes
another descriptor of the same file in this process.  The owner writes its pid
and command into its row so that a refused process can say who holds the game.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shlex
import sqlite3
import struct
import sys
from collections.abc import Iterable
from pathlib import Path

from host.store.database import StoreError, reason_of, transaction

LOCK_BASE = 1 << 62  # SQLite's own lock bytes are at 1 GiB; its files end before 2**48


class GameTaken(StoreError):
    """Another process owns the game."""


def slot_name(game_id: str, options: Iterable[str]) -> str:
    return "+".join([game_id, *sorted(options)])


def _lock(fd: int, kind: int, offset: int) -> None:
    """An OFD lock of one byte (struct flock; l_pid must be 0); BlockingIOError when another holds it."""
    fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqi0q", kind, os.SEEK_SET, offset, 1, 0))


def _slot_row(conn: sqlite3.Connection, slot: str) -> int:
    with transaction(conn):
        conn.execute("INSERT OR IGNORE INTO owners (slot) VALUES (?)", (slot,))
        row: int = conn.execute("SELECT rowid FROM owners WHERE slot = ?", (slot,)).fetchone()[0]
    return row


class Ownership:
    """This process's claim on one game slot of a store; release() or the process's end gives it up."""

    def __init__(self, conn: sqlite3.Connection, store: Path, slot: str) -> None:
        try:
            offset = LOCK_BASE + _slot_row(conn, slot)
        except sqlite3.Error as exc:
            raise StoreError(store, f"cannot write: {reason_of(exc)}") from None
        try:
            fd = os.open(store, os.O_RDWR | os.O_CLOEXEC)
        except OSError as exc:
            raise StoreError(store, f"cannot open: {reason_of(exc)}") from None
        try:
            _lock(fd, fcntl.F_WRLCK, offset)
        except BlockingIOError:
            os.close(fd)
            holder = self._holder(conn, slot)
            raise GameTaken(
                store,
                f"{slot} is being played by {holder}: quit that game first, or play with another --journal",
            ) from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(store, f"cannot lock: {reason_of(exc)}") from None
        self._fd: int | None = fd
        me = f"pid {os.getpid()} ({shlex.join(sys.orig_argv)})"
        # The lock holds without the note; a refused process then names whoever held it before.
        with contextlib.suppress(sqlite3.Error), transaction(conn):
            conn.execute("UPDATE owners SET holder = ? WHERE slot = ?", (me, slot))

    @staticmethod
    def _holder(conn: sqlite3.Connection, slot: str) -> str:
        try:
            row = conn.execute("SELECT holder FROM owners WHERE slot = ?", (slot,)).fetchone()
        except sqlite3.Error:
            row = None
        holder = row[0] if row is not None and isinstance(row[0], str) else ""
        return holder or "another process"

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
