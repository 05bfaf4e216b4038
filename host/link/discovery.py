"""Finding the Pico among the serial ports by its USB vendor and product id."""

from __future__ import annotations

from dataclasses import dataclass

from serial.tools import list_ports


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
