"""What a board's sensors feel: from objects on a cell to a reading, and from a snapshot to readings.

The tracker never sees moves, only readings.  ``SensorModel.expected`` gives
the reading every cell of a position would produce on this board, and
``SensorModel.decode`` turns a firmware snapshot (one value per sensor address)
into the same per-cell readings, so the two can be compared directly.

Reed switches feel whether a strong magnet is there.  A Hall sensor feels the
sum of the fields of every magnet on the cell; with the thresholds the board
file checks, that is the pole of the strongest magnet (a piece over a tile
reads as the piece).  A levels build also tells a weak magnet (a tile) from a
strong one.

Snapshot codes (the firmware's):
- reed (any digital matrix): 0 open, 1 closed;
- hall_analog: 0 empty, 1 north, 2 south, and 3 weak (either pole) only for a
  levels build, whose calibration carries ``strong_threshold``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from engines.physical import Thing
from host.hardware.spec import NO_MAGNET, NORTH, REED, STRONG, BoardSpec, ObjectSpec

# Snapshot codes sent by the firmware for an analog Hall address.
CODE_EMPTY, CODE_NORTH, CODE_SOUTH, CODE_WEAK = 0, 1, 2, 3


class Reading(Enum):
    """What one cell's sensor reports, as a person would say it."""

    EMPTY = "empty"
    MAGNET = "magnet"  # reed: closed
    NORTH = "north"
    SOUTH = "south"
    WEAK = "weak"

    # Members are singletons: identity hashing is correct, and much faster than Enum's, which
    # matters when the tracker indexes thousands of 100-cell readings after every move.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return {"empty": ".", "magnet": "*", "north": "N", "south": "S", "weak": "w"}[self.value]


class SnapshotError(ValueError):
    """A snapshot whose shape or values this board's sensors cannot produce."""


CellReadings = dict[str, Reading]


class SensorModel:
    """The sensing of one board build."""

    def __init__(self, board: BoardSpec) -> None:
        self.board = board
        self.model = board.sensor.model
        self._cache: dict[tuple[Thing, ...], Reading] = {}
        self._addresses = [(cell.name, board.address(cell)) for cell in board.cells]
        analog = board.sensor.analog
        levels = board.sensor.strong_threshold is not None
        self._codes: dict[int, Reading] = (
            {0: Reading.EMPTY, 1: Reading.MAGNET}
            if not analog
            else {
                CODE_EMPTY: Reading.EMPTY,
                CODE_NORTH: Reading.NORTH,
                CODE_SOUTH: Reading.SOUTH,
                **({CODE_WEAK: Reading.WEAK} if levels else {}),
            }
        )

    @property
    def readings(self) -> tuple[Reading, ...]:
        """The readings this board's sensors can give."""
        return tuple(self._codes.values())

    def field(self, stack: tuple[Thing, ...]) -> int:
        """The nominal Hall signal of a stack, in ADC units: north facing the sensor is negative."""
        signal = self.board.sensor.signal
        total = 0
        for thing in stack:
            spec = self._object(thing)
            if spec.magnet == NO_MAGNET:
                continue
            sign = -1 if spec.pole(thing.colour) == NORTH else 1
            total += sign * signal.get(spec.magnet, 0)
        return total

    def reading_of(self, stack: tuple[Thing, ...]) -> Reading:
        """The reading the objects on one cell (bottom to top) produce."""
        cached = self._cache.get(stack)
        if cached is not None:
            return cached
        if self.model == REED:
            closed = any(self._object(thing).magnet == STRONG for thing in stack)
            reading = Reading.MAGNET if closed else Reading.EMPTY
        else:
            reading = self.classify(self.field(stack))
        self._cache[stack] = reading
        return reading

    def classify(self, delta: int) -> Reading:
        """A Hall signal (ADC units from zero field) as the firmware's thresholds read it."""
        sensor = self.board.sensor
        magnitude = abs(delta)
        if magnitude < sensor.threshold:
            return Reading.EMPTY
        if sensor.strong_threshold is not None and magnitude < sensor.strong_threshold:
            return Reading.WEAK
        return Reading.NORTH if delta < 0 else Reading.SOUTH

    def expected(self, cells: Mapping[str, tuple[Thing, ...]]) -> CellReadings:
        """The reading of every cell of a position (``Game.cells``), in geometry order."""
        out: CellReadings = {}
        for name in self.board.geometry.names:
            try:
                stack = cells[name]
            except KeyError:
                raise ValueError(
                    f"board {self.board.id}: the position says nothing about cell {name}"
                ) from None
            out[name] = self.reading_of(tuple(stack))
        return out

    def decode(self, values: Sequence[int]) -> CellReadings:
        """A snapshot (one code per sensor address, address = row * cols + col) as per-cell readings."""
        size = self.board.sensor.addresses
        if len(values) != size:
            raise SnapshotError(f"board {self.board.id}: snapshot has {len(values)} values, expected {size}")
        out: CellReadings = {}
        for name, address in self._addresses:
            code = values[address]
            reading = self._codes.get(code)
            if reading is None:
                raise SnapshotError(
                    f"board {self.board.id}: cell {name} (address {address}) has code {code}, "
                    f"which a {self.model} board never sends"
                )
            out[name] = reading
        return out

    def stray(self, values: Sequence[int]) -> list[int]:
        """Addresses wired to no cell that report something: a wiring fault worth showing."""
        used = {address for _, address in self._addresses}
        return [a for a, code in enumerate(values) if a not in used and code != CODE_EMPTY]

    def encode(self, readings: Mapping[str, Reading]) -> list[int]:
        """The snapshot a board in these readings sends (for simulators and tests)."""
        codes = {reading: code for code, reading in self._codes.items()}
        values = [CODE_EMPTY] * self.board.sensor.addresses
        for name, address in self._addresses:
            values[address] = codes[readings[name]]
        return values

    def _object(self, thing: Thing) -> ObjectSpec:
        try:
            return self.board.objects[thing.kind]
        except KeyError:
            raise ValueError(
                f"{self.board.source.name}: objects.{thing.kind} is not described, "
                f"but a {self.board.game} position has one"
            ) from None
