"""Desdemona's board as bitboards (Python ints, bit ``cell`` for each square) and the evaluation on them.

The evaluation is the stone difference with the queen-distance territory and the mobility of
engines/queens.py.
"""

from __future__ import annotations

import math

from engines.ai.policy import EVAL_LIMIT
from engines.desdemona.rules import QUEEN0, QUEEN1, STONE0, STONE1
from engines.queens import FULL, reach, territory_and_mobility


def bitboard(board: bytes, code: int) -> int:
    """The squares of ``board`` (a Desdemona board string) that hold ``code``."""
    return int(board.translate(_DIGITS[code])[::-1], 2)


_DIGITS = {
    code: bytes(ord("1") if i == code else ord("0") for i in range(256))
    for code in (QUEEN0, QUEEN1, STONE0, STONE1)
}


def evaluate_bits(
    queens: tuple[int, int],
    stones: tuple[int, int],
    me: int,
    weights: tuple[float, float, float, float],
) -> float:
    """The Desdemona evaluation (engines/desdemona/policy.py) for side ``me`` of a bitboard position.

    ``weights`` are (stone, territory, mobility, scale); a territory weight of
    0 counts one-move reach per queen instead of the distance flood.
    """
    stone_weight, territory_weight, mobility_weight, scale = weights
    empty = FULL & ~(queens[0] | queens[1] | stones[0] | stones[1])
    stone_lead = stones[me].bit_count() - stones[1 - me].bit_count()
    if not territory_weight:
        mobility = reach(queens[me], empty) - reach(queens[1 - me], empty)
        raw = stone_weight * stone_lead + mobility_weight * mobility
        return EVAL_LIMIT * math.tanh(raw / scale)
    territory, mobility = territory_and_mobility(queens[me], queens[1 - me], empty)
    raw = stone_weight * stone_lead + territory_weight * territory + mobility_weight * mobility
    return EVAL_LIMIT * math.tanh(raw / scale)
