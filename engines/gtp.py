"""How a game speaks the Go Text Protocol (GTP 2), the convention of every Go engine.

A game whose opponent may be any GTP engine (GnuGo, Pachi) names its facts in
``Game.gtp`` ("module:attribute", imported only when an engine plays it, as
``ai_policy`` is): the board's size, the komi and the rules as GTP says them,
a move as a GTP vertex and back, and the moves that led to a position, since an
engine is told a game move by move.  The host (host/peers/gtp) knows GTP and
nothing of any game; the game knows its moves and nothing of processes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Generic, TypeVar

from mypy_extensions import mypyc_attr

from engines import registry
from engines.game import Game

P = TypeVar("P")
M = TypeVar("M", bound=Hashable)

COLOURS = ("black", "white")  # GTP's names of player 0 (who moves first) and player 1


@mypyc_attr(allow_interpreted_subclasses=True)
class GtpFacts(ABC, Generic[P, M]):
    """A game as GTP sees it."""

    boardsize: int
    komi: float
    # The scoring as KGS's ``kgs-rules`` names it ("chinese": area scoring), for the engines that take it.
    rules: str
    # Whether nothing is taken off the board as dead at the end (Tromp-Taylor): then an engine must capture
    # the dead stones before it passes, which ``kgs-genmove_cleanup`` asks of the engines that know it.
    capture_all_dead: bool

    def __init__(self, game: Game[P, M]) -> None:
        self.game = game

    @abstractmethod
    def vertex(self, move: M) -> str:
        """The GTP vertex of ``move`` ("D4", "pass")."""

    def move(self, pos: P, vertex: str) -> M:
        """The legal move of ``pos`` that the engine's ``vertex`` names; MoveError says why there is none.
        This default reads the vertex as the game's own notation."""
        return self.game.parse_move(pos, vertex)

    @abstractmethod
    def history(self, pos: P) -> list[M]:
        """The moves from the start that led to ``pos``, in order (passes included)."""


def gtp_facts(game: Game[P, M]) -> GtpFacts[P, M] | None:
    """The game's GTP facts, or None for a game that does not speak GTP."""
    target = game.gtp
    if not target:
        return None
    facts: GtpFacts[P, M] = registry.named(target)(game)
    return facts
