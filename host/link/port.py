"""The serial port the link runs on: what the link needs of one, and finding and opening the Pico's.

The Pico is found among the serial ports by its USB vendor and product id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import serial
from serial.tools import list_ports

READ_TIMEOUT_S = 0.05  # how long a read waits for bytes: the link's thread looks at the time this often


@dataclass(frozen=True, slots=True)
class UsbId:
    vid: int
    pid: int

    def __str__(self) -> str:
        return f"{self.vid:04x}:{self.pid:04x}"


PICO_MICROPYTHON = UsbId(0x2E8A, 0x0005)


def find_ports(usb_id: UsbId = PICO_MICROPYTHON) -> list[str]:
    """Device paths of every connected port with this USB id, sorted."""
    return sorted(p.device for p in list_ports.comports() if p.vid == usb_id.vid and p.pid == usb_id.pid)


class SerialPort(Protocol):
    """What the link needs of a pyserial Serial (tests may wrap one)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


def open_exclusive(path: str) -> SerialPort:
    """Open a serial port that no other process may use at the same time."""
    port: SerialPort = serial.Serial(
        path, baudrate=115200, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True
    )
    return port
