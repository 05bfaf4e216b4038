"""The Amazons at the table: Desdemona's queens as the amazons, its stones as the arrows.

An arrow belongs to nobody, so it is one neutral kind of object whatever face
of the stone is up.  A reed switch feels the stone's magnet either way up; a
Hall sensor feels which pole is down, so the Hall builds ask for the arrows
black side up (north pole down, hardware/boards/amazons-hall.toml) and show a
stone the other way up as a mistake to turn over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.table import Drawing, Ending, GameView, Look, Noun, ObjectKind, Role, Table, owned_cells

FILLS = ("#f4f4f4", "#1d1d1d")  # White, Black
AMAZON = ObjectKind(
    "amazon",
    Role.OWNED,
    Noun("amazon", "amazons", "an"),
    Look("disc", 0.36, fills=FILLS, edges=("#555", "#111"), glyph="\u265b", glyph_inks=("#222", "#eee")),
)
ARROW = ObjectKind(
    "arrow",
    Role.NEUTRAL,
    Noun("arrow", "arrows", "an"),
    Look("disc", 0.26, fills=("#8e2b1f",), edges=("#3b0f08",)),
)


class AmazonsTable(Table):
    sides = ("White", "Black")
    side_colours = FILLS
    objects = (AMAZON, ARROW)
    cell = Noun("square", "squares")
    drawing = Drawing("square", checkered=("#b58d5a", "#d8b584"))
    notation = "d1-d7/g7 (the amazon from d1 to d7, its arrow to g7)"
    said_symbols: ClassVar[Mapping[str, str]] = {"-": " to ", "/": ", arrow on "}
    turn = "move an amazon, then shoot an arrow"
    never: ClassVar[Mapping[str, str]] = {
        "confirm": "no whole turn is the beginning of another: every turn is an amazon's move and its arrow",
    }

    def ending(self, game: GameView, pos: Any) -> Ending:
        """The side to move has no legal turn and loses; its walled-in amazons show it."""
        loser = game.to_move(pos)
        cells = owned_cells(game.cells(pos), AMAZON.kind, loser)
        return Ending(f"{self.side(loser)} has no legal turn, and loses.", cells)
