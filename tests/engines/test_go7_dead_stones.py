"""The dead stones Go 7x7 proposes at the end, and the count of the agreed board (engines/go7/table.py).

The weights are counted by hand: a stone is dead when the opponent's stones around it (2 for each next to
it, 1 for each two steps away) outweigh its own by more than 2, and a group is proposed only when most of
its stones are.
"""

from __future__ import annotations

from engines import registry
from engines.go7.rules import position_from_diagram
from engines.outcome import Outcome

GAME = registry.make("go7")
NAMES = GAME.geometry.names


def test_a_group_half_of_which_looks_dead_is_not_proposed() -> None:
    # White d4-d5 against Black c4, e4, d3.  d4: Black 2+2+2 = 6 against White's d5 2: dead.  d5: Black's
    # c4, e4 and d3 are two steps away, 3 against d4's 2: alive.  Black's stones: c4 has White 2 (d4) + 1
    # (d5) = 3 against 1 + 1 (d3, e4): alive, and e4 and d3 alike.  One of two: the group lives.
    pos = position_from_diagram(
        """
        .......
        .......
        ...o...
        ..xox..
        ...x...
        .......
        .......
        """
    )
    pos = GAME.play_texts(["pass", "pass"], pos)
    assert GAME.is_over(pos)
    assert GAME.table.dead_proposal(GAME, pos) == frozenset()


def test_the_agreed_board_is_counted_by_area_with_the_dead_stones_off() -> None:
    # Black's c file against White's b file, and a Black stone at a4 behind White's wall.
    pos = position_from_diagram(
        """
        .ox....
        .ox....
        .ox....
        xox....
        .ox....
        .ox....
        .ox....
        """
    )
    over = GAME.play_texts(["pass", "pass"], pos)
    # As it stands: Black c1-c7 (7) + a4 (1) + d-g (28) = 36; White b1-b7 = 7 (the a file touches a4).
    assert GAME.outcome(over) == Outcome(0, (36, 7))
    outcome, ending = GAME.table.agreed(GAME, over, frozenset({"a4"}))
    # a4 off: White 7 + the a file 7 = 14; Black 35.  35 - 14 - 7.5 = 13.5.
    assert outcome == Outcome(0, (35, 14))
    assert ending.reason == "With 1 dead stone off, by area Black 35, White 14 + 7.5: Black wins by 13.5."
    assert ending.cells == frozenset(n for n in NAMES if n[0] in "cdefg")
    outcome, _ = GAME.table.agreed(GAME, over, frozenset({"c1", "c2", "c3", "c4", "c5", "c6", "c7", "a4"}))
    # Black's wall agreed dead too (nonsense, but the count is the board's): White 7 + 7 + 35 = 49.
    assert outcome == Outcome(1, (0, 49))
