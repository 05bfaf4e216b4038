"""Flip Four (RULES.md section 4): place reversible pieces or jump runs of them, flipping what you jump.

Positions are small tuples of ints: the two colours as 19-bit boards (tables in
engines/flipfour/board.py), the two hands, the side to move, the result the lines
have already decided, and the repetition history.  Moves are ints: a placement is
the mask of the points it fills, a movement ``MOVE_FLAG | origin << 5 | landing``.

Repetition, and what the AI must know about it
    A position for the repetition rule is (board, hands, player to move); its
    exact value is ``position_key`` (a 47-bit int, no collisions).  Hands only
    ever shrink, so no position from before a placement can appear after it: the
    history a position carries is just the keys since the last placement (the
    start position included), which keeps it short and makes a placement reset it.
    A move whose successor has already appeared twice is left out of
    ``legal_moves``; when that removes every move, the player to move loses.

    ``key`` (for transposition tables) is ``position_key`` itself right after a
    placement, where the history cannot matter; otherwise it also hashes the
    multiset of positions since the last placement, since those decide which
    moves stay legal.  A table keyed by ``key`` is therefore sound (up to
    hash collisions).  A search that
    prefers more transpositions may key on ``position_key`` during movement
    phases, but must then accept that a stored value may ignore a repetition that
    forbids a move on the current path (the classic graph-history problem);
    ``appearances`` tells how often the current position has been seen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from engines.flipfour.board import (
    FLIPS,
    FULL,
    GEOMETRY,
    JUMPS,
    MOVE_FLAG,
    NAMES,
    POINTS,
    judge_turn,
    movement,
    movement_ends,
    parse_diagram,
    points_of,
)
from engines.flipfour.table import PIECE as PIECE_KIND
from engines.flipfour.table import FlipFourTable
from engines.game import Game, MoveError, Outcome, quoted
from engines.physical import Thing

PIECES_EACH = 8

# position_key layout: red | yellow << 19 | hand0 << 38 | hand1 << 42 | to_move << 46
YELLOW_SHIFT = POINTS
HAND0_SHIFT = 2 * POINTS
HAND1_SHIFT = HAND0_SHIFT + 4
TO_MOVE_SHIFT = HAND1_SHIFT + 4


class Position(NamedTuple):
    """One Flip Four position; build them with ``FlipFour.start``, ``play`` or ``from_diagram``."""

    red: int  # points showing red, player 0's colour
    yellow: int  # points showing yellow, player 1's colour
    hand0: int
    hand1: int
    to_move: int
    winner: int | None  # decided by the lines after the last turn; None: play on (unless no legal move)
    history: tuple[int, ...]  # position keys since the last placement, oldest first, this position last
    twice: tuple[int, ...]  # keys that appear twice in history: reaching one again is not legal


# Builds a Position from its fields in order, three times faster than Position(...) (no keyword handling).
_new_position = tuple.__new__


def pack_key(red: int, yellow: int, hand0: int, hand1: int, to_move: int) -> int:
    return (
        red | yellow << YELLOW_SHIFT | hand0 << HAND0_SHIFT | hand1 << HAND1_SHIFT | to_move << TO_MOVE_SHIFT
    )


PIECE = ((Thing(PIECE_KIND.kind, 0),), (Thing(PIECE_KIND.kind, 1),))
POINT_LIST = "a3-a5, b2-b5, c1-c5, d1-d4, e1-e3"
SYNTAX = "expected a placement like 'c3' or 'b2,d4', or a move like 'c3-c5'"


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class FlipFour(Game[Position, int]):
    id = "flipfour"
    name = "Flip Four"
    default_board = "flipfour-hall"  # Hall: polarity (and levels) check what reed switches cannot
    geometry = GEOMETRY
    table = FlipFourTable()
    ai_policy = "engines.flipfour.policy:FlipFourPolicy"

    # --- the position --------------------------------------------------------------
    def start(self) -> Position:
        key = pack_key(0, 0, PIECES_EACH, PIECES_EACH, 0)
        return Position(0, 0, PIECES_EACH, PIECES_EACH, 0, None, (key,), ())

    @staticmethod
    def from_diagram(diagram: str, to_move: int, hands: tuple[int, int]) -> Position:
        """A position from a board drawing (see flipfour_board.parse_diagram), for tests and analysis.

        ``hands`` is (player 0's pieces in hand, player 1's); with the pieces on
        the board they must make 16.  The position counts as appearing once, as
        the start of a game does, and the lines are judged as after the turn of
        the player not to move.
        """
        red, yellow = parse_diagram(diagram)
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 or 1, not {to_move!r}")
        if len(hands) != 2 or any(not 0 <= h <= PIECES_EACH for h in hands):
            raise ValueError(f"hands must be two counts from 0 to {PIECES_EACH}, not {hands!r}")
        on_board = (red | yellow).bit_count()
        if on_board + hands[0] + hands[1] != 2 * PIECES_EACH:
            raise ValueError(
                f"{on_board} pieces on the board and {hands[0]} + {hands[1]} in hand make "
                f"{on_board + hands[0] + hands[1]}, not {2 * PIECES_EACH}"
            )
        key = pack_key(red, yellow, hands[0], hands[1], to_move)
        winner = judge_turn(red, yellow, 1 - to_move)
        return Position(red, yellow, hands[0], hands[1], to_move, winner, (key,), ())

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def legal_moves(self, pos: Position) -> list[int]:
        if pos.winner is not None:
            return []
        me = pos.to_move
        occupied = pos.red | pos.yellow
        moves = _movements(pos.yellow if me else pos.red, occupied)
        if pos.twice:
            moves = [m for m in moves if _successor_key(pos, m) not in pos.twice]
        hand = pos.hand1 if me else pos.hand0
        if hand:
            free = points_of(FULL ^ occupied)
            singles = [1 << p for p in free]
            moves.extend(singles)
            first_turn = me == 0 and hand == PIECES_EACH
            if hand >= 2 and not first_turn:
                moves.extend([a | b for i, a in enumerate(singles) for b in singles[i + 1 :]])
        return moves

    def play(self, pos: Position, move: int) -> Position:
        red, yellow, hand0, hand1, me, _, history, twice = pos
        if move < MOVE_FLAG:
            placed = 1 if move & (move - 1) == 0 else 2
            if me:
                yellow |= move
                hand1 -= placed
            else:
                red |= move
                hand0 -= placed
            key = pack_key(red, yellow, hand0, hand1, 1 - me)
            history, twice = (key,), ()
        else:
            jumped, moved = FLIPS[move ^ MOVE_FLAG]
            if me:
                red ^= jumped
                yellow ^= moved
            else:
                red ^= moved
                yellow ^= jumped
            key = pack_key(red, yellow, hand0, hand1, 1 - me)
            if key in history:
                twice = (*twice, key)
            history = (*history, key)
        winner = judge_turn(red, yellow, me)
        return _new_position(Position, (red, yellow, hand0, hand1, 1 - me, winner, history, twice))

    def outcome(self, pos: Position) -> Outcome | None:
        if pos.winner is not None:
            return Outcome(pos.winner)
        if pos.hand1 if pos.to_move else pos.hand0:
            return None  # 16 pieces never fill 19 points, and a placement never repeats a position
        if self.legal_moves(pos):
            return None
        return Outcome(1 - pos.to_move)

    def key(self, pos: Position) -> int:
        """position_key after a placement; else mixed with the positions since it (see the module doc)."""
        history = pos.history
        if len(history) == 1:
            return history[0]
        return hash((history[-1], *sorted(history[:-1])))

    @staticmethod
    def position_key(pos: Position) -> int:
        """The exact (board, hands, player to move) that the repetition rule compares."""
        return pos.history[-1]

    @staticmethod
    def appearances(pos: Position) -> int:
        """How many times this position has appeared in the game so far (1 or 2)."""
        return pos.history.count(pos.history[-1])

    # --- text at the edges ----------------------------------------------------------
    def format_move(self, pos: Position, move: int) -> str:
        if move < MOVE_FLAG:
            return ",".join(sorted(NAMES[p] for p in points_of(move)))
        origin, landing = movement_ends(move)
        return f"{NAMES[origin]}-{NAMES[landing]}"

    def normalise_move_text(self, text: str) -> str:
        canonical = text.strip().lower()
        if not canonical:
            raise MoveError(f"empty move text: {SYNTAX}")
        if canonical == "pass":
            raise MoveError("'pass': Flip Four has no passing (a player with no legal move loses)")
        if "-" in canonical:
            if "," in canonical:
                raise MoveError(f"a turn either places pieces or moves one; {SYNTAX}")
            parts = [part.strip() for part in canonical.split("-")]
            if len(parts) != 2:
                raise MoveError("a move names two points, 'from-to'")
            origin, landing = (_check_point(text, part) for part in parts)
            if origin == landing:
                raise MoveError("a move must land on another point than it starts from")
            return f"{origin}-{landing}"
        parts = [part.strip() for part in canonical.split(",")]
        if len(parts) > 2:
            raise MoveError("at most two pieces are placed in one turn")
        names = sorted(_check_point(text, part) for part in parts)
        if len(names) == 2 and names[0] == names[1]:
            raise MoveError(f"{names[0]} is named twice")
        return ",".join(names)

    def parse_move(self, pos: Position, text: str) -> int:
        """The legal move written ``text``, built from the text instead of formatting every legal move."""
        canonical = self.normalise_move_text(text)
        if "-" in canonical:
            origin, landing = (GEOMETRY.index[name] for name in canonical.split("-"))
            move = movement(origin, landing)
        else:
            move = sum(1 << GEOMETRY.index[name] for name in canonical.split(","))
        moves = self.legal_moves(pos)
        if not moves:
            raise MoveError("not legal: the game is over")
        if move in moves:
            return move
        raise MoveError(f"not legal here: {self.why_illegal(pos, canonical)}")

    def why_illegal(self, pos: Position, canonical: str) -> str:
        if self.is_over(pos):
            return "the game is over"
        me = pos.to_move
        occupied = pos.red | pos.yellow
        if "-" not in canonical:
            names = canonical.split(",")
            hand = pos.hand1 if me else pos.hand0
            if hand == 0:
                return f"player {me} has no pieces left in hand"
            if len(names) == 2 and hand == 1:
                return f"player {me} has only one piece left in hand"
            if len(names) == 2 and me == 0 and hand == PIECES_EACH:
                return "the first turn of the game places exactly one piece"
            taken = [name for name in names if occupied >> GEOMETRY.index[name] & 1]
            if taken:
                return f"{' and '.join(taken)} {'is' if len(taken) == 1 else 'are'} not empty"
            return "no legal placement has that text"
        start, end = canonical.split("-")
        origin, landing = GEOMETRY.index[start], GEOMETRY.index[end]
        mine = pos.yellow if me else pos.red
        if not occupied >> origin & 1:
            return f"there is no piece on {start}"
        if not mine >> origin & 1:
            return f"the piece on {start} shows player {1 - me}'s colour"
        for direction in range(len(GEOMETRY.directions)):
            ray = GEOMETRY.ray(origin, direction)
            if landing not in ray:
                continue
            if not occupied >> ray[0] & 1:
                return f"the next point from {start} towards {end} is empty: a move must jump a piece"
            empty = [p for p in ray if not occupied >> p & 1]
            if not empty:
                return f"the run from {start} towards {end} reaches the edge of the board"
            if empty[0] != landing:
                return f"the jump from {start} in that direction lands on {NAMES[empty[0]]}"
            return "it would make a position appear for the third time"
        return f"{end} is not on a line through {start}"

    # --- the physical board -------------------------------------------------------------
    def cells(self, pos: Position) -> Mapping[str, tuple[Thing, ...]]:
        red, yellow = pos.red, pos.yellow
        return {
            name: PIECE[0] if red >> i & 1 else PIECE[1] if yellow >> i & 1 else ()
            for i, name in enumerate(NAMES)
        }

    def changed_cells(self, pos: Position, move: int) -> tuple[int, ...]:
        """The placed points, or a jump's two points and the points it turns over."""
        if move < MOVE_FLAG:
            bits = move
        else:
            jumped, moved = FLIPS[move ^ MOVE_FLAG]
            bits = jumped | moved
        cells = []
        while bits:
            low = bits & -bits
            cells.append(low.bit_length() - 1)
            bits ^= low
        return tuple(cells)

    def changes(self, pos: Position, move: int) -> Mapping[int, tuple[Thing, ...]]:
        after = self.play(pos, move)
        return {
            cell: PIECE[0] if after.red >> cell & 1 else PIECE[1] if after.yellow >> cell & 1 else ()
            for cell in self.changed_cells(pos, move)
        }

    def hands(self, pos: Position) -> Mapping[int, Mapping[str, int]]:
        return {0: {"piece": pos.hand0}, 1: {"piece": pos.hand1}}


def _check_point(text: str, part: str) -> str:
    if not part:
        raise MoveError(f"a point is missing; {SYNTAX}")
    if part not in GEOMETRY.index:
        raise MoveError(f"no point {quoted(part)} on this board (points: {POINT_LIST})")
    return part


def _movements(mine: int, occupied: int) -> list[int]:
    """Every jump by a piece in ``mine``, before the repetition rule."""
    moves: list[int] = []
    while mine:
        low = mine & -mine
        mine ^= low
        for first, landings in JUMPS[low.bit_length() - 1]:
            if occupied & first:
                for landing_bit, move in landings:
                    if not occupied & landing_bit:
                        moves.append(move)
                        break
    return moves


def _successor_key(pos: Position, move: int) -> int:
    """position_key after the movement ``move`` (placements never repeat, so never asked)."""
    jumped, moved = FLIPS[move ^ MOVE_FLAG]
    if pos.to_move:
        red, yellow = pos.red ^ jumped, pos.yellow ^ moved
    else:
        red, yellow = pos.red ^ moved, pos.yellow ^ jumped
    return pack_key(red, yellow, pos.hand0, pos.hand1, 1 - pos.to_move)
