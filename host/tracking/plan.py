"""What hands do to turn one set of objects into another: the steps of a move, by object.

The tracker, the LEDs and the words all need to know what a move asks of the
player - which object goes where, what comes from the box or a hand, what is
taken off, which side must end up - and the simulated hands need the same to
make a move.  This module works it out from the objects alone, for the cells a
move changes, knowing only which kinds of object are reversible (turned over
rather than swapped).  An object that leaves one cell and arrives on another is
carried there (with whatever it carries: a knight's rings); the rest come from,
or go to, the box or a player's hand.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from engines.physical import Thing

Stack = tuple[Thing, ...]
K = TypeVar("K", bound=Hashable)  # a cell: its index, or its name


class Do(Enum):
    """One thing a hand does to the board."""

    MOVE = "move"  # lift the objects at source, put them on target
    PUT = "put"  # put objects on target (from the box or a player's hand)
    REMOVE = "remove"  # take the objects off source
    TURN = "turn"  # turn the object on target over


@dataclass(frozen=True)
class Step(Generic[K]):
    """One thing a hand does: ``things`` leave ``source`` and/or arrive on ``target`` (cell indices).

    For a turn, ``things`` is the object as it must end up (the side up it shows).
    """

    do: Do
    source: K | None
    target: K | None
    things: tuple[Thing, ...]

    @property
    def cells(self) -> tuple[K, ...]:
        return tuple(c for c in (self.source, self.target) if c is not None)


def plan(
    before: Mapping[K, Stack],
    after: Mapping[K, Stack],
    reversible: frozenset[str],
    distance: Callable[[K, K], float],
    difference: Callable[[Stack, Stack], Stack] | None = None,
) -> tuple[Step[K], ...]:
    """The steps that turn ``before[cell]`` into ``after[cell]`` for every cell of ``after``.

    Order: what leaves the board, what is carried, what is put, what is turned -
    the order a person clears a way before filling it.  ``difference`` is ``minus`` or one that remembers
    its answers (the tracker plans hundreds of moves over a few stack values).
    """
    minus_ = difference or minus
    leaving: list[tuple[K, Stack]] = []
    arriving: list[tuple[K, Stack]] = []
    turns: list[Step[K]] = []
    for cell, new in after.items():
        gone, come = minus_(before[cell], new), minus_(new, before[cell])
        if (
            len(gone) == len(come) == 1
            and gone[0].kind == come[0].kind
            and gone[0].kind in reversible
            and gone[0].colour != come[0].colour
        ):
            turns.append(Step(Do.TURN, cell, cell, come))
            continue
        if gone:
            leaving.append((cell, gone))
        if come:
            arriving.append((cell, come))
    carried: list[Step[K]] = []
    puts: list[Step[K]] = []
    for target, come in arriving:
        rest = come
        sources = [
            (distance(s, target), i) for i, (s, gone) in enumerate(leaving) if _carries(rest, gone, minus_)
        ]
        sources.sort(key=lambda pair: pair[0])
        if sources:
            index = sources[0][1]
            source, gone = leaving.pop(index)
            carried.append(Step(Do.MOVE, source, target, gone))
            rest = minus_(rest, gone)
        if rest:
            puts.append(Step(Do.PUT, None, target, rest))
    removes = [Step(Do.REMOVE, cell, None, gone) for cell, gone in leaving]
    return (*removes, *carried, *puts, *turns)


def minus(stack: Stack, other: Stack) -> Stack:
    """The objects of ``stack`` that ``other`` does not have (as many of each as are left over), in order.
    Stacks hold a few objects: a list is quicker than counting them."""
    if not other or not stack:
        return stack
    left = list(other)
    out = []
    for thing in stack:
        if thing in left:
            left.remove(thing)
        else:
            out.append(thing)
    return tuple(out)


def _carries(come: Stack, gone: Stack, minus_: Callable[[Stack, Stack], Stack]) -> bool:
    """Whether the objects that left a cell, its top piece among them, are among those that arrived."""
    return bool(gone) and gone[-1] in come and not minus_(gone, come)
