"""The player's mouse on the simulated board, turned into the hands' actions.

The page sends what the player did - clicked a cell (a drag is a click where
it starts and one where it ends), shift-clicked, right-clicked, clicked the
tray, or tapped a cell to answer the board's question - and this decides what that means at the moment it
is carried out, by what the hand holds then: a click lifts the top object
into an empty hand and puts a held one down.  Deciding here, one gesture
after another on the hands' own thread, keeps quick clicks right even when
the page has not yet heard what the previous one did.
"""

from __future__ import annotations

from host.reach.capabilities import Hands
from host.reach.script import Action, parse_thing

VERBS = ("click", "lift", "turn", "tap", "tray")


class GestureError(ValueError):
    """A gesture that cannot be carried out: the message says why, in the player's terms."""


class Gestures:
    def __init__(self, hands: Hands, cells: set[str]) -> None:
        self.hands = hands
        self.cells = cells

    def perform(self, verb: str, cell: str = "", thing: str = "") -> None:
        """Carry out one gesture; GestureError says what was wrong."""
        try:
            if verb == "click":
                self._click(self._cell(cell))
            elif verb == "lift":  # shift-click: lift one more onto what the hand holds (a stack)
                self._do(Action(0, "lift", (self._cell(cell),)))
            elif verb == "turn":
                self._do(Action(0, "turn", (self._cell(cell),)))
            elif verb == "tap":  # lift what stands there and put it straight back (answers "which move?")
                self._do(Action(0, "tap", (self._cell(cell),)))
            elif verb == "tray":
                self._tray(thing)
            else:
                raise GestureError(f"unknown gesture {verb!r} (known: {', '.join(VERBS)})")
        except ValueError as exc:
            raise GestureError(str(exc)) from None

    def _cell(self, name: str) -> str:
        if name not in self.cells:
            raise GestureError(f"no cell {name!r} on this board")
        return name

    def _click(self, cell: str) -> None:
        if self.hands.held:
            self._do(Action(0, "place", (cell,)))
        elif self.hands.stack(cell):
            self._do(Action(0, "lift", (cell,)))
        else:
            raise GestureError(f"{cell} is empty and your hand too: take a piece from the tray first")

    def _tray(self, text: str) -> None:
        """A click on the tray puts the held object back, or takes the one clicked into an empty hand."""
        if self.hands.held:
            self.hands.held.pop()
            return
        thing = parse_thing(text)
        if thing.kind not in self.hands.objects:
            raise GestureError(f"this board has no {thing.kind}")
        self.hands.held.append(thing)

    def _do(self, action: Action) -> None:
        self.hands.act(action)
