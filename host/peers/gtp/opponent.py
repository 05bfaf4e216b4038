"""A GTP engine as the session's opponent (host/session/ai_worker.py's Opponent), the built-in AI behind it.

The engine plays the AI's side exactly where the built-in AI would: its move is
lit and made by hand.  Should it die, hang past its time, answer something that
is not a legal move, or resign, nothing of it is committed: ``trouble`` says so
in one line (the board shows it), the engine is stopped, and each question of
its side is answered with OpponentGone, so the board offers the built-in AI;
once the player takes the offer (``take_over``) the built-in AI plays on, and
the game is kept.  Hints always come from the built-in AI.
"""

from __future__ import annotations

from typing import Any

from engines.game import Game
from host.peers.gtp.engine import GtpEngine
from host.peers.gtp.game import MOVE_MARGIN_S, NAME_CHARS, GtpGame, Resigned
from host.peers.gtp.protocol import GtpError
from host.session.ai_opponent import AiOpponent
from host.session.ai_worker import OpponentGone
from host.shown import one_line


def gave_up(name: str, words: str) -> str:
    """What the board says of an engine that stopped: its name, what happened, and that none of it counts."""
    return f"{name}: {words}. Nothing of it was committed."


class EngineOpponent:
    def __init__(
        self, line: str, seconds: float, fallback: AiOpponent, margin_s: float = MOVE_MARGIN_S
    ) -> None:
        self.line = line
        self.margin_s = margin_s
        self.seconds = seconds
        self.fallback = fallback
        self._name = one_line(line, NAME_CHARS)
        self._table: GtpGame | None = None
        self._trouble: str | None = None
        self._taken_over = False

    @property
    def name(self) -> str | None:
        """The engine's name as it says it (its command line until it has started), while it plays."""
        return self._name if self.playing else None

    @property
    def nodes(self) -> int | None:
        return None if self.playing else self.fallback.nodes

    @property
    def level(self) -> int | None:
        """The built-in AI's level once it plays instead (None while the engine does)."""
        return None if self.playing else self.fallback.level

    @level.setter
    def level(self, level: int) -> None:
        self.fallback.level = level

    @property
    def stopped(self) -> str | None:
        """The engine's name from when it stopped until the player takes the built-in AI in its place."""
        return self._name if self._trouble is not None and not self._taken_over else None

    @property
    def playing(self) -> bool:
        """Whether the engine (not the built-in AI) plays."""
        return self._trouble is None

    def start(self, game: Game[Any, Any]) -> None:
        """Start the engine and set it up for ``game``; GtpError (one line) when it cannot be."""
        engine = GtpEngine(self.line)
        try:
            self._table = GtpGame(engine, game, self.seconds, self.margin_s)
        except BaseException:  # a fault, or SIGINT or SIGTERM while it loads: its processes go at once
            engine.close()
            raise
        self._name = self._table.name
        self.fallback.start(game)

    @property
    def trouble(self) -> str | None:
        """What went wrong with the engine, in a sentence, once it has (also when it dies between moves)."""
        table = self._table
        if self._trouble is None and table is not None and table.engine.died:
            self._give_up(f"{table.engine.said} {table.engine.death()}")
        return self._trouble

    def _give_up(self, words: str) -> None:
        if self._table is not None:
            self._table.engine.close()
        self._trouble = gave_up(self._name, words)

    def take_over(self) -> None:
        """The player took the board's offer: the built-in AI answers from now on."""
        self._taken_over = True

    def refuse(self, why: str) -> None:
        """The core refused an answer of this side (it checks every opponent's): the engine is stopped
        as for a fault it found itself, and ``why`` is its trouble unless it had one already."""
        if self._table is not None:
            self._table.engine.close()
        if self._trouble is None:
            self._trouble = why

    def choose(self, game: Game[Any, Any], pos: Any) -> Any:
        if self.playing and self._table is not None:
            try:
                return self._table.choose(pos)
            except Resigned:
                self._give_up("it resigns")
            except GtpError as exc:
                self._give_up(str(exc))
        trouble = self.trouble
        if trouble is not None and not self._taken_over:
            raise OpponentGone(trouble)
        return self.fallback.choose(game, pos)

    def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]:
        return self.fallback.hint(game, pos)

    def close(self) -> None:
        if self._table is not None:
            self._table.engine.close()
