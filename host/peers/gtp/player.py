"""A GTP engine as a contestant of ``magboard match`` (engines/ai/match.py's Player)."""

from __future__ import annotations

from typing import Any

from engines.ai.match import Resignation
from engines.game import Game
from host.peers.gtp.engine import GtpEngine
from host.peers.gtp.game import GtpGame, Resigned

# A fault ends the match, so a match waits long for an engine's move: GnuGo keeps no time at all (its level
# 10 took up to 6 s of "1 s" on a loaded machine), and its moves' times are in the match's max_seconds.
MATCH_MARGIN_S = 60.0


class GtpPlayer:
    """The engine started from ``line`` at its first move, and stopped by ``close``."""

    def __init__(self, game: Game[Any, Any], line: str) -> None:
        self.game = game
        self.line = line
        self.name = f"gtp:{line}"
        self._table: GtpGame | None = None

    def choose_text(self, texts: list[str], seconds: float) -> str:
        if self._table is None:
            self._table = GtpGame(GtpEngine(self.line), self.game, seconds, MATCH_MARGIN_S)
        pos = self.game.play_texts(texts)
        try:
            move = self._table.choose(pos)
        except Resigned as exc:
            raise Resignation(str(exc)) from None
        return self.game.format_move(pos, move)

    def close(self) -> None:
        if self._table is not None:
            self._table.engine.close()
