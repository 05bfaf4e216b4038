"""One owner per game: a second process opening the same game is refused, never a second writer.

The claim is an flock on a lock file beside the store file itself, one per game
slot (a game id with its options: the slot whose unfinished game resumes).  The
lock file is found from the store's real path, through every symbolic link to
the file or to a directory above it, so every name that reaches the file meets
the same lock; a lock file named after the path as given let ``--journal
alias/games.sqlite3`` own the game ``--journal real/games.sqlite3`` was playing.
(A bind mount reaches the same directory, so the same lock file; a second hard
link is refused when the store is opened, host/store/database.py.)

The lock is never taken on the store file itself: closing any descriptor of a
file drops every POSIX lock this process holds on it, SQLite's own included, so
nothing here opens the store but SQLite.  The kernel drops the flock when its
process dies however it dies, so a killed owner never blocks the next start and
a stale claim needs no cleaning up.  The owner writes its pid and command into
the lock file so that the refused process can say who holds the game.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shlex
import sys
from collections.abc import Iterable
from pathlib import Path

from host.store.database import StoreError, reason_of


class GameTaken(StoreError):
    """Another process owns the game."""


def slot_name(game_id: str, options: Iterable[str]) -> str:
    return "+".join([game_id, *sorted(options)])


def lock_path(store: Path, slot: str) -> Path:
    """The slot's lock file, beside the file the store's name leads to."""
    real = store.resolve()
    return real.with_name(f"{real.name}.{slot}.lock")


class Ownership:
    """This process's claim on one game slot of a store; release() or the process's end gives it up."""

    def __init__(self, store: Path, slot: str) -> None:
        self.path = lock_path(store, slot)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StoreError(self.path, f"cannot open the lock file: {reason_of(exc)}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 1000, 0).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise GameTaken(
                store,
                f"{slot} is being played by {holder}: quit that game first, or play with another --journal",
            ) from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(self.path, f"cannot lock: {reason_of(exc)}") from None
        self._fd: int | None = fd
        me = f"pid {os.getpid()} ({shlex.join(sys.orig_argv)})\n".encode()
        # The lock holds without the note; a refused process then says "another process".
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, me, 0)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
