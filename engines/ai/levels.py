"""Playing levels 1 (beginner) to 10 (strongest) at a given time per move.

A level keeps 40% of the search budget of the level above it and, below level
10, sometimes plays a move picked at random from the better half of the moves
(a slip, the kind a beginner makes): level 1 always, each level up 30% less
often, level 9 one move in 18.  Both only weaken play as the level falls, so
the levels are ordered in strength; measured at 0.25 s a move, each level
scores about 65-70% against the one below, too little for every step to show
in an 8-game match (benchmarks/bench_ai.py ladder).
"""

from __future__ import annotations

from dataclasses import dataclass

LOWEST, HIGHEST = 1, 10


@dataclass(frozen=True)
class Level:
    number: int
    budget_fraction: float
    slip_chance: float


# Share of the budget kept per level step down, and the chance per move of a slip: halving the
# time alone separated neighbouring levels too little (level 10 won 1 of 4 games against level 9
# in Desdemona and The King of Rings); slips from always (level 1) to rarely (level 9) do.
BUDGET_STEP = 0.4
SLIP_STEP = 0.7
SLIP_CHANCE = {number: SLIP_STEP ** (number - 1) for number in range(LOWEST, HIGHEST)}


def level(number: int) -> Level:
    """The settings of a level; ValueError outside 1..10."""
    if not LOWEST <= number <= HIGHEST:
        raise ValueError(f"level must be {LOWEST}..{HIGHEST}, not {number}")
    return Level(number, BUDGET_STEP ** (HIGHEST - number), SLIP_CHANCE.get(number, 0.0))
