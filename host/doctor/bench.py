"""The board under test and what the checks reach it through: the hardware and a tester.

The hardware comes from the one factory that `magboard play` uses too (host/wiring/hardware.py):
on a real board the LED chain and the buttons open only when a check first asks for them (a
Pico-driven chain needs the link up, and a missing driver should fail the LED check, not the whole
run); a board the program can reach into (a simulated one) is tested by the program's own hands.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

from host.doctor.tester import PersonTester, ReachingTester, Tester
from host.drivers.interfaces import Buttons, LedStrip
from host.hardware.spec import BoardSpec
from host.link.device_link import DeviceLink
from host.link.status import EventKind, LinkEvent
from host.wiring.hardware import Hardware, HardwareFactory

# What went wrong on the link most recently, kept to explain a device that never answered.
_TROUBLE = (EventKind.PORT_UNAVAILABLE, EventKind.REJECTED, EventKind.DISCONNECTED)


@dataclass
class LinkTrouble:
    last: str | None = None

    def __call__(self, event: LinkEvent) -> None:
        if event.kind in _TROUBLE:
            self.last = event.message


@dataclass
class Bench:
    hardware: Hardware
    tester: Tester
    board: BoardSpec | None  # None until the device's HELLO names it
    trouble: LinkTrouble = field(default_factory=LinkTrouble)

    @property
    def where(self) -> str:  # for the report: the serial port, or which simulated board
        return self.hardware.where

    @property
    def link(self) -> DeviceLink:
        return self.hardware.link

    @property
    def slowdown(self) -> float:
        return self.hardware.slowdown

    def strip(self, board: BoardSpec) -> LedStrip:
        return self.hardware.strip(board)

    def buttons(self, board: BoardSpec) -> Buttons:
        return self.hardware.buttons(board)


@contextlib.contextmanager
def open_bench(
    hardware: HardwareFactory, board: BoardSpec | None, stdin: TextIO, out: TextIO
) -> Iterator[Bench]:
    """The board ``hardware`` builds, with the program's own silent hands where it can reach into the
    board and a person (asked on ``out``, answering on ``stdin``) where it cannot."""
    trouble = LinkTrouble()
    with hardware.open(board, on_event=trouble) as parts:
        tester = PersonTester(stdin, out) if parts.reach is None else ReachingTester(parts.reach)
        yield Bench(parts, tester, board, trouble)
