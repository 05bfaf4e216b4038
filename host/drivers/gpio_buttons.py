"""The four push buttons on Pi GPIOs, through the RPi.GPIO interface.

rpi-lgpio provides the same ``RPi.GPIO`` module on a Pi 5 (and on newer
kernels), so one driver serves both.  Buttons pull the pin to ground against
the internal pull-up; the driver polls and debounces in software, so it
needs no interrupt thread and tests drive it with a fake GPIO and a fake clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from host.drivers.debounce import Debouncer
from host.drivers.interfaces import ButtonPress, Clock, monotonic_us
from host.drivers.pi_modules import import_pi_module
from host.hardware.spec import BoardSpec


class Gpio(Protocol):
    """What this driver asks of the ``RPi.GPIO`` module."""

    BCM: int
    IN: int
    PUD_UP: int
    LOW: int

    def setmode(self, mode: int) -> None: ...

    def setup(self, pin: int, direction: int, *, pull_up_down: int) -> None: ...

    def input(self, pin: int) -> int: ...

    def cleanup(self, pins: list[int]) -> None: ...


class GpioButtons:
    def __init__(
        self, gpio: Gpio, pins: Mapping[str, int], debounce_ms: int, clock: Clock = monotonic_us
    ) -> None:
        self.gpio = gpio
        self.pins = dict(pins)
        self.clock = clock
        gpio.setmode(gpio.BCM)
        for pin in self.pins.values():
            gpio.setup(pin, gpio.IN, pull_up_down=gpio.PUD_UP)
        self._debouncers = {name: Debouncer(debounce_ms * 1000) for name in self.pins}

    def poll(self) -> list[ButtonPress]:
        now = self.clock()
        presses = []
        for name, pin in self.pins.items():
            pressed = self.gpio.input(pin) == self.gpio.LOW
            if self._debouncers[name].update(pressed, now) is True:
                presses.append(ButtonPress(name, now))
        return presses

    def close(self) -> None:
        self.gpio.cleanup(list(self.pins.values()))


def open_buttons(board: BoardSpec, clock: Clock = monotonic_us) -> GpioButtons:
    gpio = import_pi_module("RPi.GPIO")
    return GpioButtons(gpio, board.buttons.pins, board.buttons.debounce_ms, clock)
