"""The board under test and what the checks reach it through: link, LEDs, buttons, tester.

A real bench opens the LED chain and the buttons only when a check first asks
for them (a Pico-driven chain needs the link up, and a missing driver should
fail the LED check, not the whole run); a simulated bench hands out the rig's
own virtual strip and buttons.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TextIO

from host.doctor.tester import PersonTester, SimulatedTester, Tester
from host.drivers.interfaces import Buttons, LedStrip
from host.hardware.spec import LED_PICO, BoardSpec
from host.link.device_link import DeviceLink
from host.link.expectation import Expectation
from host.link.status import EventKind, LinkError, LinkEvent
from host.sim.rig import Rig

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
    where: str  # for the report: "the simulated board" or the serial port
    link: DeviceLink
    tester: Tester
    board: BoardSpec | None  # None until the device's HELLO names it
    make_strip: Callable[[BoardSpec], LedStrip]
    make_buttons: Callable[[BoardSpec], Buttons]
    trouble: LinkTrouble = field(default_factory=LinkTrouble)
    rig: Rig | None = None
    slowdown: float = 1.0  # the device answers this many times slower than a Pico (an emulated one)
    _strip: LedStrip | None = None
    _buttons: Buttons | None = None

    def strip(self, board: BoardSpec) -> LedStrip:
        """The LED chain (opened on first use; DriverError or LinkError when it cannot be)."""
        if self._strip is None:
            self._strip = self.make_strip(board)
        return self._strip

    def buttons(self, board: BoardSpec) -> Buttons:
        if self._buttons is None:
            self._buttons = self.make_buttons(board)
        return self._buttons

    def close(self) -> None:
        if self._strip is not None:
            with contextlib.suppress(LinkError, OSError, RuntimeError):
                self._strip.close()
        if self._buttons is not None:
            with contextlib.suppress(OSError, RuntimeError):
                self._buttons.close()


def _expectation(board: BoardSpec | None) -> Expectation | None:
    if board is None:
        return None
    return Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)


@contextlib.contextmanager
def simulated_bench(
    board: BoardSpec, *, seed: int = 0, out: TextIO | None = None, emulated: bool = False
) -> Iterator[Bench]:
    """The simulated board (real firmware under MicroPython; ``emulated``: on an emulated Pico)
    with simulated hands at it."""
    trouble = LinkTrouble()
    with (
        Rig(board, seed=seed, emulated=emulated) as rig,
        DeviceLink(
            rig.port, expect=_expectation(board), on_event=trouble, silence_timeout=rig.silence_timeout_s
        ) as link,
    ):
        where = "the emulated Pico" if emulated else "the simulated board"
        bench = Bench(
            where, link, SimulatedTester(rig, out), board,
            lambda _board: rig.strip_for(link), lambda _board: rig.buttons, trouble, rig, rig.slowdown,
        )  # fmt: skip
        try:
            yield bench
        finally:
            bench.close()


@contextlib.contextmanager
def real_bench(port: str | None, board: BoardSpec | None, stdin: TextIO, out: TextIO) -> Iterator[Bench]:
    """A real board on ``port`` (None: found by USB id), with a person at it."""
    from host.drivers.gpio_buttons import open_buttons
    from host.drivers.link_strip import LinkStrip
    from host.drivers.neopixel_strip import open_strip

    trouble = LinkTrouble()
    with DeviceLink(port, expect=_expectation(board), on_event=trouble) as link:

        def make_strip(spec: BoardSpec) -> LedStrip:
            return LinkStrip(link, spec.leds) if spec.leds.driver == LED_PICO else open_strip(spec)

        where = port or "the Pico found by USB id"
        bench = Bench(where, link, PersonTester(stdin, out), board, make_strip, open_buttons, trouble)
        try:
            yield bench
        finally:
            bench.close()
