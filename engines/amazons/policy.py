"""Amazons knowledge for the search: territory by queen and king distance, mobility, trapped amazons.

The game is won by having squares left to move on when the other side has
none, so the evaluation (engines/amazons/territory.py) estimates who will own
the empty squares.  Level 10 searches each turn as two half-moves (the amazon,
then its arrow: engines/amazons/turns.py); the levels below search whole turns,
ordered with the arrows that take a square from an enemy amazon first.
"""

from __future__ import annotations

from functools import partial

from mypy_extensions import mypyc_attr

from engines.ai.halves import whole_turns
from engines.ai.levels import Handicap
from engines.ai.policy import Policy, TurnSplit, terminal_value
from engines.amazons.board import NEAR
from engines.amazons.rules import ARROW_AT, Position
from engines.amazons.territory import Weights, evaluate
from engines.amazons.turns import AmazonsHalves, AmazonsHalvesPolicy, from_position
from engines.bits import cells_of


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class AmazonsPolicy(Policy[Position, int]):
    """Weights are class attributes so that a tuning match can try others (bench_ai.py versus)."""

    algorithm = "alphabeta"
    # Levels 1-9 (breadth, node cap) at equal Elo steps, by benchmarks/calibrate_levels.py (11 rungs, 10
    # games a match, two runs with seeds 4000 and 5000, so 20 games a link: a rung's Elo to about +-80):
    # level 10 at 0.25 s a move is 1600 Elo above random play, so 178 a level. Most of it comes before
    # a whole ply is searched: 16 nodes over about 470 of the ~2,000 first turns are already 1000 Elo.
    # On the loaded machine of the run level 10 got about 0.03 s of processor time a move and scored 21
    # of 40 against whole turns capped at 1000 or 3000 nodes, so level 9 sits near the top of the
    # measured path; on an idle machine level 10 would stand further above it.
    handicaps: tuple[Handicap, ...] = (
        (0.0, 1),
        (0.4, 2),
        (0.48, 3),
        (0.56, 3),
        (0.64, 5),
        (0.73, 10),
        (0.82, 19),
        (0.93, 39),
        (1.0, 165),
    )
    queen_weight = 1.0
    king_weight = 0.5
    mobility_weight = 0.1
    trapped_weight = 4.0
    scale = 60.0

    def result(self, pos: Position) -> float | None:
        return terminal_value(self.game, pos)

    def weights(self) -> Weights:
        return (self.queen_weight, self.king_weight, self.mobility_weight, self.trapped_weight, self.scale)

    def evaluate(self, pos: Position) -> float:
        me = pos.to_move
        return evaluate(pos.amazons[me], pos.amazons[1 - me], pos.arrows, self.weights())

    def split_turns(self, pos: Position) -> TurnSplit:
        rules = AmazonsHalves()
        root = from_position(pos)
        policy = AmazonsHalvesPolicy(rules, self.weights(), root)
        return TurnSplit(rules, policy, root, 2, partial(whole_turns, rules, policy))

    def order(self, pos: Position, moves: list[int]) -> list[int]:
        """Arrows next to an enemy amazon first (a cheap key: a position has thousands of turns)."""
        if len(moves) < 2:
            return moves
        near_enemy = 0
        for cell in cells_of(pos.amazons[1 - pos.to_move]):
            near_enemy |= NEAR[cell]
        return sorted(moves, key=lambda move: near_enemy >> (move >> ARROW_AT) & 1, reverse=True)
