"""Whoever is at the board during the checks: a person, or simulated hands and eyes.

The checks say what they want done (put a piece on a cell, press a button)
and look for the result on the link themselves; only whether an LED lit is
taken on the tester's word, because nothing but an eye (or, at a board the
program reaches into, its LEDs seen) can see it.
"""

from __future__ import annotations

import time
from typing import Protocol, TextIO

from engines.physical import Thing
from host.reach.capabilities import Reach

PERSON_LED_S = 0.4  # each LED stays lit this long for a person to follow the walk
REACH_WAIT_S = 2.0  # how long the checks wait for the program's own hands (a real scan takes milliseconds)
PERSON_WAIT_S = 60.0  # how long they wait for a person


class Tester(Protocol):
    @property
    def wait_s(self) -> float:
        """How long the checks wait for each thing asked."""

    def say(self, text: str) -> None: ...

    def led_shown(self, index: int, cell: str) -> None:
        """The LED under ``cell`` (chain index ``index``) has just been lit alone."""

    def dark_cells(self, cells: list[str]) -> list[str] | None:
        """After the walk: the cells whose LED never lit (None: no answer)."""

    def clear_board(self) -> None:
        """Take every object off the board."""

    def place(self, cell: str, thing: Thing) -> None: ...

    def lift(self, cell: str) -> None: ...

    def press(self, button: str) -> None: ...


class ReachingTester:
    """The program's own hands and eyes at a board it can reach into (a simulated one)."""

    def __init__(self, reach: Reach, out: TextIO | None = None, wait_s: float = REACH_WAIT_S) -> None:
        self.reach = reach
        self.out = out
        self._wait_s = wait_s * reach.slowdown
        self._dark: list[str] = []

    @property
    def wait_s(self) -> float:
        return self._wait_s

    def say(self, text: str) -> None:
        if self.out is not None:
            self.out.write(text + "\n")

    def led_shown(self, index: int, cell: str) -> None:
        if not self.reach.lit(index):
            self._dark.append(cell)

    def dark_cells(self, cells: list[str]) -> list[str] | None:
        dark, self._dark = self._dark, []
        return dark

    def clear_board(self) -> None:
        self.reach.set_position({})

    def place(self, cell: str, thing: Thing) -> None:
        self.reach.place(cell, thing)

    def lift(self, cell: str) -> None:
        self.reach.lift(cell)

    def press(self, button: str) -> None:
        self.reach.press(button)


class PersonTester:
    """A person at a real board, told what to do on ``out`` and answering on ``stdin``."""

    def __init__(self, stdin: TextIO, out: TextIO, led_s: float = PERSON_LED_S) -> None:
        self.stdin = stdin
        self.out = out
        self.led_s = led_s

    @property
    def wait_s(self) -> float:
        return PERSON_WAIT_S

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def led_shown(self, index: int, cell: str) -> None:
        time.sleep(self.led_s)

    def dark_cells(self, cells: list[str]) -> list[str] | None:
        known = set(cells)
        while True:
            self.out.write("Cells whose LED stayed dark (names separated by spaces; Enter if none): ")
            self.out.flush()
            line = self.stdin.readline()
            if not line:
                return None
            names = line.replace(",", " ").split()
            unknown = [name for name in names if name not in known]
            if not unknown:
                return names
            self.say(f"no cell {', '.join(unknown)} on this board (cells: {' '.join(cells)})")

    def clear_board(self) -> None:
        self.say("Take every piece off the board.")

    def place(self, cell: str, thing: Thing) -> None:
        side = "" if thing.colour is None else f" (colour {thing.colour} up)"
        self.say(f"Put a {thing.kind}{side} on {cell}, the cell lit green.")

    def lift(self, cell: str) -> None:
        self.say(f"Take it off {cell}.")

    def press(self, button: str) -> None:
        self.say(f"Press the {button.replace('_', ' ')} button.")
