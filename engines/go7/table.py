"""Go 7x7 at the table: Black and White stones placed from their bowls on the points, and a Pass button."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.bits import cells_of
from engines.go7.board import KOMI, NAMES, PASS, area, dead_groups
from engines.outcome import Outcome
from engines.table import Drawing, Ending, GameView, Look, Noun, ObjectKind, Role, Table

FILLS = ("#1d1d1d", "#f4f4f4")
# A stone is owned: its colour is its player's for the whole game (a Hall board reads it from the pole).
STONE = ObjectKind(
    "stone",
    Role.OWNED,
    Noun("stone", "stones"),
    Look("disc", 0.42, fills=FILLS, edges=("#000", "#555")),
    held=Noun("stone in the bowl", "stones in the bowl"),
)


class Go7Table(Table):
    sides = ("Black", "White")
    side_colours = FILLS
    objects = (STONE,)
    # Go's own word for where a stone stands (the rules count points), short enough for every sentence.
    cell = Noun("point", "points")
    # The board's lines join the points (the geometry's neighbours are the four along the lines).
    drawing = Drawing("point")
    notation = "d4 or pass"
    turn = "place a stone on an empty point, or press Pass"
    score_unit: ClassVar[Noun | None] = Noun("point", "points")
    voluntary_pass = True
    never: ClassVar[Mapping[str, str]] = {
        "choose": "every turn puts its stone on a point of its own, which even reed switches feel",
        "confirm": "no whole turn is the beginning of another: a stone on a point always takes off the same "
        "stones, and a pass changes nothing (it is the Pass button)",
        "lifted": "a stone once placed never moves: one lifted is put back, or taken off as a capture",
    }

    def score_words(self, score: tuple[int, int]) -> str:
        """The area of each player with White's komi: 'Black 20 points - White 29 points + 7.5 komi'."""
        return f"{super().score_words(score)} + {KOMI:g} komi"

    def turn_words(self, game: GameView, pos: Any) -> str:
        """The ko point is named while it may not be played; after a pass, what a second one does."""
        if pos.ko >= 0:
            return f"place a stone on an empty point but {NAMES[pos.ko]} (the ko), or press Pass"
        if pos.last == PASS:
            return f"{self.turn} (a second pass in a row ends the game)"
        return super().turn_words(game, pos)

    def ending(self, game: GameView, pos: Any) -> Ending:
        """The area count after two passes (the winner's area lit), or the repetition that drew."""
        outcome = game.outcome(pos)
        assert outcome is not None
        black, white, black_empty, white_empty = area(pos.black, pos.white)
        if outcome.winner is None:
            point = NAMES[pos.last]
            return Ending(
                f"The stone on {point} remade an earlier board (a repetition): that ends the game in a draw.",
                frozenset({point}),
            )
        winner = outcome.winner
        margin = abs(black - white - KOMI)
        owned = (pos.black | black_empty) if winner == 0 else (pos.white | white_empty)
        return Ending(
            f"Two passes in a row. By area (stones, and the empty points only they reach) Black has {black} "
            f"points, White {white} + {KOMI:g} komi: {self.side(winner)} wins by {margin:g} points.",
            frozenset(NAMES[p] for p in cells_of(owned)),
        )

    def dead_proposal(self, game: GameView, pos: Any) -> frozenset[str] | None:
        """After two passes the players agree which stones are dead, take them off and count, as at a
        table and on every Go server (the rules, OpenSpiel's, count the board as it stands).  The board
        proposes the groups the search's area estimate holds dead (engines/go7/board.py)."""
        outcome = game.outcome(pos)
        if outcome is None or outcome.winner is None:  # still playing, or a repetition's draw
            return None
        return frozenset(NAMES[p] for p in cells_of(dead_groups(pos.black, pos.white)))

    def agreed(self, game: GameView, pos: Any, dead: frozenset[str]) -> tuple[Outcome, Ending]:
        """The area count (stones, and the empty points only they reach) of the board with ``dead`` taken
        off, with White's komi; the winner's area is lit."""
        off = sum(1 << NAMES.index(name) for name in dead)
        stones = pos.black & ~off, pos.white & ~off
        black, white, black_empty, white_empty = area(*stones)
        winner = 0 if black - white - KOMI > 0 else 1
        owned = stones[0] | black_empty if winner == 0 else stones[1] | white_empty
        taken = f"With {len(dead)} dead {'stone' if len(dead) == 1 else 'stones'} off, by" if dead else "By"
        reason = (
            f"{taken} area Black {black}, White {white} + {KOMI:g}: "
            f"{self.side(winner)} wins by {abs(black - white - KOMI):g}."
        )
        return Outcome(winner, (black, white)), Ending(reason, frozenset(NAMES[p] for p in cells_of(owned)))
