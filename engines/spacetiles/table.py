"""Space Tiles at the table: shared tiles from a supply, each player's pieces on them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from engines.physical import Thing
from engines.table import SHARED, Drawing, Ending, GameView, Look, Noun, ObjectKind, Role, Table, runs

TILE = ObjectKind(
    "tile",
    Role.NEUTRAL,
    Noun("tile", "tiles"),
    Look("hex", 0.52, fills=("#5b7a99",), edges=("#2c3e50",)),
    held=Noun("tile in supply", "tiles in supply"),
)
PIECE = ObjectKind(
    "piece",
    Role.OWNED,
    Noun("piece", "pieces"),
    Look("disc", 0.3, fills=("#f08a24", "#7b4bc4")),
    held=Noun("piece in hand", "pieces in hand"),
)


def showing(stacks: Mapping[str, Sequence[Thing]], side: int) -> set[str]:
    return {c for c, s in stacks.items() if s and s[-1].kind == PIECE.kind and s[-1].colour == side}


class SpaceTilesTable(Table):
    sides = ("Orange", "Violet")
    side_colours = ("#f08a24", "#7b4bc4")
    objects = (TILE, PIECE)
    ground = frozenset({TILE.kind})
    cell = Noun("cell", "cells")
    drawing = Drawing("hex")
    notation = "c2:e3-e4 or g3:d3,f2"
    said_symbols: ClassVar[Mapping[str, str]] = {":": " tile, then ", "-": " to ", ",": " and "}
    # RULES.md: the tile's neighbouring tiles (n) decide the rest of the turn.
    turn = (
        "place a tile, then move one of your pieces one step if the tile touches one tile, or else place "
        "one piece fewer than the tiles it touches"
    )

    def turn_words(self, game: GameView, pos: Any) -> str:
        """The turn as far as it can be made now (RULES.md: a tile whose step 2 cannot be done in full is
        not legal): the first turn has no piece to move, so its tile touches two tiles or more."""
        actions = {text.split(":", 1)[1] for text in game.legal_texts(pos)}
        moving = any("-" in action for action in actions)
        placing = any("-" not in action for action in actions)
        if moving and not placing:
            return "place a tile that touches one tile, then move one of your pieces one step"
        if placing and not moving:
            return (
                "place a tile that touches two tiles or more, then place one piece fewer than the tiles it "
                "touches"
            )
        return super().turn_words(game, pos)

    endings: ClassVar[Mapping[str, str]] = {
        "a run of 6 or more": "{mover} made a run of {length} pieces in a row, and loses.",
        "a run of 4 of one's own": "{mover} made a run of {length} {mover} pieces, and wins.",
        "a run of exactly 5": "{mover} made a run of exactly 5 pieces, and wins.",
        "the supply is empty": "The tile supply is empty: {other} has no turn, and loses.",
        "no legal turn": "{other} has no legal turn (no tile placed anywhere lets {other} finish it), "
        "and loses.",
    }
    never: ClassVar[Mapping[str, str]] = {
        "confirm": "the tile's neighbours fix how many pieces a turn places, so no whole turn is the "
        "beginning of another",
        "the supply is empty": "random play never gets there: some run ends every game before the 31 tiles "
        "of the supply are placed (tests/session/test_outcome.py builds such a position)",
        "no legal turn": "random play never gets there (tests/session/test_outcome.py builds such a "
        "position)",
    }

    def ending(self, game: GameView, pos: Any) -> Ending:
        """RULES.md section 2: runs judged for the player who just moved, else no legal turn."""
        outcome = game.outcome(pos)
        assert outcome is not None
        stacks = game.cells(pos)
        to_move = game.to_move(pos)
        mover = 1 - to_move
        pieces = {c for c, s in stacks.items() if s and s[-1].kind == PIECE.kind}
        names = {"mover": self.side(mover), "other": self.side(to_move)}
        if outcome.winner == to_move:
            sixes = runs(game, pieces, 6)
            cells = frozenset(c for r in sixes for c in r)
            longest = max(map(len, sixes), default=6)
            return self.because("a run of 6 or more", game, pos, cells, length=str(longest), **names)
        own = runs(game, showing(stacks, mover), 4)
        if own:
            return self.because(
                "a run of 4 of one's own", game, pos, own[0], length=str(len(own[0])), **names
            )
        fives = [r for r in runs(game, pieces, 5) if len(r) == 5]
        if fives:
            return self.because("a run of exactly 5", game, pos, fives[0], **names)
        if not game.hands(pos).get(SHARED, {}).get(TILE.kind, 0):
            return self.because("the supply is empty", game, pos, **names)
        geometry = game.geometry
        frontier = frozenset(
            cell
            for cell, stack in stacks.items()
            if not stack and any(stacks[geometry.names[n]] for n in geometry.neighbours(geometry.index[cell]))
        )
        return self.because("no legal turn", game, pos, frontier, **names)
