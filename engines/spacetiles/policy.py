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
from operator import itemgetter

from mypy_extensions import mypyc_attr

from engines.ai.levels import Handicap
from engines.ai.policy import EVAL_LIMIT, WIN, Policy
from engines.ai.windows import chunked, window_balance
from engines.game import Game
from engines.spacetiles.masks import GOES_ON, WINS
from engines.spacetiles.rules import Position, SpaceTiles, Turn

FILL_WEIGHT = (0.0, 0.1, 0.6, 2.5, 0.0)
HAND_WEIGHT = 0.05
SCALE = 5.0
# What a turn does to the pieces (the cell a piece leaves, the cells that get one), which is all its
# verdict and the evaluation depend on: the tile it lays holds no piece yet, so every tile of the
# frontier with the same placement - often three to eight of them - ends the turn the same.
_pieces = itemgetter(1, 2)


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class SpaceTilesPolicy(Policy[Position, Turn]):
    algorithm = "mcts"
    # Levels 1-9 (breadth, node cap) at equal Elo steps, by benchmarks/calibrate_levels.py (13 rungs,
    # 40 games a match): level 10 at 0.25 s a move (about 600 nodes) is 1210 Elo above random
    # play, so 134 a level.
    handicaps: tuple[Handicap, ...] = (
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
        self.rules = game
        runs = game.masks.runs
        self.windows = tuple(sorted({w for cell in runs for _, _, _, fours in cell for w in fours}))
        self.chunks = chunked(self.windows)

    def result(self, pos: Position) -> float | None:
        if pos.winner < 0:
            return None
        return WIN if pos.winner == pos.to_move else -WIN

    def evaluate(self, pos: Position) -> float:
        return self._value(pos.pieces0, pos.pieces1, pos.hand0, pos.hand1, pos.to_move)

    def _value(self, p0: int, p1: int, hand0: int, hand1: int, to_move: int) -> float:
        raw = window_balance(self.chunks, p0, p1, FILL_WEIGHT)
        raw += HAND_WEIGHT * (hand0 - hand1)
        if to_move:
            raw = -raw
        return EVAL_LIMIT * math.tanh(raw / SCALE)

    def order(self, pos: Position, moves: list[Turn]) -> list[Turn]:
        """By the one-turn look-ahead of engines/ai/lookahead.py, with the same scores, computed from
        ``pieces_after`` instead of whole positions (a turn wins, loses, or leaves ``evaluate``'s value)."""
        if len(moves) < 2:
            return moves
        after = self.rules.pieces_after
        value = self._value
        other = 1 - pos.to_move
        scores = []
        known: dict[tuple[int, int], float] = {}  # a turn's pieces, whatever tile it lays: see _pieces
        for move in moves:
            pieces = _pieces(move)
            score = known.get(pieces)
            if score is None:
                p0, p1, hand0, hand1, verdict = after(pos, move)
                if verdict == GOES_ON:
                    score = -value(p0, p1, hand0, hand1, other)
                else:
                    score = 2 * WIN if verdict == WINS else -2 * WIN
                known[pieces] = score
            scores.append(score)
        ranked = sorted(range(len(moves)), key=scores.__getitem__, reverse=True)
        return [moves[i] for i in ranked]

    def playout_move(self, pos: Position, moves: list[Turn], rng: random.Random) -> Turn:
        after = self.rules.pieces_after
        tried: set[tuple[int, int]] = set()
        for move in moves:
            pieces = _pieces(move)
            if pieces not in tried:
                if after(pos, move)[4] == WINS:
                    return move
                tried.add(pieces)
        return rng.choice(moves)
