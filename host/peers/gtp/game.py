"""A game told to a GTP engine: the board, komi and rules set up from the game's own facts, the moves
made so far played to it (only the new ones while the game goes forward), and its move asked and checked.

The engine's move is read in the position it was asked about and must be one
of its legal moves: an engine that answers anything else is refused, and
nothing of its answer is kept.
"""

from __future__ import annotations

from typing import Any

from engines.game import Game, MoveError, quoted
from engines.gtp import COLOURS, gtp_facts
from host.peers.gtp.engine import START_S, GtpEngine
from host.peers.gtp.protocol import GtpError
from host.shown import one_line

RESIGN = "resign"
CLEANUP = "kgs-genmove_cleanup"  # genmove, capturing every dead stone before passing (KGS's cleanup phase)
# A move's hard deadline beyond the time it was given: engines keep time loosely (GnuGo not at all).
MOVE_GRACE = 3.0
MOVE_MARGIN_S = 10.0
NAME_CHARS = 60


class Resigned(Exception):
    """The engine gave up the game."""


class GtpGame:
    """One engine playing one kind of game, any number of games in turn."""

    def __init__(
        self, engine: GtpEngine, game: Game[Any, Any], seconds: float, margin_s: float = MOVE_MARGIN_S
    ) -> None:
        facts = gtp_facts(game)
        if facts is None:
            raise GtpError(f"{game.name} is not played through GTP")
        self.engine = engine
        self.game = game
        self.facts = facts
        self.seconds = seconds
        # How long the engine may take for a move before it counts as hung.
        self.deadline = MOVE_GRACE * seconds + margin_s
        known = engine.known()
        cleanup = facts.capture_all_dead and CLEANUP in known
        self._genmove = CLEANUP if cleanup else "genmove"
        self._time_left = "time_left" in known
        self.name = self._name(known)
        self._time_settings = "time_settings" in known
        engine.ask("boardsize", facts.boardsize)
        if "kgs-rules" in known:
            engine.ask("kgs-rules", facts.rules)
        self._clear()

    def _clear(self) -> None:
        """A new game: the board cleared, and the komi and the time set again (Pachi forgets its time at
        ``clear_board``, and then dies at ``time_left``)."""
        self.engine.ask("clear_board")
        self.engine.ask("komi", self.facts.komi)
        if self._time_settings:
            # No main time, then byo-yomi: ``seconds`` for every single move.
            self.engine.ask("time_settings", 0, _seconds(self.seconds), 1)
        self._told: list[Any] = []

    def _name(self, known: frozenset[str]) -> str:
        """The engine's name and version as it says them ("GNU Go 3.8"), or its command line."""
        if "name" not in known:
            return one_line(self.engine.line, NAME_CHARS)
        name = self.engine.ask("name", timeout=START_S)
        version = self.engine.ask("version") if "version" in known else ""
        said = " ".join(part for part in (name, version) if part) or self.engine.line
        return one_line(said, NAME_CHARS)  # shown on the board and stored as a player: one printable line

    def tell(self, moves: list[Any]) -> None:
        """Bring the engine to the game after ``moves``: the new moves when it knows the ones before,
        else the whole game again from a clear board (after a take-back or a new game)."""
        told = self._told
        if moves[: len(told)] != told:
            self._clear()
            told = self._told
        pos = self.game.start()
        for move in moves[: len(told)]:
            pos = self.game.play(pos, move)
        for move in moves[len(told) :]:
            colour = COLOURS[self.game.to_move(pos)]
            self.engine.ask("play", colour, self.facts.vertex(move))
            told.append(move)
            pos = self.game.play(pos, move)

    def choose(self, pos: Any) -> Any:
        """The engine's legal move in ``pos`` (GtpError for anything else, Resigned when it gives up)."""
        moves = self.facts.history(pos)
        self.tell(moves)
        colour = COLOURS[self.game.to_move(pos)]
        if self._time_left:
            self.engine.ask("time_left", colour, _seconds(self.seconds), 1)
        vertex = self.engine.ask(self._genmove, colour, timeout=self.deadline)
        if vertex.lower() == RESIGN:
            raise Resigned(f"{self.name} resigns")
        try:
            move = self.facts.move(pos, vertex)
        except MoveError as exc:
            self.engine.close()
            raise GtpError(f"{self.engine.said} answered {quoted(vertex)}, not a move here: {exc}") from None
        self._told = [*moves, move]
        return move


def _seconds(seconds: float) -> int:
    """GTP's times are whole seconds: at least one."""
    return max(1, round(seconds))
