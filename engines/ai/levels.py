"""Playing levels 1 (beginner) to 10 (strongest) at a given time per move.

Level 10 is the full player: every legal move, the whole time.  Levels 1 to 9
see less of the game tree in two ways, both set in TABLE:
- breadth: a level considers only ``ceil(B ** breadth)`` of the B legal moves,
  drawn at random (level 1: one move, so it plays at random; level 8 and up:
  all of them).  Missing the one good move of a sharp position is the typical
  beginner's mistake; in Space Tiles, three moves against ten (each searched)
  scored 0-20;
- a node cap, growing geometrically from 1 (level 1) to the game's
  ``Policy.level_nodes`` (level 9), a factor of 1.6 (Space Tiles) to 3.1
  (Flip Four) per level.  ``level_nodes`` is set per game so that level 10
  at 0.25 s a move searches clearly more (4 to 16 times as much).
Strength so depends on nodes, not on the machine, and a node budget with a
seed gives the same move.  Each level also keeps TIME_STEP of the time of the
level above, so that on a slow machine, where time runs out before the nodes,
the levels stay ordered.

Measured with ``benchmarks/bench_ai.py ladder GAME --seconds 0.25 --games 10``
and a second sample with ``--seed 1000``:
each level scores about 0.65-0.75 against the level below; pooled over both
samples, Flip Four 0.74, Desdemona 0.68, The King of Rings 0.67, Space Tiles
0.67, and 58 of the 72 ten-game steps won.  That is better than the old
levels (time share and slips: 0.67, 26 of 36) but short of the 0.8 per step
an always-ordered ten-game ladder needs: at 0.25 s the whole span from
random play to level 10 is only about nine such steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

LOWEST, HIGHEST = 1, 10
# Share of the time per move a level keeps of the level above.  The node caps, not the time, are
# meant to set the strength: at 0.25 s a move on the development machine, levels 7-9 reach their
# caps in at most half of their time (6 positions per game), so a machine up to twice as slow
# plays the same levels.
TIME_STEP = 0.8
# The deadline a search aims at, as a share of the time given, less a fixed allowance for
# returning the answer (forked workers, building the PV); a level's time share applies to what is
# left, so that every level keeps a different time even when the time per move is short.
TIME_SHARE = 0.9
TIME_RESERVE = 0.01
MIN_SECONDS = 0.001


@dataclass(frozen=True)
class Level:
    """How much of the game tree a level sees.

    ``breadth``: the level considers ``ceil(B ** breadth)`` of the B legal
    moves, drawn at random (0: one move, at random; 1: all).
    ``cap_exponent``: it searches at most ``Policy.level_nodes ** cap_exponent``
    nodes (None: no cap).
    """

    number: int
    time_fraction: float
    breadth: float = 1.0
    cap_exponent: float | None = None

    def candidates(self, legal: int) -> int:
        """How many of ``legal`` moves this level considers."""
        return min(legal, max(1, math.ceil(math.pow(legal, self.breadth) - 1e-9)))

    def node_cap(self, top_nodes: int) -> int | None:
        """The nodes this level may search when level 9 may search ``top_nodes``; None: no cap."""
        if self.cap_exponent is None:
            return None
        return max(1, round(math.pow(top_nodes, self.cap_exponent)))

    def limits(
        self, seconds: float | None, nodes: int | None, top_nodes: int
    ) -> tuple[float | None, int | None]:
        """(search seconds, node budget) of this level, given the time per move and a node budget."""
        search_seconds = None
        if seconds is not None:
            search_seconds = max(MIN_SECONDS, (seconds * TIME_SHARE - TIME_RESERVE) * self.time_fraction)
        cap = self.node_cap(top_nodes)
        if cap is None:
            return search_seconds, nodes
        return search_seconds, cap if nodes is None else min(nodes, cap)


# level: (breadth, cap exponent); level 10 searches every move without a cap.
TABLE: dict[int, tuple[float, float | None]] = {
    1: (0.0, 0.0),
    2: (0.3, 1 / 8),
    3: (0.45, 2 / 8),
    4: (0.6, 3 / 8),
    5: (0.7, 4 / 8),
    6: (0.8, 5 / 8),
    7: (0.9, 6 / 8),
    8: (1.0, 7 / 8),
    9: (1.0, 1.0),
    10: (1.0, None),
}


def level(number: int) -> Level:
    """The settings of a level; ValueError outside 1..10."""
    if not LOWEST <= number <= HIGHEST:
        raise ValueError(f"level must be {LOWEST}..{HIGHEST}, not {number}")
    breadth, cap_exponent = TABLE[number]
    return Level(number, TIME_STEP ** (HIGHEST - number), breadth, cap_exponent)
