"""What the host requires of the device on the line before it listens to it.

A board's reed matrix must not be read as another board's Hall sensors: the
protocol hands on nothing from a device whose HELLO does not match.
"""

from __future__ import annotations

from dataclasses import dataclass

from host.link.messages import Hello, SensorKind


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the device must be for its snapshots to count; None accepts anything."""

    board: str | None = None
    rows: int | None = None
    cols: int | None = None
    sensor: SensorKind | None = None

    def problem(self, hello: Hello) -> str | None:
        if self.board is not None and hello.board != self.board:
            return f"device is configured for board {hello.board!r}, expected {self.board!r}"
        rows_differ = self.rows is not None and hello.rows != self.rows
        if rows_differ or (self.cols is not None and hello.cols != self.cols):
            return f"device scans {hello.rows}x{hello.cols} sensors, expected {self.rows}x{self.cols}"
        if self.sensor is not None and hello.sensor != self.sensor:
            return f"device has sensor {hello.sensor.name.lower()}, expected {self.sensor.name.lower()}"
        return None
