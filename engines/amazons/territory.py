"""The Amazons evaluation on bitboards: who will own the empty squares, and how free the amazons are.

An Amazons game is won by the side with more squares left to move on once
the arrows have walled the board into regions, so the evaluation estimates
that share now.  Queen territory (engines/queens.py) gives a square to the
side whose amazons reach it in fewer queen moves; king territory does the
same in king steps, which tells more once the arrows fence the board (a
square a queen reaches in two moves across an open board may take five
steps, and as many arrows to claim).  Mobility is the squares one queen move
from each side's amazons, and trapped counts the amazons with fewer than
TRAPPED squares to go to, which are about to be lost for the rest of the game.

Both floods run for the two sides at once on pair-packed ints (side to move
in bits 0-99, the other from bit SECOND on), as the queen flood does.
"""

from __future__ import annotations

import math

from engines.ai.policy import EVAL_LIMIT
from engines.amazons.board import reach_count
from engines.bits import cells_of
from engines.queens import FULL, PAIR_NOT_A, PAIR_NOT_J, SECOND, territory_and_mobility

TRAPPED = 3

# (queen territory, king territory, mobility, trapped amazons, scale): see evaluate.
Weights = tuple[float, float, float, float, float]


def king_territory(mine: int, theirs: int, empty: int) -> int:
    """Empty squares fewer king steps from my amazons than from theirs, less the other way round."""
    pair_empty = empty | empty << SECOND
    east = pair_empty & PAIR_NOT_A  # a step east (or north-east, south-east) never lands on file a
    west = pair_empty & PAIR_NOT_J
    reached = mine | theirs << SECOND
    new = reached
    nearer_mine = nearer_theirs = 0
    while new:
        step = (
            ((new << 1 | new << 11 | new >> 9) & east)
            | ((new >> 1 | new >> 11 | new << 9) & west)
            | ((new << 10 | new >> 10) & pair_empty)
        )
        new = step & ~reached
        reached |= new
        low, high = reached & FULL, reached >> SECOND
        nearer_mine |= low & ~high
        nearer_theirs |= high & ~low
    return (nearer_mine & empty).bit_count() - (nearer_theirs & empty).bit_count()


def trapped(amazons: int, occupied: int) -> int:
    """How many of ``amazons`` reach fewer than TRAPPED squares in one move."""
    return sum(reach_count(cell, occupied) < TRAPPED for cell in cells_of(amazons))


def evaluate(mine: int, theirs: int, arrows: int, weights: Weights) -> float:
    """How good the position is for the side whose amazons are ``mine``, in [-EVAL_LIMIT, EVAL_LIMIT]."""
    queen_weight, king_weight, mobility_weight, trapped_weight, scale = weights
    occupied = mine | theirs | arrows
    empty = FULL & ~occupied
    territory, mobility = territory_and_mobility(mine, theirs, empty)
    raw = queen_weight * territory + mobility_weight * mobility
    if king_weight:
        raw += king_weight * king_territory(mine, theirs, empty)
    if trapped_weight:
        raw += trapped_weight * (trapped(theirs, occupied) - trapped(mine, occupied))
    return EVAL_LIMIT * math.tanh(raw / scale)
