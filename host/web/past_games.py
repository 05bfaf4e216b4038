"""The page's "Past games": the store's games of the game being played, and any one of them replayed.

The page asks with ``{"type": "past_games"}`` and ``{"type": "replay",
"game": ID, "step": N}``; only the asking page gets the answer
(``PageServer.questions``), so one page replaying leaves the others live.
Answers are worked out on the server's answering thread, never the live
loop's: the store is read through a read-only connection of its own, which
never takes the write lock the running game commits its moves under, and
positions are computed by an engine of its own from the stored moves.
A question that cannot be answered gets a one-line error saying why.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeGuard

from engines import registry
from engines.game import Game, M, MoveError, P
from host.store.database import reason_of
from host.store.games import StoredGame, load_game, positions_of, reading, recent_games
from host.web.view import past_game_json, replay_json

LISTED = 50  # the newest games the list shows; the answer says how many there are in all
SHOWN_CHARS = 40  # of a bad value quoted back in an error


def error(message: str) -> dict[str, object]:
    """An answer the page shows in its Past games panel."""
    return {"type": "error", "about": "past", "message": message}


def quoted(value: object) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def whole(value: object) -> TypeGuard[int]:
    """A JSON whole number (not true/false, which Python counts as 0 and 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


class PastGames(Generic[P, M]):
    """Answers one page's questions about the store at ``store`` (None: the game is not kept)."""

    def __init__(self, game: Game[P, M], store: Path | None, live: Callable[[], int | None]) -> None:
        self.game: Game[P, M] = registry.make(
            game.id, tuple(game.chosen)
        )  # its own: the live loop uses the other
        self.options = tuple(sorted(game.chosen))
        self.store = store
        self.live = live
        self._replayed: tuple[int, tuple[str, ...], list[P]] | None = None  # the last game's positions

    @property
    def questions(self) -> dict[str, Callable[[dict[str, object]], dict[str, object]]]:
        return {"past_games": self.listing, "replay": self.replay}

    def listing(self, message: dict[str, object]) -> dict[str, object]:
        """The newest games of this game, newest first."""
        if self.store is None:
            return error("this game is not kept in a store, so there are no past games to show")
        try:
            with reading(self.store) as conn:
                games, total = recent_games(conn, self.game.id, self.options, LISTED)
        except sqlite3.Error as exc:
            return error(f"{self.store}: cannot read the games: {reason_of(exc)}")
        live = self.live()
        return {
            "type": "past_games",
            "games": [past_game_json(self.game, stored, count, live) for stored, count in games],
            "total": total,
        }

    def replay(self, message: dict[str, object]) -> dict[str, object]:
        """One game's position after ``step`` of its moves."""
        game_id, step = message.get("game"), message.get("step", 0)
        if not whole(game_id):
            return error(f"a replay names a game by its number, not {quoted(game_id)}")
        if not whole(step):
            return error(f"a replay's step is a number of moves, not {quoted(step)}")
        if self.store is None:
            return error("this game is not kept in a store, so there are no past games to show")
        try:
            with reading(self.store) as conn:
                stored = load_game(conn, game_id)
        except sqlite3.Error as exc:
            return error(f"{self.store}: cannot read game {game_id}: {reason_of(exc)}")
        if stored is None or stored.game != self.game.id or tuple(sorted(stored.options)) != self.options:
            return error(f"there is no game {game_id} of {self.game.name} in the store")
        if not 0 <= step <= len(stored.moves):
            return error(
                f"game {game_id} has {len(stored.moves)} moves: a step is 0..{len(stored.moves)}, not {step}"
            )
        try:
            positions = self._positions(stored)
        except MoveError as exc:
            return error(f"game {game_id} cannot be replayed: {exc}")
        return replay_json(self.game, stored, positions, step, self.live())

    def _positions(self, stored: StoredGame) -> list[P]:
        """Every position of the game, kept for the next step (a game in play may have grown since)."""
        assert stored.id is not None
        key = (stored.id, tuple(stored.moves))
        if self._replayed is None or self._replayed[:2] != key:
            self._replayed = (*key, positions_of(self.game, stored.moves))
        return self._replayed[2]
