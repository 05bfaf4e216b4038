"""The Amazons (engines/amazons/RULES.md): move an amazon like a chess queen, then shoot an arrow from it.

A position is the two sides' amazons and the arrows as bitboards
(engines/amazons/board.py), so that a position is three ints and the side to
move, cheap to copy, compare and hash.  A move is one int packing the whole
turn, ``from | to << 7 | arrow << 14``: a position has up to some 2,200 of
them, and the move tracker, the search and the reference check all handle
every one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from engines.amazons.board import BEFORE, GEOMETRY, NAMES, RAY_TABLE, SIZE, can_step, reach, reach_count
from engines.amazons.table import AMAZON, ARROW, AmazonsTable
from engines.bits import cells_of
from engines.game import Game, MoveError, Outcome
from engines.physical import Thing
from engines.render import render_cells

WHITE, BLACK = 0, 1
# OpenSpiel's amazons: player 0 on a4 d1 g1 j4 moves first, player 1 on a7 d10 g10 j7.
START_AMAZONS = (("a4", "d1", "g1", "j4"), ("a7", "d10", "g10", "j7"))

CELL = 0x7F
TO, ARROW_AT = 7, 14

# ARROW_PARTS[cell]: for each ray of RAY_TABLE[cell], the arrow halves (``arrow << 14``) along it.
ARROW_PARTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(c << ARROW_AT for c in squares) for _, _, squares in RAY_TABLE[cell]) for cell in range(SIZE)
)


def encode(origin: int, dest: int, arrow: int) -> int:
    return origin | dest << TO | arrow << ARROW_AT


def decode(move: int) -> tuple[int, int, int]:
    """(from, to, arrow) of a move."""
    return move & CELL, (move >> TO) & CELL, move >> ARROW_AT


class Position(NamedTuple):
    """An immutable Amazons position: each side's amazons and the arrows as bitboards, and who moves."""

    amazons: tuple[int, int]
    arrows: int
    to_move: int

    @property
    def occupied(self) -> int:
        return self.amazons[0] | self.amazons[1] | self.arrows


