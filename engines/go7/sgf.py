"""Go 7x7 in SGF (GM[1]): a point is two letters, column from the left and row from the top, and a pass
is an empty value ("tt" is read too, as FF[3] wrote it); the root says the rules of rules.md - SZ[7],
KM[7.5], RU[Chinese] (area scoring, as KGS and OGS name it) - and RE the margin ("B+3.5").

The stones the players agreed dead have no property of their own in FF[4]: as KGS writes it,
the last node's TB and TW are each player's territory counted with them off, so a dead stone stands on
a point of the other colour's territory, which is how a reader finds it again."""

from __future__ import annotations

from engines.bits import cells_of
from engines.game import Outcome
from engines.go7.board import KOMI, NAMES, PASS, SIDE, area
from engines.go7.rules import Go7, Position
from engines.sgf import SgfFacts

FF3_PASS = "tt"  # FF[3]'s pass on boards up to 19x19, still written by some programs


class Go7Sgf(SgfFacts[Position, int]):
    number = 1
    size = SIDE
    fixed: tuple[tuple[str, str], ...] = (("KM", f"{KOMI:g}"), ("RU", "Chinese"))

    def __init__(self, game: Go7) -> None:
        super().__init__(game)

    def value(self, pos: Position, move: int) -> str:
        return "" if move == PASS else self.point(NAMES[move])

    def move(self, pos: Position, value: str) -> int:
        text = "pass" if value in ("", FF3_PASS) else self.name(value)
        return self.game.parse_move(pos, text)

    def result(self, pos: Position, outcome: Outcome) -> str:
        """The winner and by how much with White's komi ("W+7.5"); "0" for the repetition's draw."""
        if outcome.winner is None or outcome.score is None:
            return super().result(pos, outcome)
        black, white = outcome.score
        return f"{self.colours[outcome.winner]}+{abs(black - white - KOMI):g}"

    def territory(self, pos: Position, dead: frozenset[str]) -> tuple[list[str], list[str]]:
        """Black's and White's empty points of the area count with ``dead`` off (a dead stone's point
        is its capturer's), as SGF points."""
        off = sum(1 << NAMES.index(name) for name in dead)
        _, _, black_empty, white_empty = area(pos.black & ~off, pos.white & ~off)
        black, white = (
            sorted(self.point(NAMES[p]) for p in cells_of(empty)) for empty in (black_empty, white_empty)
        )
        return black, white

    def dead(self, pos: Position, territory: tuple[list[str], list[str]]) -> frozenset[str]:
        """The stones standing in the other colour's territory: the dead ones."""
        black, white = ({self.name(p) for p in points} for points in territory)
        standing = cells_of(pos.white), cells_of(pos.black)
        return frozenset(
            NAMES[p]
            for points, stones in zip((black, white), standing, strict=True)
            for p in stones
            if NAMES[p] in points
        )
