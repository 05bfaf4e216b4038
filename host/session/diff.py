"""The hand movements that turn one position into another on the physical board.

Used where a move has to be made by simulated hands: a move typed at the
simulated board, and the tests' players.  It knows no rules, only objects:
what leaves a cell, what arrives, and what stays but shows its other side.  An
object that leaves one cell and arrives at another is carried there; the rest
come from, or go back to, the box.  ``rng`` shuffles the order, as different
people's hands would.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from engines.physical import Thing
from host.session.script import Action

Stack = tuple[Thing, ...]


def hand_actions(
    before: Mapping[str, Stack], after: Mapping[str, Stack], rng: random.Random | None = None
) -> list[Action]:
    """Script actions (line 0) that make the board go from ``before`` to ``after``."""
    turns: list[Action] = []
    leaving: list[tuple[str, Thing]] = []  # (cell, object), top first per cell
    arriving: list[tuple[str, Thing]] = []  # (cell, object), bottom first per cell
    for cell in before:
        old, new = tuple(before[cell]), tuple(after[cell])
        keep = 0
        while keep < min(len(old), len(new)) and old[keep] == new[keep]:
            keep += 1
        gone, come = old[keep:], new[keep:]
        if len(gone) == len(come) == 1 and gone[0].kind == come[0].kind and gone[0].colour != come[0].colour:
            turns.append(Action(0, "turn", (cell,)))
            continue
        leaving.extend((cell, thing) for thing in reversed(gone))
        arriving.extend((cell, thing) for thing in come)
    lifts: list[Action] = []
    places: list[Action] = []
    for target, thing in arriving:
        source = next((i for i, (_, t) in enumerate(leaving) if t == thing), None)
        if source is None:
            places.append(Action(0, "place", (target,), thing))
        else:
            cell, _ = leaving.pop(source)
            lifts.append(Action(0, "lift", (cell,)))
            places.append(Action(0, "place", (target,), thing))
    removes = [Action(0, "remove", (cell,)) for cell, _ in leaving]
    if rng is not None:
        rng.shuffle(turns)
        rng.shuffle(removes)
    # Carried objects: lift each from its cell before placing it anywhere (placing names the object).
    return (
        [*removes, *lifts, *places, *turns]
        if rng is None or rng.random() < 0.5
        else [*lifts, *removes, *turns, *places]
    )
