"""How a person makes a move with the mouse on the page: the gestures, checked on a model of the page's hand.

The page's rules (host/web/gestures.py): a click into an empty hand lifts what
a hand lifts there (``Table.lifted``: a King of Rings knight with its rings on
its owner's turn, anything else alone), and a click with something in the
hand puts all of it down; shift-click lifts the top object alone onto what
the hand holds; the tray takes an object into an empty hand or takes back
everything held; right-click turns the top object over.  ``plan`` orders the
hands' actions for a move the way a person would - take off, carry, bring
from the box, turn - with a plain click wherever one does it, and returns
None where the page's gestures cannot make the move as planned (the test
then types it).
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
    game: Game[Any, Any], pos: Any, after: Mapping[str, Stack], before: Mapping[str, Stack] | None = None
) -> list[Gesture] | None:
    """The gestures that take the board from ``before`` (default: ``pos`` itself) to ``after`` while
    ``pos`` is the committed position (whose side is to move decides what a click lifts)."""
    before = game.cells(pos) if before is None else before
    actions = hand_actions(game, before, after)
    stacks = {cell: list(stack) for cell, stack in before.items()}
    gestures: list[Gesture] = []

    def lifts(cell: str) -> int:
        return game.table.lifted(game, pos, tuple(stacks[cell]))

    for action in [a for a in actions if a.verb == "remove"]:
        cell = action.cells[0]
        gestures += [("click" if lifts(cell) == 1 else "lift", cell), ("tray", "")]
        stacks[cell].pop()
    places = [a for a in actions if a.verb == "place"]
    lifted: dict[str, int] = {}
    for action in [a for a in actions if a.verb == "lift"]:
        lifted[action.cells[0]] = lifted.get(action.cells[0], 0) + 1
    for cell, count in lifted.items():
        carried = stacks[cell][-count:]
        goes = []
        for thing in carried:  # bottom first, as they land
            place = next((a for a in places if a.thing == thing), None)
            if place is None:
                return None
            places.remove(place)
            goes.append(place.cells[0])
        if len(set(goes)) == 1 and lifts(cell) == count:
            gestures += [("click", cell), ("click", goes[0])]  # as one, the way a hand carries it
            stacks[goes[0]] += carried
            del stacks[cell][-count:]
            continue
        for thing, to in reversed(list(zip(carried, goes, strict=True))):  # one at a time, top first
            gestures += [("click" if lifts(cell) == 1 else "lift", cell), ("click", to)]
            stacks[to].append(stacks[cell].pop())
            assert stacks[to][-1] == thing
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
    same = game.table.same_stack  # a knight's rings in any order are the game's
    if not all(same(tuple(stacks[c]), tuple(after[c])) for c in before):
        return None
    return gestures
