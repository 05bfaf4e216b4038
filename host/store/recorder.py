"""The session's side of the store: each committed move written in one transaction before it goes on.

The session calls ``move``, ``takeback`` and ``new_game`` as it commits and
reads ``health`` afterwards.  A write that fails (a full disk, an I/O error)
does not stop the game: it goes on in memory, ``health`` says the moves are
not being saved and why, and every later commit tries again, writing all that
is missing in one transaction, so the first write that succeeds saves
everything.  The result is recorded from the moves by the rules engine, in
the same transaction as the move that ends the game.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic

from engines.game import Game, M, MoveError, P
from host.store.database import StoreError, open_store, reason_of, transaction
from host.store.games import (
    DamagedGame,
    Status,
    StoredGame,
    abandon,
    in_play,
    insert_game,
    load_game,
    played_ending,
    positions_of,
    update_game,
)
from host.store.health import NotSaving, Saved, StoreHealth
from host.store.owner import Ownership, slot_name

log = logging.getLogger(__name__)


@dataclass
class _Unsaved:
    """A game as this process has it; its first ``kept`` plies are known to be in the store."""

    game: StoredGame
    kept: int
    dirty: bool = False


def _named(players: tuple[str, str], side: int, name: str) -> tuple[str, str]:
    return (name, players[1]) if side == 0 else (players[0], name)


class GameRecorder(Generic[P, M]):
    """Writes one game slot of a store, owning it for as long as it is open."""

    def __init__(
        self,
        path: Path,
        game: Game[P, M],
        conn: sqlite3.Connection,
        owner: Ownership,
        current: StoredGame,
        positions: list[P],
        clock: Callable[[], float],
    ) -> None:
        self.path = path
        self.game = game
        self.positions = positions
        self._conn: sqlite3.Connection | None = conn
        self._owner = owner
        self._clock = clock
        self._current = _Unsaved(current, kept=len(current.moves))
        self._players = current.players  # who plays the next game
        self._ended: list[_Unsaved] = []  # games left while the store could not be written
        self._health: StoreHealth = Saved(path)
        self._lock = threading.Lock()

    @classmethod
    def open(
        cls,
        path: Path,
        game: Game[P, M],
        *,
        board: str | None,
        players: tuple[str, str],
        new: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> GameRecorder[P, M]:
        """Own the slot of ``game`` in the store at ``path`` and resume its unfinished game.

        With ``new`` the unfinished game is marked abandoned and another started.
        StoreError (GameTaken when another process plays it) says why it cannot be opened.
        """
        conn = open_store(path)
        try:
            owner = Ownership(path, slot_name(game.id, game.chosen))
        except BaseException:
            conn.close()
            raise
        try:
            current = cls._resume(conn, game, board, players, new, clock())
            try:
                positions = positions_of(game, current.moves)
            except MoveError as exc:
                raise StoreError(
                    path, f"game {current.id} ({game.id}) cannot be resumed: {exc} "
                    "(start another with --new: this one stays in the store)",
                ) from None  # fmt: skip
        except DamagedGame as exc:
            owner.release()
            conn.close()
            raise StoreError(
                path, f"{exc}: it cannot be resumed (start another with --new: this one stays in the store)"
            ) from None
        except sqlite3.Error as exc:
            owner.release()
            conn.close()
            raise StoreError(path, f"cannot write: {reason_of(exc)}") from None
        except BaseException:
            owner.release()
            conn.close()
            raise
        return cls(path, game, conn, owner, current, positions, clock)

    @staticmethod
    def _resume(
        conn: sqlite3.Connection,
        game: Game[P, M],
        board: str | None,
        players: tuple[str, str],
        new: bool,
        now: float,
    ) -> StoredGame:
        options = tuple(sorted(game.chosen))
        with transaction(conn):
            found = in_play(conn, game.id, options)
            stored = None
            if found is not None:
                try:
                    stored = load_game(conn, found)
                except DamagedGame:
                    if not new:
                        raise
            if found is not None and new and (stored is None or stored.moves):
                abandon(conn, found, now)  # by its id: --new starts afresh even from a damaged game
                stored = None
            elif stored is not None and new:  # no moves: that game starts now rather than stays behind
                assert stored.id is not None
                stored.started_at = now
                update_game(conn, stored.id, stored, kept=0)
            if stored is None:
                stored = StoredGame(None, game.id, options, board, players, Status.PLAYING, now)
                stored.id = insert_game(conn, stored)
        return stored

    # --- what the session calls ------------------------------------------------------------
    @property
    def moves(self) -> list[str]:
        """The moves of the game in progress (a resumed game has them at once)."""
        return list(self._current.game.moves)

    @property
    def game_id(self) -> int | None:
        """The store's id of the game in progress (None while its row could not be written)."""
        return self._current.game.id

    @property
    def health(self) -> StoreHealth:
        """Whether every committed move is on the disk; read it after each commit."""
        return self._health

    def move(self, text: str) -> None:
        """A committed move (canonical text), written before this returns when the disk allows."""
        with self._lock:
            pos = self.game.play(self.positions[-1], self.game.parse_move(self.positions[-1], text))
            self.positions.append(pos)
            stored = self._current.game
            now = self._clock()
            stored.moves.append(text)
            stored.times.append(now)
            stored.status, stored.outcome = played_ending(self.game, pos)
            stored.ended_at = now if stored.outcome is not None else None
            self._current.dirty = True
            self._save()

    def takeback(self, plies: int) -> None:
        """The last ``plies`` moves were taken back."""
        with self._lock:
            current = self._current
            del current.game.moves[-plies:], current.game.times[-plies:], self.positions[-plies:]
            current.kept = min(current.kept, len(current.game.moves))
            current.game.status, current.game.outcome = played_ending(self.game, self.positions[-1])
            current.game.dead = None
            current.game.ended_at = None if current.game.outcome is None else current.game.ended_at
            current.dirty = True
            self._save()

    def player(self, side: int, name: str) -> None:
        """From the next move on ``name`` plays ``side`` (the built-in AI took over from an engine that
        stopped): the game in progress names both, and from which move, and later games ``name``."""
        with self._lock:
            stored = self._current.game
            before, played = stored.players[side], len(stored.moves)
            said = name if played == 0 or before == name else f"{before}, then {name} from move {played + 1}"
            self._players = _named(self._players, side, name)
            stored.players = _named(stored.players, side, said)
            self._current.dirty = True
            self._save()

    def new_game(self) -> None:
        """The board was set up again: the game in progress ends (abandoned unless over), another starts."""
        with self._lock:
            now = self._clock()
            left = self._current
            if not left.game.moves:
                left.game.started_at = now
                left.dirty = True
            else:
                if left.game.status is Status.PLAYING:
                    left.game.status, left.game.ended_at = Status.ABANDONED, now
                    left.dirty = True
                if left.dirty:
                    self._ended.append(left)
                fresh = StoredGame(
                    None, left.game.game, left.game.options, left.game.board, self._players,
                    Status.PLAYING, now,
                )  # fmt: skip
                self._current = _Unsaved(fresh, kept=0, dirty=True)
            self.positions = [self.game.start()]
            self._save()

    def agreed(self, dead: tuple[str, ...]) -> None:
        """The players agreed the stones on ``dead`` were dead: the game is finished with that count."""
        with self._lock:
            stored = self._current.game
            stored.dead = dead
            stored.outcome, _ = self.game.table.agreed(self.game, self.positions[-1], frozenset(dead))
            stored.status, stored.ended_at = Status.FINISHED, self._clock()
            self._current.dirty = True
            self._save()

    def close(self) -> None:
        """A last try at saving what is missing, then give the game up for the next process."""
        with self._lock:
            if isinstance(self._health, NotSaving):
                self._save()
            if isinstance(self._health, NotSaving):
                log.error("%s; they are lost when this program ends", self._health)
            self._owner.release()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # --- writing -----------------------------------------------------------------------------
    def _save(self) -> None:
        """Write everything not yet in the store, in one transaction; on failure keep it for the next try."""
        todo = [u for u in (*self._ended, self._current) if u.dirty]
        if not todo:
            return
        new_ids: list[int | None] = []
        try:
            if self._conn is None:
                self._conn = open_store(self.path)
            with transaction(self._conn) as conn:
                for unsaved in todo:
                    if unsaved.game.id is None:
                        new_ids.append(insert_game(conn, unsaved.game))
                    else:
                        update_game(conn, unsaved.game.id, unsaved.game, unsaved.kept)
                        new_ids.append(unsaved.game.id)
        except StoreError as exc:
            self._failed(exc.reason)
            return
        except (sqlite3.Error, OSError) as exc:
            self._failed(reason_of(exc))
            return
        for unsaved, game_id in zip(todo, new_ids, strict=True):
            unsaved.game.id = game_id
            unsaved.kept = len(unsaved.game.moves)
            unsaved.dirty = False
        self._ended = []
        if isinstance(self._health, NotSaving):
            log.warning("moves are saved again in %s", self.path)
        self._health = Saved(self.path)

    def _failed(self, reason: str) -> None:
        """Drop the connection (the next try opens a fresh one) and say that moves are not being saved."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None
        unsaved = sum(len(u.game.moves) - u.kept for u in (*self._ended, self._current) if u.dirty)
        before = self._health
        self._health = NotSaving(self.path, reason, unsaved)
        if not isinstance(before, NotSaving) or before.reason != reason:
            log.warning("%s", self._health)
