"""Hands at a virtual board: script actions carried out in real time.

The firmware under simulation scans in real time, so a person's actions must
take real time too: a piece slid across cells rests on each for a moment, a
stone turned over leaves its cell while it turns.  Objects lifted are held in
the hand until placed; ``place CELL KIND`` takes a new object from the box.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from engines.physical import Thing
from host.hardware.sensing import SensorModel
from host.hardware.spec import BoardSpec
from host.sim.script import Action, ScriptError

TURN_S = 0.12  # a piece turned over is off its cell this long (a hand takes longer than a knock)
TAP_S = 0.15  # a tap: lifted and put straight back


class Objects(Protocol):
    """The objects on the cells, as hands reach them: a virtual board (host/sim/virtual_board.py)."""

    @property
    def model(self) -> SensorModel: ...

    def stack(self, cell: str) -> tuple[Thing, ...]: ...

    def lift(self, cell: str) -> Thing: ...

    def place(self, cell: str, thing: Thing) -> None: ...


class Pressable(Protocol):
    def press(self, button: str) -> None: ...


class Table(Protocol):
    """What hands work at: a rig (host/sim/rig.py), or the corpus's board in simulated time."""

    @property
    def board(self) -> BoardSpec: ...

    @property
    def virtual(self) -> Objects: ...

    @property
    def buttons(self) -> Pressable: ...

    @property
    def lock(self) -> AbstractContextManager[Any]: ...


class Hands:
    def __init__(self, rig: Table, sleep: Callable[[float], None] = time.sleep) -> None:
        self.rig = rig
        self.sleep = sleep
        self.held: list[Thing] = []
        self.step_ms = 100
        self.done = threading.Event()

    def run(self, actions: list[Action]) -> None:
        """Carry out every action, each followed by the current step time."""
        try:
            for action in actions:
                self.do(action)
        finally:
            self.done.set()

    def do(self, action: Action) -> None:
        """One action of a script: ScriptError names its line."""
        try:
            self.act(action)
        except ValueError as exc:
            raise ScriptError(f"line {action.line}: {action.verb} {' '.join(action.cells)}: {exc}") from None

    def act(self, action: Action) -> None:
        """One action; ValueError says why it cannot be done (an empty cell, an empty hand)."""
        verb = action.verb
        if verb == "wait":
            self.sleep(action.ms / 1000)
            return
        if verb == "step":
            self.step_ms = action.ms
            return
        if verb == "press":
            self.rig.buttons.press(action.button)
        elif verb == "lift":
            self.held.append(self._lift(action.cells[0]))
        elif verb == "remove":
            self._lift(action.cells[0])
        elif verb == "place":
            if action.thing is not None:
                thing = action.thing
                if thing in self.held:  # the one carried, not a new one from the box
                    self.held.remove(thing)
            elif self.held:
                thing = self.held.pop()
            else:
                raise ValueError("the hand is empty: say which object to place (e.g. 'place a7 stone:0')")
            self._place(action.cells[0], thing)
        elif verb == "turn":
            thing = self._lift(action.cells[0])
            if thing.colour is None:
                self._place(action.cells[0], thing)
                raise ValueError(f"a {thing.kind} has no colour to turn over")
            self.sleep(TURN_S)
            self._place(action.cells[0], Thing(thing.kind, 1 - thing.colour))
        elif verb == "slide":
            thing = self._lift(action.cells[0])
            for cell in action.cells[1:-1]:
                self._place(cell, thing)
                self.sleep(self.step_ms / 1000 / 2)
                self._lift(cell)
            self._place(action.cells[-1], thing)
        elif verb == "tap":
            self._tap(action.cells[0])
        self.sleep(self.step_ms / 1000)

    def _tap(self, cell: str) -> None:
        stack = self.rig.virtual.stack(cell)
        model = self.rig.virtual.model
        if stack and model.reading_of(stack) != model.reading_of(stack[:-1]):
            thing = self._lift(cell)
            self.sleep(TAP_S)
            self._place(cell, thing)
            return
        magnet = self._any_magnet()
        self._place(cell, magnet)
        self.sleep(TAP_S)
        self._lift(cell)

    def _any_magnet(self) -> Thing:
        """An object whose magnet the sensors feel: what a player taps an empty cell with."""
        for kind, spec in self.rig.board.objects.items():
            if spec.pole_down and spec.magnet == "strong":
                return Thing(kind, spec.role.colours[0])
        raise ValueError("this board has no object with a magnet to tap with")

    def _lift(self, cell: str) -> Thing:
        with self.rig.lock:
            return self.rig.virtual.lift(cell)

    def _place(self, cell: str, thing: Thing) -> None:
        objects = self.rig.board.objects
        if thing.kind not in objects:
            raise ValueError(f"this board has no {thing.kind!r} (its objects: {', '.join(objects)})")
        if thing.colour not in objects[thing.kind].role.colours:
            shows = "no colour" if thing.colour is not None else "a colour (KIND:0 or KIND:1)"
            raise ValueError(f"a {thing.kind} on this board needs {shows}")
        with self.rig.lock:
            self.rig.virtual.place(cell, thing)
