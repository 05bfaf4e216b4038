"""One factory seam for the board's hardware, chosen once (gpiozero's pin factories are the model).

Everything above the link - the session, the live loop, the doctor's checks - takes a ``Hardware``:
the serial link, the LED chain and the buttons, whatever stands behind them.  Which flavour stands
there is decided in one place, ``choose_hardware``, from the command line: a real board (its Pico on
a serial port, the LEDs and buttons on this Pi), the simulated board (a virtual board with the real
firmware under MicroPython) or the emulated one (the same firmware on an emulated RP2040).  Each
flavour is a factory whose ``open`` builds the three parts as that flavour has them; nothing else
tells the flavours apart, so `magboard play` and `magboard doctor` wire a board up the same way.

What a simulated board adds is a capability, not a flavour to test for: its ``reach`` (what stands
on it, hands to move things, its buttons pressed and LEDs seen, host/reach/capabilities.py), None on
a real board.  Only ``SimulatedHardware`` imports the simulator, when it opens, so a real board's
path loads nothing of host/sim.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from engines.physical import Thing
from host.drivers.interfaces import Buttons, LedStrip
from host.hardware.spec import LED_PICO, BoardSpec
from host.link.device_link import DeviceLink
from host.link.expectation import Expectation
from host.link.protocol import READY_S
from host.link.status import LinkError, LinkEvent
from host.reach.capabilities import Reach

OnEvent = Callable[[LinkEvent], None]
Cells = Mapping[str, tuple[Thing, ...]]


@dataclass
class Hardware:
    """A board's hardware as one flavour builds it: the link up, LEDs and buttons opened on first use
    (a Pico-driven chain needs the link, and a missing driver should fail where it is used)."""

    where: str  # for messages: the serial port, or which simulated board
    link: DeviceLink
    make_strip: Callable[[BoardSpec], LedStrip]
    make_buttons: Callable[[BoardSpec], Buttons]
    reach: Reach | None = None  # a board the program can reach into (a simulated one); None on a real one
    slowdown: float = 1.0  # the device answers this many times slower than a Pico (an emulated one)
    _strip: LedStrip | None = field(default=None, repr=False)
    _buttons: Buttons | None = field(default=None, repr=False)

    @property
    def ready_s(self) -> float:
        """How long the device may take to boot and say hello."""
        return READY_S * self.slowdown

    def strip(self, board: BoardSpec) -> LedStrip:
        """The LED chain (opened on first use; DriverError or LinkError when it cannot be)."""
        if self._strip is None:
            self._strip = self.make_strip(board)
        return self._strip

    def buttons(self, board: BoardSpec) -> Buttons:
        """The buttons (opened on first use; DriverError when they cannot be)."""
        if self._buttons is None:
            self._buttons = self.make_buttons(board)
        return self._buttons

    def close(self) -> None:
        """Close the LEDs and buttons opened; the link closes after them, with the factory's context
        (a Pico-driven chain goes dark over it)."""
        if self._strip is not None:
            with contextlib.suppress(LinkError, OSError, RuntimeError):
                self._strip.close()
        if self._buttons is not None:
            with contextlib.suppress(OSError, RuntimeError):
                self._buttons.close()


class HardwareFactory(Protocol):
    """Builds one flavour of hardware for a board (None: not known until the device names it)."""

    def open(
        self, board: BoardSpec | None, *, on_event: OnEvent | None = None, standing: Cells | None = None
    ) -> contextlib.AbstractContextManager[Hardware]:
        """The hardware, its link open; ``standing``: the objects a player has already set up on the
        board (a simulated board is set up so; on a real one the player did it)."""
        ...


def expectation(board: BoardSpec | None) -> Expectation | None:
    """What the link checks the device's HELLO against (nothing while the board is not known)."""
    if board is None:
        return None
    return Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)


@dataclass(frozen=True)
class RealHardware:
    """A real board: its Pico on ``port`` (None: found by USB id), LEDs and buttons on this Pi."""

    port: str | None = None

    @contextlib.contextmanager
    def open(
        self, board: BoardSpec | None, *, on_event: OnEvent | None = None, standing: Cells | None = None
    ) -> Iterator[Hardware]:
        from host.drivers.gpio_buttons import open_buttons
        from host.drivers.link_strip import LinkStrip
        from host.drivers.neopixel_strip import open_strip

        with DeviceLink(self.port, expect=expectation(board), on_event=on_event) as link:

            def make_strip(spec: BoardSpec) -> LedStrip:
                return LinkStrip(link, spec.leds) if spec.leds.driver == LED_PICO else open_strip(spec)

            hardware = Hardware(self.port or "the Pico found by USB id", link, make_strip, open_buttons)
            try:
                yield hardware
            finally:
                hardware.close()


@dataclass(frozen=True)
class SimulatedHardware:
    """The simulated board: a virtual board and the real firmware under MicroPython (``emulated``:
    on an emulated Pico, see host.sim.rig), its sensor noise from ``seed``."""

    seed: int = 0
    emulated: bool = False

    @contextlib.contextmanager
    def open(
        self, board: BoardSpec | None, *, on_event: OnEvent | None = None, standing: Cells | None = None
    ) -> Iterator[Hardware]:
        if board is None:
            raise ValueError("the simulated board needs a board file")
        from host.sim.reach import SimulatedReach
        from host.sim.rig import Rig

        with Rig(board, seed=self.seed, emulated=self.emulated) as rig:
            if standing is not None:
                with rig.lock:
                    rig.virtual.set_position(standing)
            expect = expectation(board)
            with DeviceLink(
                rig.port, expect=expect, on_event=on_event, silence_timeout=rig.silence_timeout_s
            ) as link:
                where = "the emulated Pico" if self.emulated else "the simulated board"
                hardware = Hardware(
                    where,
                    link,
                    lambda _board: rig.strip_for(link),
                    lambda _board: rig.buttons,
                    SimulatedReach(rig),
                    rig.slowdown,
                )
                try:
                    yield hardware
                finally:
                    hardware.close()


def choose_hardware(serial: str | None, *, emulated: bool = False, seed: int = 0) -> HardwareFactory:
    """The flavour the command line names: ``--serial PORT`` (or ``auto``) a real board, else the
    simulated one (``--emulated``: on an emulated Pico).  ValueError when it names both."""
    if serial is not None:
        if emulated:
            raise ValueError("--emulated emulates the simulated board's Pico: leave out --serial")
        return RealHardware(None if serial == "auto" else serial)
    return SimulatedHardware(seed, emulated)
