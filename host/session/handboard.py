"""A board of object stacks in memory, moved by hand, read through a board file's sensor model.

The phrasebook (and the session tests) must drive a session exactly as a
person at a real board would - lift, put, turn, wait, press - without firmware
or a clock: every action takes ``step`` ms of its own time and sends the
reading the board's sensors would give for the stacks as they now stand.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic

from engines.game import M, P
from engines.physical import Thing
from host.hardware.sensing import SensorModel
from host.session import intent
from host.session.session import Session
from host.tracking.plan import Do, Step


class HandBoard(Generic[P, M]):
    """The objects on a session's board; a test or a scenario moves them, each action taking ``step`` ms."""

    def __init__(self, session: Session[P, M], model: SensorModel, step: int = 80) -> None:
        self.session = session
        self.model = model
        self.game = session.game
        self.names = self.game.geometry.names
        self.stacks = {n: list(s) for n, s in self.game.cells(session.position).items()}
        self.t = 0
        self.step = step
        self.held: list[Thing] = []
        self.send()

    def send(self) -> None:
        self.session.on_reading(self.t, [self.model.reading_of(tuple(self.stacks[n])) for n in self.names])

    def wait(self, ms: int) -> None:
        self.t += ms
        self.session.on_tick(self.t)

    def lift(self, cell: str, count: int = 1) -> None:
        self.t += self.step
        for _ in range(count):
            self.held.append(self.stacks[cell].pop())
        self.send()

    def place(self, cell: str, thing: Thing | None = None) -> None:
        self.t += self.step
        self.stacks[cell].append(thing or self.held.pop())
        self.send()

    def move(self, source: str, target: str) -> None:
        self.lift(source)
        self.place(target)

    def show(self, pos: P) -> None:
        """The board jumps to a position (a whole move made by quick hands)."""
        self.t += self.step
        self.stacks = {n: list(s) for n, s in self.game.cells(pos).items()}
        self.send()

    def press(self, button: str) -> None:
        self.t += 10
        self.session.on_button(self.t, button)

    def carry_out(self, steps: Iterable[Step[int] | intent.Step]) -> None:
        """Do what the steps say (cells by name or index), as hands do: a carried stack goes whole."""
        for step in steps:
            source, target = (self.names[c] if isinstance(c, int) else c for c in (step.source, step.target))
            count = len(step.things)
            if step.do is Do.MOVE:
                assert source is not None and target is not None
                self.lift(source, count)
                carried, self.held = self.held[-count:], self.held[:-count]
                self.t += self.step
                self.stacks[target].extend(reversed(carried))
                self.send()
            elif step.do is Do.PUT:
                assert target is not None
                for thing in step.things:
                    self.place(target, thing)
            elif step.do is Do.REMOVE:
                assert source is not None
                self.lift(source, count)
                del self.held[-count:]
            else:
                assert target is not None
                self.lift(target)
                self.held.pop()
                self.place(target, step.things[-1])
