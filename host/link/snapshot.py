"""What the rest of the host gets from the board: one settled reading of every sensor."""

from __future__ import annotations

from dataclasses import dataclass

from host.link.messages import SensorKind

EMPTY = 0
CLOSED = 1  # reed: a magnet closes the switch
NORTH = 1
SOUTH = 2
WEAK = 3


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The debounced state of every sensor address (address = row * cols + col).

    Values: reed builds 0 open / 1 closed; analog Hall builds 0 empty, 1 north,
    2 south, and 3 weak on a levels build. boot_id names the firmware run it
    came from; device_time_ms is when it settled, in the device's uptime;
    generation counts settled changes since that boot; received_ms is when the
    host's reader thread took it off the line, before it waited in any queue.
    """

    board: str
    sensor: SensorKind
    rows: int
    cols: int
    values: tuple[int, ...]
    boot_id: int
    device_time_ms: int
    generation: int
    received_ms: int = 0  # when this host read it (time.monotonic, ms): the time the reading was taken

    def __post_init__(self) -> None:
        if len(self.values) != self.rows * self.cols:
            raise ValueError(f"snapshot of {self.rows}x{self.cols} with {len(self.values)} values")

    def value(self, row: int, col: int) -> int:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"no sensor at row {row}, column {col} on a {self.rows}x{self.cols} board")
        return self.values[row * self.cols + col]

    def occupied(self) -> frozenset[int]:
        """Addresses whose sensor feels a magnet."""
        return frozenset(a for a, v in enumerate(self.values) if v != EMPTY)

    def changed(self, other: Snapshot) -> list[int]:
        """Addresses whose value differs from other's (same shape required)."""
        if (other.rows, other.cols) != (self.rows, self.cols):
            shapes = f"{self.rows}x{self.cols} and {other.rows}x{other.cols}"
            raise ValueError(f"cannot compare snapshots of different shapes: {shapes}")
        return [a for a, (x, y) in enumerate(zip(self.values, other.values, strict=True)) if x != y]

    def rows_text(self) -> str:
        """The values as rows of digits, for logs and error messages."""
        cols = self.cols
        return "\n".join("".join(map(str, self.values[r * cols : (r + 1) * cols])) for r in range(self.rows))
