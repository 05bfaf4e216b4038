"""Flip Four knowledge for the search: runs of four in the making.

A colour wins when it shows exactly one run of four at the start of its turn,
and loses by a run of five or two fours, so the evaluation counts the windows
of four points that one colour could still complete (no piece of the other
colour in them), weighted by how full they are, plus the pieces still in hand
(placing is the flexible way to make and block runs).  The game is small
(at most 3^19 boards): alpha-beta with the transposition table keyed by
``FlipFour.key``, which accounts for the repetition rule, searches deep.
"""

from __future__ import annotations

import math
import random

from mypy_extensions import mypyc_attr

from engines.ai.levels import Handicap
from engines.ai.lookahead import order_by_lookahead, winning_move
from engines.ai.policy import EVAL_LIMIT, WIN, Policy
from engines.ai.windows import chunked, window_balance
from engines.flipfour.board import GEOMETRY
from engines.flipfour.rules import Position

# Every four consecutive points along a line, as bit masks.
WINDOWS = tuple(
    sum(1 << p for p in line[i : i + 4])
    for line in GEOMETRY.lines(min_length=4)
    for i in range(len(line) - 3)
)
CHUNKS = chunked(WINDOWS)
# Weight of a window of four holding 0..4 of one colour and none of the other.
FILL_WEIGHT = (0.0, 0.2, 1.0, 3.0, 0.0)
HAND_WEIGHT = 0.3
SCALE = 6.0


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class FlipFourPolicy(Policy[Position, int]):
    algorithm = "alphabeta"
    # Levels 1-9 (breadth, node cap) at equal Elo steps, by benchmarks/calibrate_levels.py (14 rungs,
    # 40 games a match): level 10 at 0.25 s a move (about 36000 nodes) is 1630 Elo above random
    # play, so 181 a level.
    handicaps: tuple[Handicap, ...] = (
        (0.0, 1),
        (0.28, 2),
        (0.64, 13),
        (0.74, 27),
        (0.86, 63),
        (1.0, 218),
        (1.0, 591),
        (1.0, 2713),
        (1.0, 7550),
    )
    playout_depth = 6

    def result(self, pos: Position) -> float | None:
        if pos.winner is None:
            return None
        return WIN if pos.winner == pos.to_move else -WIN

    def evaluate(self, pos: Position) -> float:
        raw = window_balance(CHUNKS, pos.red, pos.yellow, FILL_WEIGHT)
        raw += HAND_WEIGHT * (pos.hand0 - pos.hand1)
        if pos.to_move:
            raw = -raw
        return EVAL_LIMIT * math.tanh(raw / SCALE)

    def order(self, pos: Position, moves: list[int]) -> list[int]:
        return order_by_lookahead(self, pos, moves)

    def playout_move(self, pos: Position, moves: list[int], rng: random.Random) -> int:
        win = winning_move(self, pos, moves)
        return win if win is not None else rng.choice(moves)
