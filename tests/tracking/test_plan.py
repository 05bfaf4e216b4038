"""The steps of a move by tables: objects before and after on a few cells, and the steps worked out by hand.

Cells are numbers on a line (the distance between two is their difference); a stone is reversible (turned
over, not swapped), a knight is not.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from engines.physical import Thing
from host.tracking.plan import Do, Step, minus, plan

KNIGHT, WHITE_KNIGHT = Thing("knight", 0), Thing("knight", 1)
STONE, WHITE_STONE = Thing("stone", 0), Thing("stone", 1)
RING = Thing("ring")
REVERSIBLE = frozenset({"stone"})


def steps(before: dict[int, tuple[Thing, ...]], after: dict[int, tuple[Thing, ...]]) -> tuple[Step[int], ...]:
    return plan(before, after, REVERSIBLE, lambda a, b: abs(a - b))


def test_the_nearest_of_two_like_pieces_is_carried_and_the_other_taken_off() -> None:
    before = {0: (KNIGHT,), 4: (), 5: (KNIGHT,)}
    after = {0: (), 4: (KNIGHT,), 5: ()}
    assert steps(before, after) == (Step(Do.REMOVE, 0, None, (KNIGHT,)), Step(Do.MOVE, 5, 4, (KNIGHT,)))
    before, after = {0: (KNIGHT,), 1: (), 5: (KNIGHT,)}, {0: (), 1: (KNIGHT,), 5: ()}
    assert steps(before, after) == (Step(Do.REMOVE, 5, None, (KNIGHT,)), Step(Do.MOVE, 0, 1, (KNIGHT,)))


def test_a_knight_carries_its_rings_and_a_piece_from_nowhere_is_put() -> None:
    before = {0: (RING, KNIGHT), 1: (), 2: ()}
    after = {0: (), 1: (RING, KNIGHT), 2: (WHITE_KNIGHT,)}
    assert steps(before, after) == (
        Step(Do.MOVE, 0, 1, (RING, KNIGHT)),
        Step(Do.PUT, None, 2, (WHITE_KNIGHT,)),
    )


def test_a_reversible_stone_is_turned_and_a_knight_of_the_other_side_is_swapped() -> None:
    assert steps({3: (STONE,)}, {3: (WHITE_STONE,)}) == (Step(Do.TURN, 3, 3, (WHITE_STONE,)),)
    assert steps({3: (KNIGHT,)}, {3: (WHITE_KNIGHT,)}) == (
        Step(Do.REMOVE, 3, None, (KNIGHT,)),
        Step(Do.PUT, None, 3, (WHITE_KNIGHT,)),
    )


def test_minus_leaves_what_the_other_stack_does_not_have_as_many_times_as_left_over() -> None:
    assert minus((RING, RING, KNIGHT), (RING,)) == (RING, KNIGHT)
    assert minus((RING,), ()) == (RING,) and minus((), (RING,)) == ()
    assert minus((KNIGHT, RING), (RING, KNIGHT)) == ()


def test_a_step_is_a_value() -> None:
    step = Step(Do.PUT, None, 2, (KNIGHT,))
    assert step.cells == (2,) and Step(Do.MOVE, 0, 1, ()).cells == (0, 1)
    with pytest.raises(FrozenInstanceError):
        step.target = 3  # type: ignore[misc]
