"""Go 7x7 in the Go Text Protocol: a point is its name in capitals (GTP's columns A-G, rows 1-7 from
Black's side, as ours), the rules those of rules.md - area scoring with 7.5 komi, nothing taken off as dead.

A position carries every board seen so far (for the repetition rule), and
that is enough to tell an engine the whole game: each board after the start
adds exactly the stone placed (captures only take stones off), and two stones
of one colour in a row mean the other side passed between them.
"""

from __future__ import annotations

from engines.go7.board import FULL, KOMI, NAMES, PASS, SIDE
from engines.go7.rules import WHITE_SHIFT, Go7, Position
from engines.gtp import GtpFacts


class Go7Gtp(GtpFacts[Position, int]):
    boardsize = SIDE
    komi = KOMI
    rules = "chinese"  # KGS's name for area scoring
    capture_all_dead = True  # Tromp-Taylor: a dead stone counts as it stands until it is captured

    def __init__(self, game: Go7) -> None:
        super().__init__(game)

    def vertex(self, move: int) -> str:
        return "pass" if move == PASS else NAMES[move].upper()

    def history(self, pos: Position) -> list[int]:
        moves: list[int] = []
        colour = 1  # the colour of the last stone placed: as if White had just moved before the start
        black = white = 0
        for key in pos.seen[1:]:
            now_black, now_white = key & FULL, key >> WHITE_SHIFT
            placed_black = now_black & ~black
            placed = placed_black or now_white & ~white
            mover = 0 if placed_black else 1
            if mover == colour:
                moves.append(PASS)  # the other side passed in between
            moves.append(placed.bit_length() - 1)
            colour, black, white = mover, now_black, now_white
        if pos.to_move == colour:
            moves.append(PASS)
        return moves
