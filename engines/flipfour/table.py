"""Flip Four at the table: two-sided pieces placed from the hand and turned by the jumps over them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.physical import Thing
from engines.table import Drawing, Ending, GameView, Look, Noun, ObjectKind, Role, Table, runs

PIECE = ObjectKind(
    "piece",
    Role.REVERSIBLE,
    Noun("piece", "pieces"),
    Look("disc", 0.3, fills=("#d8262e", "#f2c230")),
    held=Noun("piece to place", "pieces to place"),
)


class FlipFourTable(Table):
    sides = ("Red", "Yellow")
    side_colours = ("#d8262e", "#f2c230")
    objects = (PIECE,)
    cell = Noun("point", "points")
    drawing = Drawing("point")
    notation = "c3, b2,d4 or c3-c5"
    turn = "place one or two pieces, or jump one of yours over a row of pieces"
    endings: ClassVar[Mapping[str, str]] = {
        "the mover's over-line": "{side} shows {line} (an over-line) after {side}'s own turn, and loses.",
        "the opponent's over-line": "{side} shows {line} (an over-line) after {mover}'s turn, and loses.",
        "a line of exactly 4": "{side} shows a line of exactly 4 at the start of {side}'s turn, and wins.",
        "no legal move": "{side} has no legal move, and loses.",
    }
    never: ClassVar[Mapping[str, str]] = {
        "choose": "every move fills or empties its own set of points, which even reed switches feel",
    }

    def turn_words(self, game: GameView, pos: Any) -> str:
        """One piece on the first turn and with one piece left; only jumps with none; no jump offered
        where none is legal (Yellow's first turn: no Yellow piece is on the board yet) (RULES.md)."""
        in_hand = game.hands(pos)[game.to_move(pos)].get(PIECE.kind, 0)
        if game.start() == pos:
            return "place one piece (the first turn places exactly one)"
        if in_hand == 0:
            return "jump one of your pieces over a row of pieces (you have none left to place)"
        place = "place your last piece" if in_hand == 1 else "place one or two pieces"
        jumps = any("-" in game.format_move(pos, move) for move in game.legal_moves(pos))
        return f"{place}, or jump one of yours over a row of pieces" if jumps else place

    def ending(self, game: GameView, pos: Any) -> Ending:
        """RULES.md section 4: the mover's over-line, then the opponent's, then a line of exactly 4."""
        stacks = game.cells(pos)
        to_move = game.to_move(pos)
        mover = 1 - to_move

        def showing(side: int) -> set[str]:
            return {c for c, s in stacks.items() if s and s[-1] == Thing(PIECE.kind, side)}

        def overline(side: int) -> tuple[str, list[tuple[str, ...]]] | None:
            found = runs(game, showing(side), 4)
            fives = [r for r in found if len(r) >= 5]
            fours: list[tuple[str, ...]] = [r for r in found if len(r) == 4]
            if fives:
                return f"a line of {len(fives[0])}", fives
            if len(fours) >= 2:
                return f"{len(fours)} lines of 4", fours
            return None

        for side, name in ((mover, "the mover's over-line"), (to_move, "the opponent's over-line")):
            over = overline(side)
            if over is not None:
                words, lines = over
                cells = frozenset(c for r in lines for c in r)
                return self.because(
                    name, game, pos, cells, side=self.side(side), line=words, mover=self.side(mover)
                )
        fours = [r for r in runs(game, showing(to_move), 4) if len(r) == 4]
        name = self.side(to_move)
        if fours:
            return self.because("a line of exactly 4", game, pos, fours[0], side=name)
        return self.because("no legal move", game, pos, showing(to_move), side=name)
