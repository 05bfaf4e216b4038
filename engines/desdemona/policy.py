"""Desdemona knowledge for the search: stones, and territory by queen distance.

Stones decide the result, so the evaluation starts from the stone difference.
Squares a side's queens reach in fewer queen moves than the other side's are
where that side will shoot and capture later (the Amazons territory idea), and
one-move mobility says how free the queens are; both are smaller terms.
"""

from __future__ import annotations

import random
from functools import partial

from mypy_extensions import mypyc_attr

from engines.ai.halves import whole_turns
from engines.ai.levels import Handicap
from engines.ai.policy import Policy, TurnSplit, terminal_value
from engines.desdemona.bits import bitboard, evaluate_bits
from engines.desdemona.rules import (
    CAPTURE,
    GEOMETRY,
    PASS,
    QUEEN,
    QUEEN0,
    QUEEN1,
    SIZE,
    STONE0,
    STONE1,
    Position,
)
from engines.desdemona.turns import DesdemonaHalves, DesdemonaHalvesPolicy, from_position

# Chebyshev distance between squares: a capture from ``to`` ending on ``t`` turns DIST - 1 stones.
DIST = tuple(tuple(GEOMETRY.distance(a, b) for b in range(SIZE)) for a in range(SIZE))
NEAR = tuple(frozenset(GEOMETRY.neighbours(c)) for c in range(SIZE))


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class DesdemonaPolicy(Policy[Position, int]):
    """Weights are class attributes so that a tuning match can try others (bench_ai.py versus)."""

    algorithm = "alphabeta"
    # Levels 1-9 (breadth, node cap) at equal Elo steps, by benchmarks/calibrate_levels.py (16 rungs,
    # 20-40 games a match): level 10 at 0.25 s a move (about 560 nodes) is 1090 Elo above random
    # play, so 121 a level.  At 0.25 s a move, levels 7-9 sometimes run out of time before nodes here.
    handicaps: tuple[Handicap, ...] = (
        (0.0, 1),
        (0.1, 1),
        (0.26, 2),
        (0.52, 4),
        (0.86, 21),
        (1.0, 64),
        (1.0, 222),
        (1.0, 320),
        (1.0, 480),
    )
    playout_depth = 0
    widening_base = 3.0
    widening_exponent = 0.5
    stone_weight = 1.0
    territory_weight = 0.25  # 0 switches the queen-distance search off (a cheaper evaluation)
    mobility_weight = 0.05
    scale = 12.0

    def result(self, pos: Position) -> float | None:
        return terminal_value(self.game, pos) if pos.passes >= 2 else None

    def weights(self) -> tuple[float, float, float, float]:
        return (self.stone_weight, self.territory_weight, self.mobility_weight, self.scale)

    def evaluate(self, pos: Position) -> float:
        board = pos.board
        return evaluate_bits(
            (bitboard(board, QUEEN0), bitboard(board, QUEEN1)),
            (bitboard(board, STONE0), bitboard(board, STONE1)),
            pos.to_move,
            self.weights(),
        )

    def split_turns(self, pos: Position) -> TurnSplit:
        rules = DesdemonaHalves()
        root = from_position(pos)
        policy = DesdemonaHalvesPolicy(rules, self.weights(), root)
        return TurnSplit(rules, policy, root, 2, partial(whole_turns, rules, policy))

    def order(self, pos: Position, moves: list[int]) -> list[int]:
        if len(moves) < 2:
            return moves
        board = pos.board
        enemy = QUEEN[1 - pos.to_move]
        near_enemy = frozenset().union(*(NEAR[c] for c in range(SIZE) if board[c] == enemy))

        def gain(move: int) -> int:
            if move == PASS:
                return 0
            dest = (move >> 7) & 0x7F
            target = move >> 16
            if (move >> 14) & 0x3 == CAPTURE:
                return 20 * DIST[dest][target]
            return 3 if target in near_enemy else 0

        return sorted(moves, key=gain, reverse=True)

    def playout_move(self, pos: Position, moves: list[int], rng: random.Random) -> int:
        return self.order(pos, moves)[0] if rng.random() < 0.5 else rng.choice(moves)