CELL_RE = r"[a-j](?:10|[1-9])"
MOVE_RE = re.compile(rf"^({CELL_RE})-({CELL_RE})/({CELL_RE})$")
LOOSE_CELL_RE = re.compile(r"^[a-z]+\d+$")


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class Amazons(Game[Position, int]):
    id = "amazons"
    name = "Amazons"
    default_board = "amazons-hall"  # Hall: polarity (and levels) check what reed switches cannot
    geometry = GEOMETRY
    table = AmazonsTable()
    ai_policy = "engines.amazons.policy:AmazonsPolicy"
    sgf = "engines.amazons.sgf:AmazonsSgf"

    def start(self) -> Position:
        amazons = tuple(sum(1 << GEOMETRY.cell(name) for name in names) for names in START_AMAZONS)
        return Position((amazons[0], amazons[1]), 0, WHITE)

    @staticmethod
    def from_diagram(diagram: str, to_move: int = WHITE) -> Position:
        """A position from ten text rows, rank 10 first: ``.`` empty, ``W``/``B`` amazons, ``x`` arrows.

        For tests and analysis; spaces are ignored.
        """
        rows = [row.replace(" ", "") for row in diagram.strip().splitlines()]
        if len(rows) != 10 or any(len(row) != 10 for row in rows):
            raise ValueError("an Amazons diagram has 10 rows of 10 squares")
        boards = {"W": 0, "B": 0, "x": 0}
        for r, row in enumerate(reversed(rows)):
            for q, ch in enumerate(row):
                if ch in boards:
                    boards[ch] |= 1 << (r * 10 + q)
                elif ch != ".":
                    raise ValueError(f"unknown square {ch!r} in diagram")
        return Position((boards["W"], boards["B"]), boards["x"], to_move)

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def legal_moves(self, pos: Position) -> list[int]:
        occupied = pos.occupied
        moves: list[int] = []
        for origin in cells_of(pos.amazons[pos.to_move]):
            left = occupied ^ 1 << origin
            for dest in reach(origin, left):
                base = origin | dest << TO
                landed = left | 1 << dest
                before = BEFORE[dest]
                for (mask, ascending, _), parts in zip(RAY_TABLE[dest], ARROW_PARTS[dest], strict=True):
                    block = landed & mask
                    if block:
                        parts = parts[: before[(block & -block if ascending else block).bit_length() - 1]]
                    moves.extend(map(base.__or__, parts))
        return moves

    def count_moves(self, pos: Position) -> int:
        occupied = pos.occupied
        n = 0
        for origin in cells_of(pos.amazons[pos.to_move]):
            left = occupied ^ 1 << origin
            for dest in reach(origin, left):
                n += reach_count(dest, left | 1 << dest)
        return n

    def play(self, pos: Position, move: int) -> Position:
        me = pos.to_move
        origin, dest, arrow = decode(move)
        moved = pos.amazons[me] ^ (1 << origin | 1 << dest)
        amazons = (moved, pos.amazons[1]) if me == WHITE else (pos.amazons[0], moved)
        return Position(amazons, pos.arrows | 1 << arrow, 1 - me)

    def outcome(self, pos: Position) -> Outcome | None:
        """The side to move loses when it has no legal turn; nothing else ends the game (no draws)."""
        if can_step(pos.amazons[pos.to_move], pos.occupied):
            return None
        return Outcome(1 - pos.to_move)

    def key(self, pos: Position) -> int:
        return hash(pos)

    # --- notation ------------------------------------------------------------------
    def format_move(self, pos: Position, move: int) -> str:
        origin, dest, arrow = decode(move)
        return f"{NAMES[origin]}-{NAMES[dest]}/{NAMES[arrow]}"

    def normalise_move_text(self, text: str) -> str:
        canonical = text.strip().lower()
        if MOVE_RE.match(canonical):
            return canonical
        for part in re.split(r"[-/]", canonical):
            if LOOSE_CELL_RE.match(part) and part not in GEOMETRY.index:
                raise MoveError(f"no square {part!r} on the 10x10 board (a1..j10)")
        raise MoveError("expected 'from-to/arrow', such as d1-d7/g7")

    def parse_move(self, pos: Position, text: str) -> int:
        """Read the three squares and check that turn alone (a position has thousands of turns)."""
        canonical = self.normalise_move_text(text)
        if self.outcome(pos) is not None:
            raise MoveError("not legal: the game is over")
        m = MOVE_RE.match(canonical)
        assert m is not None
        origin, dest, arrow = (GEOMETRY.index[m.group(i)] for i in (1, 2, 3))
        if pos.amazons[pos.to_move] >> origin & 1:
            left = pos.occupied ^ 1 << origin
            if dest in reach(origin, left) and arrow in reach(dest, left | 1 << dest):
                return encode(origin, dest, arrow)
        raise MoveError(f"not legal here: {self.why_illegal(pos, canonical)}")

    def why_illegal(self, pos: Position, canonical: str) -> str:
        m = MOVE_RE.match(canonical)
        if m is None:
            return "no legal move has that text"
        origin, dest = GEOMETRY.index[m.group(1)], GEOMETRY.index[m.group(2)]
        if not pos.amazons[pos.to_move] >> origin & 1:
            return f"no {self.table.side(pos.to_move)} amazon on {m.group(1)}"
        left = pos.occupied ^ 1 << origin
        if dest not in reach(origin, left):
            return f"the amazon on {m.group(1)} cannot reach {m.group(2)}"
        return f"an arrow from {m.group(2)} cannot reach {m.group(3)}"

    # --- the physical board -------------------------------------------------------------
    def cells(self, pos: Position) -> Mapping[str, tuple[Thing, ...]]:
        white, black = pos.amazons
        arrows = pos.arrows
        out: dict[str, tuple[Thing, ...]] = {}
        for cell, name in enumerate(NAMES):
            bit = 1 << cell
            if white & bit:
                out[name] = THINGS[1]
            elif black & bit:
                out[name] = THINGS[2]
            elif arrows & bit:
                out[name] = THINGS[3]
            else:
                out[name] = THINGS[0]
        return out

    def render(self, pos: Position) -> str:
        """The board as ``from_diagram`` reads it: ``W``/``B`` amazons, ``x`` arrows."""
        return render_cells(GEOMETRY, self.cells(pos), _glyph)

    def changed_cells(self, pos: Position, move: int) -> tuple[int, ...]:
        """From the move alone: the amazon's two squares and the arrow's (which may be the one it left).
        Decoded inline: the tracker asks this of every legal move after each commit."""
        origin, dest, arrow = move & CELL, (move >> TO) & CELL, move >> ARROW_AT
        return (origin, dest) if arrow == origin else (origin, dest, arrow)

    def changes(self, pos: Position, move: int) -> Mapping[int, tuple[Thing, ...]]:
        """From the move alone, without playing it: the tracker asks this of hundreds of moves a reading.
        The arrow is written last: shot back onto the square the amazon left, it is what that square holds."""
        origin, dest, arrow = move & CELL, (move >> TO) & CELL, move >> ARROW_AT
        return {origin: THINGS[0], dest: THINGS[1 + pos.to_move], arrow: THINGS[3]}


THINGS: tuple[tuple[Thing, ...], ...] = (
    (),
    (Thing(AMAZON.kind, WHITE),),
    (Thing(AMAZON.kind, BLACK),),
    (Thing(ARROW.kind),),
)
GLYPHS = dict(zip(THINGS, ".WBx", strict=True))


def _glyph(things: tuple[Thing, ...]) -> str:
    return GLYPHS[things]
