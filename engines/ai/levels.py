"""Playing levels 1 (beginner) to 10 (strongest) at a given time per move.

Level 10 is the full player: every legal move, the whole time.  Levels 1 to 9
see less of the game tree in two ways, set per game by ``Policy.handicaps``:
- breadth: a level considers only ``ceil(B ** breadth)`` of the B legal moves,
  drawn at random (level 1: one move, so it plays at random).  Missing the one
  good move of a sharp position is the typical beginner's mistake;
- a node cap.  Strength so depends on nodes, not on the machine, and a node
  budget with a seed gives the same move.
The tables are per game because strength grows unevenly with either handicap
(flat where a few more nodes change nothing, steep where a search depth
completes), and differently in each game: benchmarks/calibrate_levels.py
measures a path of handicaps from random play to level 10 and places the
levels at equal Elo steps along it.
Each level also keeps TIME_STEP of the time of the level above, so that on a
slow machine, where time runs out before the nodes, the levels stay ordered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engines.pickling import by_fields

LOWEST, HIGHEST = 1, 10
# Share of the time per move a level keeps of the level above.  The node caps, not the time, are
# meant to set the strength; on a machine slow enough for the time to run out first, this keeps
# the levels ordered.
TIME_STEP = 0.8
# The deadline a search aims at, as a share of the time given, less a fixed allowance for
# returning the answer (collecting the workers' reports, building the PV); a level's time share
# applies to what is left, so that every level keeps a different time even when the time per move
# is short.
TIME_SHARE = 0.9
TIME_RESERVE = 0.01
MIN_SECONDS = 0.001

# (breadth, node cap) of a level below 10: see Level.
Handicap = tuple[float, int]


@dataclass(frozen=True)
class Level:
    """How much of the game tree a level sees.

    ``breadth``: the level considers ``ceil(B ** breadth)`` of the B legal
    moves, drawn at random (0: one move, at random; 1: all).
    ``nodes``: it searches at most this many nodes (None: no cap).
    """

    number: int
    time_fraction: float
    breadth: float = 1.0
    nodes: int | None = None

    def __reduce__(self) -> tuple[type[Level], tuple[object, ...]]:
        return by_fields(self)

    def candidates(self, legal: int) -> int:
        """How many of ``legal`` moves this level considers."""
        return min(legal, max(1, math.ceil(math.pow(legal, self.breadth) - 1e-9)))

    def limits(self, seconds: float | None, nodes: int | None) -> tuple[float | None, int | None]:
        """(search seconds, node budget) of this level, given the time per move and a node budget."""
        search_seconds = None
        if seconds is not None:
            search_seconds = max(MIN_SECONDS, (seconds * TIME_SHARE - TIME_RESERVE) * self.time_fraction)
        if self.nodes is None:
            return search_seconds, nodes
        return search_seconds, self.nodes if nodes is None else min(nodes, self.nodes)


def level(number: int, handicaps: Sequence[Handicap]) -> Level:
    """The settings of a level, given a game's handicaps of levels 1..9; ValueError outside 1..10."""
    if not LOWEST <= number <= HIGHEST:
        raise ValueError(f"level must be {LOWEST}..{HIGHEST}, not {number}")
    if len(handicaps) != HIGHEST - LOWEST:
        raise ValueError(f"a game needs handicaps for levels {LOWEST}..{HIGHEST - 1}; got {len(handicaps)}")
    time_fraction = TIME_STEP ** (HIGHEST - number)
    if number == HIGHEST:
        return Level(number, time_fraction)
    breadth, nodes = handicaps[number - LOWEST]
    return Level(number, time_fraction, breadth, nodes)
