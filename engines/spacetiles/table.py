"""Space Tiles at the table: shared tiles from a supply, each player's pieces on them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
    cell = Noun("cell", "cells")
    drawing = Drawing("hex")
    notation = "c2:e3-e4 or g3:d3,f2"
    turn = "place a tile, then move or place your pieces"

    def ending(self, game: GameView, pos: Any) -> Ending:
        """RULES.md section 2: runs judged for the player who just moved, else no legal turn."""
        outcome = game.outcome(pos)
        assert outcome is not None
        stacks = game.cells(pos)
        to_move = game.to_move(pos)
        mover = 1 - to_move
        pieces = {c for c, s in stacks.items() if s and s[-1].kind == PIECE.kind}
        name, other = self.side(mover), self.side(to_move)
        if outcome.winner == to_move:
            sixes = runs(game, pieces, 6)
            cells = frozenset(c for r in sixes for c in r)
            longest = max(map(len, sixes), default=6)
            return Ending(f"{name} made a run of {longest} pieces in a row, and loses.", cells)
        own = runs(game, showing(stacks, mover), 4)
        if own:
            return Ending(
                f"{name} made a run of {len(own[0])} of its own pieces, and wins.", frozenset(own[0])
            )
        fives = [r for r in runs(game, pieces, 5) if len(r) == 5]
        if fives:
            return Ending(f"{name} made a run of exactly 5 pieces, and wins.", frozenset(fives[0]))
        if not game.hands(pos).get(SHARED, {}).get(TILE.kind, 0):
            return Ending(f"The tile supply is empty: {other} has no turn, and loses.")
        geometry = game.geometry
        frontier = frozenset(
            cell
            for cell, stack in stacks.items()
            if not stack and any(stacks[geometry.names[n]] for n in geometry.neighbours(geometry.index[cell]))
        )
        return Ending(
            f"{other} has no legal turn: no tile it can place lets it finish the turn, and loses.", frontier
        )
