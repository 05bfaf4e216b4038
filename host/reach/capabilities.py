"""The capabilities a simulated board adds to the hardware, as small protocols.

The hardware factory (host/wiring/hardware.py) hands out a ``Reach`` with a simulated board and
none with a real one: the page, the play command and the doctor ask whether there is a reach (can
the program set up the board, make a move by hand, press a button itself?), never whether the
board is simulated, and never import the simulator (gpiozero's consumers never ask whether a pin
is a mock).  host/sim/reach.py meets these protocols.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Protocol

from engines.physical import Thing
from host.hardware.spec import ObjectSpec
from host.reach.script import Action

Cells = Mapping[str, tuple[Thing, ...]]


class Hands(Protocol):
    """Hands that carry out the script's actions in real time (a slide rests on each cell)."""

    held: list[Thing]  # lifted and not yet placed
    done: threading.Event  # set once ``run`` has carried out its last action

    @property
    def objects(self) -> Mapping[str, ObjectSpec]:
        """The kinds of object the board knows (what can be taken from the box)."""
        ...

    def stack(self, cell: str) -> tuple[Thing, ...]:
        """What stands on ``cell`` now, bottom first."""
        ...

    def run(self, actions: list[Action]) -> None:
        """Every action in turn (``done`` is set after the last, or on a failure)."""
        ...

    def do(self, action: Action) -> None:
        """One action; ScriptError names its line when it cannot be done."""
        ...

    def act(self, action: Action) -> None:
        """One action; ValueError says why it cannot be done."""
        ...

    def lift_stack(self, cell: str, count: int) -> None:
        """Lift the top ``count`` objects of ``cell`` at once, as a hand lifts a knight with its rings."""
        ...

    def put_down(self, cell: str) -> None:
        """Put all that is held on ``cell`` at once, as it was lifted; ValueError for an empty hand."""
        ...


class Reach(Protocol):
    """A board the program can reach into: what stands on it, objects put and taken, its buttons
    pressed, its LEDs seen, and hands that move things in a person's time."""

    @property
    def hands(self) -> Hands:
        """The one pair of hands at this board (what they hold is shared by all who use them)."""
        ...

    @property
    def ready_s(self) -> float:
        """How long the device may take to boot and report its first settled reading."""
        ...

    @property
    def slowdown(self) -> float:
        """The device answers this many times slower than a Pico (an emulated one)."""
        ...

    def standing(self) -> dict[str, tuple[Thing, ...]]:
        """Every cell's stack now."""
        ...

    def set_position(self, cells: Cells) -> None:
        """Set the board up at once (no hand's timing): ``cells`` on it, nothing else."""
        ...

    def place(self, cell: str, thing: Thing) -> None:
        """Put ``thing`` on ``cell`` at once."""
        ...

    def lift(self, cell: str) -> Thing:
        """Take the top object off ``cell`` at once."""
        ...

    def press(self, button: str) -> None:
        """Press a button (ValueError: no such button)."""
        ...

    def lit(self, index: int) -> bool:
        """Whether the LED at chain index ``index`` shows any light now."""
        ...
