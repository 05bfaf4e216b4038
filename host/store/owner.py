"""One owner per game: a second process opening the same game is refused, never a second writer.

The claim is an flock on a lock file next to the store, one per game slot (a
game id with its options: the slot whose unfinished game resumes).  The
kernel drops the lock when its process dies however it dies, so a killed
owner never blocks the next start and a stale claim needs no cleaning up.
The owner writes its pid and command into the file so that the refused
process can say who holds the game.
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
    return store.with_name(f"{store.name}.{slot}.lock")


class Ownership:
    """This process's claim on one game slot of a store; release() or the process's end gives it up."""

    def __init__(self, store: Path, slot: str) -> None:
        self.path = lock_path(store, slot)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
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
