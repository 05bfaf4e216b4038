"""Desdemona for the search as half-moves on bitboards: the queen move, then the shot or capture.

A whole turn has some 2,000 variants mid-game, and alpha-beta can refute a
turn only after generating and ordering all of them.  Split in two, a node
offers some 80 queen moves and then some 25 shots, so a refutation costs one
queen move's shots, and the history of cut-offs orders both halves.  The
model's position is a tuple of ints (queens and stones of each side as
bitboards, see engines/desdemona/bits.py), cheap to make and to hash.

Half-moves use the game's move encoding: a queen move is ``from | to << 7``
and the second half ``kind << 14 | target << 16``, so or-ing the two gives
the game's move (engines/desdemona/rules.py).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from engines.ai.halves import CutoffHistory
from engines.ai.policy import Policy, terminal_value
from engines.bits import cells_of
from engines.desdemona.bits import bitboard, evaluate_bits
from engines.desdemona.rules import (
    CAPTURE,
    GEOMETRY,
    PASS,
    QUEEN0,
    QUEEN1,
    RAYS,
    SHOT,
    SIZE,
    STONE0,
    STONE1,
    Position,
)
from engines.game import Outcome

# (queens 0, queens 1, stones 0, stones 1, to move, moved queen's square or -1, passes, first turn).
# Typed as a tuple of any length: compiled (mypyc), a fixed-length one would be unpacked into a C struct
# and packed into a new tuple again at every call through the search's generic interface.
Half = tuple[int, ...]
Q0, Q1, S0, S1, TO_MOVE, MOVED, PASSES, FIRST = range(8)
NOT_MOVED = -1

# BETWEEN[a][b]: the squares strictly between a and b on a line (0 where they share none).
BETWEEN = tuple(
    tuple(
        next(
            (sum(1 << c for c in ray[: ray.index(b)]) for ray in RAYS[a] if b in ray),
            0,
        )
        for b in range(SIZE)
    )
    for a in range(SIZE)
)
NEAR = tuple(sum(1 << n for n in GEOMETRY.neighbours(c)) for c in range(SIZE))


def _ray_table(cell: int) -> tuple[tuple[int, bool, tuple[int, ...], tuple[int, ...]], ...]:
    """For each ray from ``cell``: its squares as a bitboard, whether they ascend, and the half-moves
    ending on its squares, nearest first (queen moves from ``cell``, and shots from a queen there)."""
    return tuple(
        (
            sum(1 << c for c in ray),
            ray[0] > cell,
            tuple(cell | c << 7 for c in ray),
            tuple(SHOT << 14 | c << 16 for c in ray),
        )
        for ray in RAYS[cell]
    )


# RAY_TABLE[cell]: see _ray_table.  A ray's squares before its nearest occupied one are reachable:
# the nearest is the lowest set bit of the occupied squares on an ascending ray, the highest on the
# others, and it is GEOMETRY.distance squares away.
RAY_TABLE = tuple(_ray_table(c) for c in range(SIZE))
STEPS = tuple(tuple(GEOMETRY.distance(a, b) - 1 for b in range(SIZE)) for a in range(SIZE))
CAPTURE_PART = CAPTURE << 14
# Ordering weights of a second half: a capture by the stones it turns, a shot next to an enemy queen.
CAPTURE_GAIN = 20
HEMMING_GAIN = 3
HISTORY_BITS = 40


def from_position(pos: Position) -> Half:
    board = pos.board
    return (
        bitboard(board, QUEEN0),
        bitboard(board, QUEEN1),
        bitboard(board, STONE0),
        bitboard(board, STONE1),
        pos.to_move,
        NOT_MOVED,
        pos.passes,
        1 if pos.ply == 0 else 0,
    )


class DesdemonaHalves:
    """The rules of Desdemona (RULES.md section 3) with each turn as two moves of the same player."""

    def mid_turn(self, pos: Half) -> bool:
        return pos[MOVED] != NOT_MOVED

    def to_move(self, pos: Half) -> int:
        return pos[TO_MOVE]

    def key(self, pos: Half) -> int:
        return hash(pos)

    def outcome(self, pos: Half) -> Outcome | None:
        if pos[PASSES] < 2:
            return None
        black, white = pos[S0].bit_count(), pos[S1].bit_count()
        return Outcome(None if black == white else (0 if black > white else 1), (black, white))

    def legal_moves(self, pos: Half) -> list[int]:
        q0, q1, s0, s1, me, moved, passes, _ = pos
        if passes >= 2:
            return []
        occupied = q0 | q1 | s0 | s1
        moves: list[int] = []
        if moved == NOT_MOVED:
            for origin in cells_of(q1 if me else q0):
                for mask, ascending, queen_moves, _ in RAY_TABLE[origin]:
                    block = occupied & mask
                    if not block:
                        moves += queen_moves
                    elif ascending:
                        moves += queen_moves[: STEPS[origin][(block & -block).bit_length() - 1]]
                    else:
                        moves += queen_moves[: STEPS[origin][block.bit_length() - 1]]
            return moves or [PASS]
        steps = STEPS[moved]
        for mask, ascending, _, shots in RAY_TABLE[moved]:
            block = occupied & mask
            if not block:
                moves += shots
            elif ascending:
                moves += shots[: steps[(block & -block).bit_length() - 1]]
            else:
                moves += shots[: steps[block.bit_length() - 1]]
        theirs = s0 if me else s1
        for ray in RAYS[moved]:
            if not theirs >> ray[0] & 1:
                continue
            for c in ray[1:]:
                if theirs >> c & 1:
                    continue
                if not occupied >> c & 1:
                    moves.append(CAPTURE_PART | c << 16)
                break
        return moves

    def play(self, pos: Half, move: int) -> Half:
        q0, q1, s0, s1, me, moved, passes, first = pos
        if move == PASS:
            return (q0, q1, s0, s1, 1 - me, NOT_MOVED, passes + 1, first)
        if moved == NOT_MOVED:
            jump = 1 << (move & 0x7F) | 1 << (move >> 7)
            if me:
                q1 ^= jump
            else:
                q0 ^= jump
            if first:
                return (q0, q1, s0, s1, 1 - me, NOT_MOVED, 0, 0)
            return (q0, q1, s0, s1, me, move >> 7, 0, 0)
        target = move >> 16
        if move & CAPTURE_PART:
            turned = BETWEEN[moved][target]
            if me:
                s1 |= turned | 1 << target
                s0 &= ~turned
            else:
                s0 |= turned | 1 << target
                s1 &= ~turned
        elif me:
            s0 |= 1 << target
        else:
            s1 |= 1 << target
        return (q0, q1, s0, s1, 1 - me, NOT_MOVED, 0, 0)


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class DesdemonaHalvesPolicy(Policy[Half, int]):
    """The Desdemona policy's evaluation on half-move positions, and ordering by the history of cut-offs.

    Queen moves come in the order of their history (engines/ai/halves.py), killers first; second halves
    by what they take or hem in, then by history.
    """

    algorithm = "alphabeta"
    order_frontier = True

    def __init__(
        self, rules: DesdemonaHalves, weights: tuple[float, float, float, float], root: Half
    ) -> None:
        super().__init__(rules)
        self.weights = weights
        self.root = root
        self.history = CutoffHistory()

    def result(self, pos: Half) -> float | None:
        return terminal_value(self.game, pos) if pos[PASSES] >= 2 else None

    def evaluate(self, pos: Half) -> float:
        return evaluate_bits((pos[Q0], pos[Q1]), (pos[S0], pos[S1]), pos[TO_MOVE], self.weights)

    def _order_root(self, pos: Half, moves: list[int]) -> list[int]:
        """The searched position's queen moves by the longest capture they allow, then by the evaluation
        after them: a search stopped in its first iteration has then tried the likeliest turns.

        Costs a second-half generation and an evaluation per queen move, so only at the root.
        """
        rules = self.game
        me = pos[TO_MOVE]

        def promise(move: int) -> tuple[int, float]:
            after = rules.play(pos, move)
            if after[TO_MOVE] != me:  # the first move of the game, or a pass: the turn is over
                return (0, -self.evaluate(after))
            moved = after[MOVED]
            longest = max(
                (GEOMETRY.distance(moved, m >> 16) for m in rules.legal_moves(after) if m & CAPTURE_PART),
                default=0,
            )
            return (longest, self.evaluate(after))

        return sorted(moves, key=promise, reverse=True)

    def cutoff(self, pos: Half, move: int, depth: int) -> None:
        self.history.cutoff(pos[TO_MOVE], move, depth, pos[MOVED] == NOT_MOVED)

    def order(self, pos: Half, moves: list[int]) -> list[int]:
        if len(moves) < 2:
            return moves
        if pos == self.root:
            return self._order_root(pos, moves)
        side = pos[TO_MOVE]
        moved = pos[MOVED]
        if moved == NOT_MOVED:
            return self.history.first_halves(side, moves)
        history = self.history.counts[side]
        near_enemy = 0
        for cell in cells_of(pos[Q0] if side else pos[Q1]):
            near_enemy |= NEAR[cell]

        def gain(move: int) -> int:
            target = move >> 16
            if move & CAPTURE_PART:
                static = CAPTURE_GAIN * GEOMETRY.distance(moved, target)
            else:
                static = HEMMING_GAIN if near_enemy >> target & 1 else 0
            return static << HISTORY_BITS | history[move]

        return sorted(moves, key=gain, reverse=True)
