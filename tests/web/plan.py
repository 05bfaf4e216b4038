"""How a person makes a move with the mouse on the page: the gestures, checked on a model of the page's hand.

The page's rules (host/web/gestures.py): a click lifts the top object into an
empty hand and puts the last one held down; shift-click lifts one more; the
tray takes an object into an empty hand or puts the last one held back;
right-click turns the top object over.  ``plan`` orders the hands' actions
for a move the way a person would - take off, carry, bring from the box, turn -
and returns None where the page's one-handed gestures cannot make the move as
planned (the test then types it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.game import Game
from engines.physical import Thing
from host.reach.diff import hand_actions

Stack = tuple[Thing, ...]
Gesture = tuple[str, str]  # (verb, cell or object)


def plan(
    game: Game[Any, Any], before: Mapping[str, Stack], after: Mapping[str, Stack]
) -> list[Gesture] | None:
    actions = hand_actions(game, before, after)
    stacks = {cell: list(stack) for cell, stack in before.items()}
    held: list[Thing] = []
    gestures: list[Gesture] = []
    for action in [a for a in actions if a.verb == "remove"]:
        cell = action.cells[0]
        stacks[cell].pop()
        gestures += [("lift", cell), ("tray", "")]
    for action in [a for a in actions if a.verb == "lift"]:
        cell = action.cells[0]
        held.append(stacks[cell].pop())
        gestures.append(("lift", cell))
    places = [a for a in actions if a.verb == "place"]
    while held:
        carried = next((a for a in places if a.thing == held[-1]), None)
        if carried is None:
            return None
        places.remove(carried)
        stacks[carried.cells[0]].append(held.pop())
        gestures.append(("click", carried.cells[0]))
    for action in places:
        assert action.thing is not None
        stacks[action.cells[0]].append(action.thing)
        gestures += [("tray", str(action.thing)), ("click", action.cells[0])]
    for action in [a for a in actions if a.verb == "turn"]:
        cell = action.cells[0]
        top = stacks[cell].pop()
        assert top.colour is not None
        stacks[cell].append(Thing(top.kind, 1 - top.colour))
        gestures.append(("turn", cell))
    if {c: tuple(s) for c, s in stacks.items()} != {c: tuple(after[c]) for c in before}:
        return None
    return gestures
