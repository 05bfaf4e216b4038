"""Space Tiles knowledge for the search: threats of runs, immediate wins, pieces in hand.

A turn wins by making four of one's own colour in a row (or exactly five of
any colours) and loses by six of any, so the evaluation counts the windows of
four cells along the board's axes that still hold only one colour, weighted
by how full they are, and the pieces left in hand (placements need them).
Moves are ordered by a one-turn look-ahead (wins first, self-inflicted losses
last), which is what lets progressive widening skip the thousands of
placement variants that do nothing.
"""

from __future__ import annotations

import math
import random

from engines.ai.lookahead import order_by_lookahead, winning_move
from engines.ai.policy import EVAL_LIMIT, WIN, Policy
from engines.game import Game
from engines.spacetiles import Position, SpaceTiles, Turn

FILL_WEIGHT = (0.0, 0.1, 0.6, 2.5, 0.0)
HAND_WEIGHT = 0.05
SCALE = 5.0


class SpaceTilesPolicy(Policy[Position, Turn]):
    algorithm = "mcts"
    # Levels 1-9 (breadth, node cap) at equal Elo steps, by benchmarks/calibrate_levels.py (13 rungs,
    # 40 games a match): level 10 at 0.25 s a move (about 600 nodes) is 1210 Elo above random
    # play, so 134 a level.
    handicaps = (
        (0.0, 1),
        (0.12, 1),
        (0.25, 2),
        (0.36, 2),
        (0.47, 3),
        (0.58, 5),
        (0.95, 18),
        (1.0, 50),
        (1.0, 147),
    )
    playout_depth = 2
    widening_base = 2.0
    widening_exponent = 0.5

    def __init__(self, game: Game[Position, Turn]) -> None:
        super().__init__(game)
        assert isinstance(game, SpaceTiles)
        runs = game.masks.runs
        self.windows = tuple(sorted({w for cell in runs for _, _, _, fours in cell for w in fours}))

    def result(self, pos: Position) -> float | None:
        if pos.winner < 0:
            return None
        return WIN if pos.winner == pos.to_move else -WIN

    def evaluate(self, pos: Position) -> float:
        p0, p1 = pos.pieces0, pos.pieces1
        raw = 0.0
        for window in self.windows:
            a = p0 & window
            b = p1 & window
            if a and not b:
                raw += FILL_WEIGHT[a.bit_count()]
            elif b and not a:
                raw -= FILL_WEIGHT[b.bit_count()]
        raw += HAND_WEIGHT * (pos.hand0 - pos.hand1)
        if pos.to_move:
            raw = -raw
        return EVAL_LIMIT * math.tanh(raw / SCALE)

    def order(self, pos: Position, moves: list[Turn]) -> list[Turn]:
        return order_by_lookahead(self, pos, moves)

    def playout_move(self, pos: Position, moves: list[Turn], rng: random.Random) -> Turn:
        win = winning_move(self, pos, moves)
        return win if win is not None else rng.choice(moves)
