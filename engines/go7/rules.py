"""Go on a 7x7 board, the rules of OpenSpiel's ``go`` (engines/go7/rules.md says them in words).

A position is two 49-bit boards (engines/go7/board.py), the side to move, the
ko point, the count of passes in a row, why the game ended, the last move and
every board seen so far: OpenSpiel ends a game in a draw as soon as a stone
recreates an earlier board, so that history decides the future and is part of
the position.  A move is an int: the point's index (0 = a1 ... 48 = g7), or
PASS (49) - the same numbers as OpenSpiel's actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from engines.bits import cells_of
from engines.game import Game, MoveError, Outcome, quoted
from engines.go7.board import (
    FULL,
    GEOMETRY,
    KOMI,
    NAMES,
    NEIGHBOUR_LISTS,
    NEIGHBOURS,
    NOT_FILE_A,
    NOT_FILE_G,
    PASS,
    POINTS,
    SIDE,
    area,
    group,
    spread,
)
from engines.go7.table import STONE as STONE_KIND
from engines.go7.table import Go7Table
from engines.physical import Thing
from engines.render import render_cells

NO_POINT = -1
# Why a game ended (``Position.over``).
PLAYING, TWO_PASSES, REPETITION = 0, 1, 2
WHITE_SHIFT = POINTS  # a board's key is black | white << 49

STONES = ((Thing(STONE_KIND.kind, 0),), (Thing(STONE_KIND.kind, 1),))
DIAGRAM_GLYPHS = {"x": 0, "o": 1}
SYNTAX = "a point a1..g7, or pass"
# A bowl holds as many stones as one colour can ever have on the board: every point but one (a stone
# on the last empty point would leave its colour's group without a liberty, and take nothing).
BOWL = POINTS - 1


class Position(NamedTuple):
    """One Go position; build them with ``Go7.start``, ``play`` or ``position_from_diagram``."""

    black: int
    white: int
    to_move: int  # 0 Black, 1 White
    ko: int  # the point the side to move may not play (a single stone just taken by a single stone), or -1
    passes: int  # passes in a row just before this position
    over: int  # PLAYING, TWO_PASSES or REPETITION
    last: int  # the move that made this position (a point, PASS, or -1 at the start)
    seen: tuple[int, ...]  # the key of every board so far, the start's first (passes add none)
    seen_hash: int  # a hash of ``seen`` as a set, kept as boards are added


# Builds a Position from its fields in order without the named tuple's keyword handling: ``play``'s hot path.
_new = tuple.__new__


def board_key(black: int, white: int) -> int:
    return black | white << WHITE_SHIFT


def _mix(key: int) -> int:
    """A board's share of ``seen_hash`` (exclusive-or of every seen board's)."""
    return hash((key, 0x60))


def position_from_diagram(diagram: str, to_move: int = 0, ko: str | None = None) -> Position:
    """A position from seven lines of seven points, rank 7 first: ``x`` Black, ``o`` White, ``.`` empty.

    Spaces are ignored.  The board is the only one seen so far (no history);
    ``ko`` names the point the side to move may not play.  For tests and
    analysis; ValueError says which line is wrong.
    """
    lines = [line.replace(" ", "") for line in diagram.strip().splitlines() if line.strip()]
    if len(lines) != SIDE or any(len(line) != SIDE for line in lines):
        raise ValueError(f"a Go 7x7 diagram has {SIDE} lines of {SIDE} points (x, o or .)")
    black = white = 0
    for row, line in enumerate(lines):
        rank = SIDE - 1 - row
        for file, glyph in enumerate(line):
            bit = 1 << (rank * SIDE + file)
            if glyph == "x":
                black |= bit
            elif glyph == "o":
                white |= bit
            elif glyph != ".":
                raise ValueError(f"diagram line {row + 1}: {glyph!r} is not x (Black), o (White) or .")
    if to_move not in (0, 1):
        raise ValueError("to_move is 0 (Black) or 1 (White)")
    ko_point = NO_POINT if ko is None else GEOMETRY.cell(ko)
    key = board_key(black, white)
    return Position(black, white, to_move, ko_point, 0, PLAYING, NO_POINT, (key,), _mix(key))


def diagram(pos: Position) -> str:
    """The board of ``pos`` in the notation of ``position_from_diagram``."""
    rows = []
    for rank in reversed(range(SIDE)):
        row = ""
        for file in range(SIDE):
            bit = 1 << (rank * SIDE + file)
            row += "x" if pos.black & bit else "o" if pos.white & bit else "."
        rows.append(row)
    return "\n".join(rows)


def place(mine: int, theirs: int, point: int) -> tuple[int, int, int]:
    """(mine, theirs, captured) after a stone of ``mine`` on the empty ``point``: enemy groups left
    without a liberty are taken off whole."""
    mine |= 1 << point
    empty = FULL & ~(mine | theirs)
    captured = 0
    for n in NEIGHBOUR_LISTS[point]:
        bit = 1 << n
        if theirs & bit and not captured & bit:
            chain = group(bit, theirs)
            if not spread(chain) & empty:
                captured |= chain
    return mine, theirs & ~captured, captured


def _surrounded_move_is_legal(mine: int, theirs: int, empty: int, point: int) -> bool:
    """Whether a stone on ``point``, whose neighbours are all stones, is legal: it joins a group of its
    colour that keeps another liberty, or it takes off an enemy group whose last liberty it fills."""
    bit = 1 << point
    for n in NEIGHBOUR_LISTS[point]:
        nb = 1 << n
        if mine & nb:
            if spread(group(nb, mine)) & empty & ~bit:
                return True
        elif theirs & nb and spread(group(nb, theirs)) & empty == bit:
            return True
    return False


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class Go7(Game[Position, int]):
    """Go on 7x7 points, as OpenSpiel's ``go`` with board_size 7 (komi 7.5, area scoring, no move cap)."""

    id = "go7"
    name = "Go 7x7"
    default_board = "go7-hall"  # Hall: polarity (and levels) check what reed switches cannot
    geometry = GEOMETRY
    table = Go7Table()
    ai_policy = "engines.go7.policy:Go7Policy"
    gtp = "engines.go7.gtp:Go7Gtp"
    sgf = "engines.go7.sgf:Go7Sgf"

    # --- the position --------------------------------------------------------------
    def start(self) -> Position:
        return Position(0, 0, 0, NO_POINT, 0, PLAYING, NO_POINT, (0,), _mix(0))

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def legal_moves(self, pos: Position) -> list[int]:
        """Every empty point but the ko point where the stone would have a liberty (after its captures),
        in point order, then the pass (always legal)."""
        if pos.over:
            return []
        mine, theirs = (pos.white, pos.black) if pos.to_move else (pos.black, pos.white)
        empty = FULL & ~(mine | theirs)
        # Empty points with an empty neighbour: a stone there always has a liberty.
        free = empty & (
            (empty << 1) & NOT_FILE_A | (empty >> 1) & NOT_FILE_G | (empty << SIDE) & FULL | empty >> SIDE
        )
        open_points = empty if pos.ko < 0 else empty & ~(1 << pos.ko)
        moves: list[int] = []
        for point in cells_of(open_points):
            if free >> point & 1 or _surrounded_move_is_legal(mine, theirs, empty, point):
                moves.append(point)
        moves.append(PASS)
        return moves

    def play(self, pos: Position, move: int) -> Position:
        if move == PASS:
            passes = pos.passes + 1
            over = TWO_PASSES if passes >= 2 else PLAYING
            return _new(
                Position,
                (
                    pos.black,
                    pos.white,
                    1 - pos.to_move,
                    NO_POINT,
                    passes,
                    over,
                    PASS,
                    pos.seen,
                    pos.seen_hash,
                ),
            )
        if pos.to_move:
            white, black, captured = place(pos.white, pos.black, move)
            theirs = pos.black
        else:
            black, white, captured = place(pos.black, pos.white, move)
            theirs = pos.white
        # A ko: the stone went into a point whose every neighbour was an enemy stone, and took one stone.
        ko = NO_POINT
        if captured and captured & (captured - 1) == 0 and NEIGHBOURS[move] & theirs == NEIGHBOURS[move]:
            ko = captured.bit_length() - 1
        key = board_key(black, white)
        if key in pos.seen:
            return _new(
                Position, (black, white, 1 - pos.to_move, ko, 0, REPETITION, move, pos.seen, pos.seen_hash)
            )
        return _new(
            Position,
            (
                black,
                white,
                1 - pos.to_move,
                ko,
                0,
                PLAYING,
                move,
                (*pos.seen, key),
                pos.seen_hash ^ _mix(key),
            ),
        )

    def outcome(self, pos: Position) -> Outcome | None:
        """Area scoring with komi after two passes (the half point rules out a tie); a repetition draws."""
        if not pos.over:
            return None
        black, white, _, _ = area(pos.black, pos.white)
        if pos.over == REPETITION:
            return Outcome(None, (black, white))
        return Outcome(0 if black - white - KOMI > 0 else 1, (black, white))

    def score(self, pos: Position) -> tuple[int, int]:
        """Each player's area now - stones and the empty points only they surround - without komi."""
        black, white, _, _ = area(pos.black, pos.white)
        return black, white

    def key(self, pos: Position) -> int:
        return hash((pos.black, pos.white, pos.to_move, pos.ko, pos.passes, pos.over, pos.seen_hash))

    # --- text at the edges ----------------------------------------------------------
    def format_move(self, pos: Position, move: int) -> str:
        return "pass" if move == PASS else NAMES[move]

    def normalise_move_text(self, text: str) -> str:
        canonical = text.strip().lower()
        if not canonical:
            raise MoveError(f"empty move text: expected {SYNTAX}")
        if canonical != "pass" and canonical not in GEOMETRY.index:
            raise MoveError(f"{quoted(text.strip())} is not a move: expected {SYNTAX}")
        return canonical

    def parse_move(self, pos: Position, text: str) -> int:
        """The legal move written ``text``, read from the text instead of formatting every legal move."""
        canonical = self.normalise_move_text(text)
        if pos.over:
            raise MoveError("not legal: the game is over")
        move = PASS if canonical == "pass" else GEOMETRY.index[canonical]
        if move in self.legal_moves(pos):
            return move
        raise MoveError(f"not legal here: {self.why_illegal(pos, canonical)}")

    def why_illegal(self, pos: Position, canonical: str) -> str:
        if pos.over:
            return "the game is over"
        point = GEOMETRY.index.get(canonical, NO_POINT)
        if point == NO_POINT:
            return "no legal move has that text"
        if (pos.black | pos.white) >> point & 1:
            return f"{canonical} is not empty"
        if point == pos.ko:
            return f"{canonical} is the ko: a single stone just taken there cannot be taken back at once"
        return f"a stone on {canonical} would have no liberty and take nothing (suicide is not allowed)"

    # --- the physical board ------------------------------------------------------------
    def cells(self, pos: Position) -> Mapping[str, tuple[Thing, ...]]:
        black, white = pos.black, pos.white
        return {
            name: STONES[0] if black >> i & 1 else STONES[1] if white >> i & 1 else ()
            for i, name in enumerate(NAMES)
        }

    def changed_cells(self, pos: Position, move: int) -> tuple[int, ...]:
        """The point played and every stone it takes off (a pass changes nothing)."""
        if move == PASS:
            return ()
        mine, theirs = (pos.white, pos.black) if pos.to_move else (pos.black, pos.white)
        _, _, captured = place(mine, theirs, move)
        return (move, *cells_of(captured))

    def changes(self, pos: Position, move: int) -> Mapping[int, tuple[Thing, ...]]:
        if move == PASS:
            return {}
        cells = self.changed_cells(pos, move)
        return {cells[0]: STONES[pos.to_move], **{cell: () for cell in cells[1:]}}

    def hands(self, pos: Position) -> Mapping[int, Mapping[str, int]]:
        """Each player's stones in the bowl: a bowl of BOWL, less their stones on the board."""
        return {
            0: {STONE_KIND.kind: BOWL - pos.black.bit_count()},
            1: {STONE_KIND.kind: BOWL - pos.white.bit_count()},
        }

    def render(self, pos: Position) -> str:
        board = render_cells(GEOMETRY, self.cells(pos))
        side = self.table.side(pos.to_move)
        ko = f"; ko at {NAMES[pos.ko]}" if pos.ko >= 0 else ""
        passed = "; the last move was a pass" if pos.last == PASS else ""
        black, white = self.score(pos)
        return f"{board}\n{side} to move{ko}{passed}; area Black {black}, White {white} + {KOMI:g} komi"
