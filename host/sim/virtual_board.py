"""A simulated board: objects placed and lifted on cells, and the raw sensor frames they cause.

The virtual board produces what the microcontroller's scan would read, not
readings: for a reed matrix, one 0/1 per (row, column) with contact bounce
after every change; for Hall multiplexers, one ADC value (read_u16 units) per
(multiplexer, channel) with each sensor's own zero offset, a field that ramps
while a magnet comes down or lifts off, and noise.  Frames go to the
firmware's logic (host.sim.firmware_process) or to any scanner.

Everything random is a pure function of the seed, the sensor address and the
time on the clock passed in, so a run repeats exactly and no test sleeps.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from engines.physical import Thing
from host.drivers.interfaces import Clock
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import BoardSpec

ADC_MAX = 65535
_MASK = (1 << 64) - 1
BOUNCE_QUANTUM_US = 200  # a chattering contact holds each state about this long


def _splitmix(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def _hash(*parts: int) -> int:
    h = 0
    for part in parts:
        h = _splitmix(h ^ (part & _MASK))
    return h


def _uniform(*parts: int) -> float:
    """A number in [0, 1) determined by ``parts`` alone."""
    return (_hash(*parts) >> 11) / float(1 << 53)


_SQRT3 = math.sqrt(3.0)


def _gauss(*parts: int) -> float:
    """Near-normal (mean 0, sd 1, within +-3.5) from one hash: the sum of its four 16-bit quarters."""
    h = _hash(*parts)
    total = (h & 0xFFFF) + (h >> 16 & 0xFFFF) + (h >> 32 & 0xFFFF) + (h >> 48)
    return (total / 65536.0 - 2.0) * _SQRT3


@dataclass(frozen=True)
class SensorPhysics:
    """How imperfect the simulated sensors are (times in microseconds, signals in ADC units)."""

    bounce_us: int = 3000  # a reed contact chatters this long after it opens or closes
    ramp_us: int = 20000  # a magnet's field builds up (or fades) over this long as it is put down (lifted)
    noise: float = 120.0  # standard deviation of each ADC sample
    offset_spread: float = 600.0  # standard deviation of each Hall sensor's zero around the nominal

    @property
    def settle_us(self) -> int:
        """After this long without changes every sensor reads steadily."""
        return max(self.bounce_us, self.ramp_us)


@dataclass(frozen=True)
class _Change:
    at_us: int
    field_before: float
    closed_before: bool


class SimClock:
    """A clock that moves only when told to (microseconds)."""

    def __init__(self, start_us: int = 0) -> None:
        self.now_us = start_us

    def __call__(self) -> int:
        return self.now_us

    def advance(self, us: int) -> int:
        if us < 0:
            raise ValueError("a clock does not go backwards")
        self.now_us += us
        return self.now_us


class VirtualBoard:
    def __init__(
        self, board: BoardSpec, clock: Clock, *, seed: int = 0, physics: SensorPhysics | None = None
    ) -> None:
        self.board = board
        self.clock = clock
        self.seed = seed
        self.physics = physics or SensorPhysics()
        self.model = SensorModel(board)
        self._stacks: dict[str, tuple[Thing, ...]] = {name: () for name in board.geometry.names}
        self._changes: dict[str, _Change] = {}
        self._targets: dict[str, float] = {name: 0.0 for name in board.geometry.names}
        self._forced: dict[int, int] = {}
        self._cell_at: dict[int, str] = {board.address(cell): cell.name for cell in board.cells}
        sensor = board.sensor
        self.offsets = tuple(
            round(_gauss(seed, address, 0x0FF5E7) * self.physics.offset_spread) if sensor.analog else 0
            for address in range(sensor.addresses)
        )

    # --- what is on the board ---------------------------------------------------------
    def stack(self, cell: str) -> tuple[Thing, ...]:
        return self._stacks[self._name(cell)]

    def cells(self) -> dict[str, tuple[Thing, ...]]:
        """What stands on every cell, bottom to top (as ``Game.cells`` gives a position)."""
        return dict(self._stacks)

    def place(self, cell: str, thing: Thing) -> None:
        """Put an object on top of whatever the cell holds."""
        if thing.kind not in self.board.objects:
            raise ValueError(f"board {self.board.id} has no objects of kind {thing.kind!r}")
        self._set(cell, (*self.stack(cell), thing))

    def lift(self, cell: str) -> Thing:
        """Take the top object off a cell."""
        stack = self.stack(cell)
        if not stack:
            raise ValueError(f"cell {cell} is empty: nothing to lift")
        self._set(cell, stack[:-1])
        return stack[-1]

    def set_position(self, cells: Mapping[str, tuple[Thing, ...]]) -> None:
        """Make the board show a position (``Game.cells``): every differing cell changes now.

        Cells the mapping does not name are emptied.
        """
        for name in cells:
            self._name(name)
        for name in self.board.geometry.names:
            stack = tuple(cells.get(name, ()))
            if stack != self._stacks[name]:
                for thing in stack:
                    if thing.kind not in self.board.objects:
                        raise ValueError(f"board {self.board.id} has no objects of kind {thing.kind!r}")
                self._set(name, stack)

    def force(self, cell: str, raw: int | None) -> None:
        """Make a cell's sensor read ``raw`` whatever is on it (a fault); None repairs it."""
        address = self.board.address(self.board.cell(self._name(cell)))
        if raw is None:
            self._forced.pop(address, None)
        else:
            self._forced[address] = raw

    # --- what the sensors give ----------------------------------------------------------
    def frame(self) -> list[list[int]]:
        """The raw values now, one row per matrix row (or multiplexer), one column per column (channel)."""
        flat = self.flat_frame()
        cols = self.board.sensor.cols
        return [flat[r * cols : (r + 1) * cols] for r in range(self.board.sensor.rows)]

    def flat_frame(self) -> list[int]:
        """The raw values now, by address (row * cols + col)."""
        now = self.clock()
        analog = self.board.sensor.analog
        out = []
        for address in range(self.board.sensor.addresses):
            if address in self._forced:
                out.append(self._forced[address])
                continue
            cell = self._cell_at.get(address)
            if analog:
                out.append(self._adc(address, cell, now))
            else:
                out.append(self._contact(address, cell, now))
        return out

    # --- physics ---------------------------------------------------------------------------
    def _name(self, cell: str) -> str:
        if cell not in self._stacks:
            raise ValueError(f"board {self.board.id} has no cell {cell!r}")
        return cell

    def _set(self, cell: str, stack: tuple[Thing, ...]) -> None:
        now = self.clock()
        before = _Change(now, self._field(cell, now), self._closed(self._stacks[cell]))
        self._stacks[cell] = stack
        self._targets[cell] = float(self.model.field(stack)) if self.board.sensor.analog else 0.0
        self._changes[cell] = before

    def _closed(self, stack: tuple[Thing, ...]) -> bool:
        return self.model.reading_of(stack) == Reading.MAGNET

    def _field(self, cell: str, now: int) -> float:
        target = self._targets[cell]
        change = self._changes.get(cell)
        if change is None or now - change.at_us >= self.physics.ramp_us:
            return target
        progress = max(0, now - change.at_us) / self.physics.ramp_us
        return change.field_before + (target - change.field_before) * progress

    def _adc(self, address: int, cell: str | None, now: int) -> int:
        field = self._field(cell, now) if cell is not None else 0.0
        noise = _gauss(self.seed, address, now) * self.physics.noise
        value = self.board.sensor.zero_nominal + self.offsets[address] + field + noise
        return min(ADC_MAX, max(0, round(value)))

    def _contact(self, address: int, cell: str | None, now: int) -> int:
        if cell is None:
            return 0
        closed = self._closed(self._stacks[cell])
        change = self._changes.get(cell)
        if (
            change is not None
            and change.closed_before != closed
            and now - change.at_us < self.physics.bounce_us
        ):
            return 1 if _uniform(self.seed, address, now // BOUNCE_QUANTUM_US) < 0.5 else 0
        return 1 if closed else 0
