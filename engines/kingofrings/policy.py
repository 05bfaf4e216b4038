"""The King of Rings knowledge for the search: ring points, captures in reach, mobility and hand.

Points held decide the game, but a holder standing where an enemy can land
loses its whole stack, so the evaluation adds the best capture the side to
move can make now and part of the best one the opponent threatens.  Mobility
counts moves (a holder that cannot move can neither gain nor flee), and a
knight in hand can be dropped on any loose ring, so it is worth about a ring.
"""

from __future__ import annotations

import math
import random

from mypy_extensions import mypyc_attr

from engines.ai.levels import Handicap
from engines.ai.lookahead import order_by_lookahead
from engines.ai.policy import EVAL_LIMIT, Policy, terminal_value
from engines.kingofrings.rules import (
    BIGBLUE,
    BLUE,
    DROP_ORIGIN,
    KNIGHT,
    LANDS,
    PASS,
    SILVER,
    TARGETS,
    KingOfRings,
    Position,
)


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class KingOfRingsPolicy(Policy[Position, int]):
    algorithm = "alphabeta"
    # Levels 1-9 (breadth, node cap) at equal Elo steps, by benchmarks/calibrate_levels.py (13 rungs,
    # 12 games a match, with the quiescence search): level 10 at 0.25 s a move is about 850 Elo above
    # random play, so 95 a level; from 300 nodes on, more nodes add little at 0.25 s.
    handicaps: tuple[Handicap, ...] = (
        (0.0, 1),
        (0.12, 1),
        (0.35, 2),
        (0.66, 7),
        (0.83, 12),
        (0.95, 23),
        (1.0, 59),
        (1.0, 145),
        (1.0, 294),
    )
    playout_depth = 4
    quiescence = True
    # The evaluation's weights, in points: the share of the best capture the opponent threatens,
    # a move of mobility, a knight in hand; and the points difference that is worth tanh(1).
    threat_share = 0.5
    mobility_weight = 0.1
    hand_weight = 1.0
    scale = 10.0

    def __init__(self, game: KingOfRings) -> None:
        super().__init__(game)
        assert isinstance(game, KingOfRings)
        self.step_lands = game.step_lands

    def _gains(self, pos: Position, me: int) -> tuple[int, int]:
        """(number of moves, best points gained by one move) for player ``me`` to move in ``pos``.

        Counts what ``legal_moves`` would list, from the same tables, without making the list.
        """
        board = pos.board
        stacks = pos.stacks
        jump_lands = LANDS[me]
        step_lands = self.step_lands[me]
        count = best = 0
        for cell in pos.knights[me]:
            rings = len(stacks[cell])
            lands = jump_lands if rings else step_lands
            for dest, _ in TARGETS[cell][rings]:
                code = board[dest]
                if lands[code]:
                    count += 1
                    gain = sum(stacks[dest]) if code > BIGBLUE else code
                    if gain > best:
                        best = gain
        if pos.hands[me] and pos.loose:
            big, blue, silver = board.count(BIGBLUE), board.count(BLUE), board.count(SILVER)
            count += big + blue + silver
            top = BIGBLUE if big else (BLUE if blue else SILVER)
            if top > best:
                best = top
        return count or 1, best  # no move: the pass

    def result(self, pos: Position) -> float | None:
        return terminal_value(self.game, pos) if pos.over else None

    def evaluate(self, pos: Position) -> float:
        me = pos.player
        points = pos.points[me] - pos.points[1 - me]
        hand = pos.hands[me] - pos.hands[1 - me] if pos.loose else 0
        mine, gain = self._gains(pos, me)
        theirs, threat = self._gains(pos, 1 - me)
        raw = (
            points
            + gain
            - self.threat_share * threat
            + self.hand_weight * hand
            + self.mobility_weight * (mine - theirs)
        )
        return EVAL_LIMIT * math.tanh(raw / self.scale)

    def noisy(self, pos: Position) -> list[int]:
        """Captures of enemy holders, the richest first: a stack changes hands, and often back at once."""
        me = pos.player
        board = pos.board
        stacks = pos.stacks
        enemy = KNIGHT[1 - me]
        found: list[tuple[int, int]] = []
        for cell in pos.knights[me]:
            for dest, move in TARGETS[cell][len(stacks[cell])]:
                if board[dest] == enemy and stacks[dest]:
                    found.append((sum(stacks[dest]), move))
        found.sort(reverse=True)
        return [move for _, move in found]

    def order(self, pos: Position, moves: list[int]) -> list[int]:
        return order_by_lookahead(self, pos, moves)

    def playout_move(self, pos: Position, moves: list[int], rng: random.Random) -> int:
        board, stacks = pos.board, pos.stacks

        def gain(move: int) -> int:
            if move == PASS or move >> 6 == DROP_ORIGIN:
                return board[move & 63] if move != PASS else 0
            code = board[move & 63]
            return sum(stacks[move & 63]) if code > 5 else code

        return max(moves, key=lambda m: (gain(m), rng.random()))
