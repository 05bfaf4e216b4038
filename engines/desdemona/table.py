"""Desdemona at the table: queens that move and shoot, two-sided stones named by the side up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.table import Drawing, Ending, GameView, Look, Noun, ObjectKind, Role, Table, owned_cells

FILLS = ("#1d1d1d", "#f4f4f4")
EDGES = ("#111", "#555")
QUEEN = ObjectKind(
    "queen",
    Role.OWNED,
    Noun("queen", "queens"),
    Look("disc", 0.36, fills=FILLS, edges=EDGES, glyph="\u265b", glyph_inks=("#eee", "#222")),
)
STONE = ObjectKind(
    "stone", Role.REVERSIBLE, Noun("stone", "stones"), Look("disc", 0.36, fills=FILLS, edges=EDGES)
)


class DesdemonaTable(Table):
    sides = ("Black", "White")
    side_colours = FILLS
    objects = (QUEEN, STONE)
    cell = Noun("square", "squares")
    drawing = Drawing("square", checkered=("#b58d5a", "#d8b584"))
    notation = "a4-a6/c8 (shot), a4-a6xc8 (capture) or pass"
    said_symbols: ClassVar[Mapping[str, str]] = {
        "-": " to ", "/": ", shot on ", "x": ", capture with a stone on ",
    }  # fmt: skip
    turn = "move a queen, then shoot a {opponent} stone or capture"
    score_unit: ClassVar[Noun | None] = Noun("stone", "stones")
    endings: ClassVar[Mapping[str, str]] = {
        "no queen can move": "Neither player can move a queen (two passes in a row). {score}."
    }
    never: ClassVar[Mapping[str, str]] = {
        "confirm": "no whole turn is the beginning of another: a queen move is a turn alone only on Black's "
        "first turn, and a shot never lands where a capture would (the stones in between block it)",
    }

    def turn_words(self, game: GameView, pos: Any) -> str:
        """Black's very first turn is the queen move alone (RULES.md); a capture is offered only where
        there is an opponent's stone to capture (none on White's first turn)."""
        if game.start() == pos:
            return "move a queen (the first turn is the queen move alone, with no shot)"
        opponent = 1 - game.to_move(pos)
        if not owned_cells(game.cells(pos), STONE.kind, opponent):
            return f"move a queen, then shoot a {self.side(opponent)} stone"
        return super().turn_words(game, pos)

    def ending(self, game: GameView, pos: Any) -> Ending:
        outcome = game.outcome(pos)
        assert outcome is not None
        cells = owned_cells(game.cells(pos), STONE.kind, outcome.winner)
        return self.because("no queen can move", game, pos, cells)
