"""The simulated board as the program reaches into it (host.reach.capabilities.Reach).

The rig's virtual board changes only under its lock (its feeder thread reads it every
millisecond), so every change here takes the lock, as the hands do.
"""

from __future__ import annotations

from engines.physical import Thing
from host.reach.capabilities import Cells
from host.sim.hands import Hands
from host.sim.rig import Rig


class SimulatedReach:
    def __init__(self, rig: Rig) -> None:
        self.rig = rig  # for the tests and benchmarks, which look inside the simulation
        self._hands = Hands(rig)

    @property
    def hands(self) -> Hands:
        return self._hands

    @property
    def ready_s(self) -> float:
        return self.rig.ready_s

    @property
    def slowdown(self) -> float:
        return self.rig.slowdown

    def standing(self) -> dict[str, tuple[Thing, ...]]:
        with self.rig.lock:
            return self.rig.virtual.cells()

    def set_position(self, cells: Cells) -> None:
        with self.rig.lock:
            self.rig.virtual.set_position(cells)

    def place(self, cell: str, thing: Thing) -> None:
        with self.rig.lock:
            self.rig.virtual.place(cell, thing)

    def lift(self, cell: str) -> Thing:
        with self.rig.lock:
            return self.rig.virtual.lift(cell)

    def press(self, button: str) -> None:
        self.rig.buttons.press(button)

    def lit(self, index: int) -> bool:
        return any(self.rig.leds.current[index])
