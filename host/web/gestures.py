"""The player's mouse on the simulated board, turned into the hands' actions.

The page sends what the player did - clicked a cell (a drag is a click where
it starts and one where it ends), shift-clicked, right-clicked, clicked the
tray, or tapped a cell to answer the board's question - and this decides what that means at the moment it
is carried out, by what the hand holds then.  A click works as a person's
hand does: into an empty hand it lifts what the lights ask to lift there, else
what a hand lifts there by the game's rules (``Table.lifted``: a King of Rings
knight with the rings it carries on its owner's turn, anything else alone),
and a hand that holds something puts all of it down.  Shift-click is for the unusual: it lifts the top object
alone onto what the hand holds.  The tray gives only what the game can still
give (``left``: the page's counts), and takes back everything held.
Deciding here, one gesture after another on the hands' own thread, keeps
quick clicks right even when the page has not yet heard what the previous
one did.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.physical import Thing
from host.reach.capabilities import Hands
from host.reach.script import Action, parse_thing

VERBS = ("click", "lift", "turn", "tap", "tray")

Stack = tuple[Thing, ...]


class GestureError(ValueError):
    """A gesture that cannot be carried out: the message says why, in the player's terms."""


class Gestures:
    """``lifted(cell, stack)``: how many objects off its top a click lifts as one; ``left(thing)``: how
    many the tray can still give, and that in the tray's words; ``named(thing)``: the object in words."""

    def __init__(
        self,
        hands: Hands,
        cells: set[str],
        lifted: Callable[[str, Stack], int],
        left: Callable[[Thing], tuple[int, str]],
        named: Callable[[Thing], str],
    ) -> None:
        self.hands = hands
        self.cells = cells
        # Whether what the hand holds came from the tray: the sensors cannot see it, so the page says where
        # it may go.  Anything lifted off the board the board itself sees and speaks of.
        self.from_tray = False
        self.lifted = lifted
        self.left = left
        self.named = named

    def perform(self, verb: str, cell: str = "", thing: str = "") -> None:
        """Carry out one gesture; GestureError says what was wrong."""
        try:
            if verb == "click":
                self._click(self._cell(cell))
            elif verb == "lift":  # shift-click: the top object alone, onto what the hand holds
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
            self.hands.put_down(cell)
            self.from_tray = False
            return
        stack = self.hands.stack(cell)
        if not stack:
            raise GestureError(f"{cell} is empty and your hand too: take a piece from the tray first")
        self.hands.lift_stack(cell, self.lifted(cell, stack))
        self.from_tray = False

    def _tray(self, text: str) -> None:
        """A click on the tray puts back what the hand holds, or takes the one clicked into an empty hand
        while the box or the player's hand has one."""
        if self.hands.held:
            self.hands.held.clear()
            self.from_tray = False
            return
        thing = parse_thing(text)
        if thing.kind not in self.hands.objects:
            raise GestureError(f"this board has no {thing.kind}")
        count, words = self.left(thing)
        if count <= 0:
            raise GestureError(f"no {self.named(thing)} to take ({words})")
        self.hands.held.append(thing)
        self.from_tray = True

    def _do(self, action: Action) -> None:
        self.hands.act(action)
        if action.verb == "lift":
            self.from_tray = False
