"""The Amazons in SGF (GM[18], the convention of the SGF FF[4] pages: docs/go.md says why this one).

A turn is one value of three points run together - from, to, arrow
("djddgd": d1 to d7, the arrow to g7) - a point two letters, column from the
left and row from the top.  SGF's B moves first and starts on d1 g1 a4 j4:
that is our player 0, whom RULES.md calls White as OpenSpiel does, so PB names
player 0 and PW player 1.  The start is written as its setup (AB, AW) though it
is SGF's default, so that a reader need not know the default.
"""

from __future__ import annotations

from engines.amazons.board import NAMES
from engines.amazons.rules import START_AMAZONS, Amazons, Position, decode
from engines.game import MoveError
from engines.sgf import SgfFacts


class AmazonsSgf(SgfFacts[Position, int]):
    number = 18
    size = 10  # the squares of a side (board.py's grid)

    def __init__(self, game: Amazons) -> None:
        super().__init__(game)
        self.start = tuple(
            (f"A{colour}", tuple(sorted(self.point(name) for name in START_AMAZONS[player])))
            for player, colour in enumerate(self.colours)
        )

    def value(self, pos: Position, move: int) -> str:
        return "".join(self.point(NAMES[cell]) for cell in decode(move))

    def move(self, pos: Position, value: str) -> int:
        if len(value) != 6:
            raise MoveError(f"[{value}] is not a turn: expected three points, from, to and arrow (djddgd)")
        origin, dest, arrow = (self.name(value[i : i + 2]) for i in (0, 2, 4))
        return self.game.parse_move(pos, f"{origin}-{dest}/{arrow}")
