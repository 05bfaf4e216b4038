"""Debounced buttons: the debouncer's table, the GPIO driver on a fake GPIO, and the virtual buttons."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from host.drivers.debounce import Debouncer
from host.drivers.gpio_buttons import GpioButtons, open_buttons
from host.drivers.interfaces import ButtonPress, Buttons, DriverError
from host.hardware.loading import load_board
from host.sim.virtual_board import SimClock
from host.sim.virtual_buttons import VirtualButtons

# (time us, raw input, expected output) with a 5 ms hold, in the style of QMK's debounce tests.
DEBOUNCE_TABLE = [
    (0, False, None),
    (1000, True, None),  # pressed: not yet held 5 ms
    (3000, False, None),  # bounce back: the candidate is dropped
    (4000, True, None),  # pressed again: the hold starts over
    (8999, True, None),
    (9000, True, True),  # held 5 ms: pressed
    (9500, True, None),
    (10000, False, None),
    (12000, True, None),  # a release shorter than the hold is ignored
    (20000, True, None),
    (21000, False, None),
    (26000, False, False),  # released for 5 ms
]


def test_debouncer_table() -> None:
    debouncer = Debouncer(hold_us=5000)
    for at, raw, expected in DEBOUNCE_TABLE:
        assert debouncer.update(raw, at) == expected, at


def test_gpio_buttons_report_one_debounced_press(fake_gpio: Any) -> None:
    clock = SimClock()
    pins = load_board("kingofrings-reed").buttons.pins  # confirm 5, new_game 6, hint 13, take_back 19
    buttons = GpioButtons(fake_gpio, pins, debounce_ms=20, clock=clock)
    assert isinstance(buttons, Buttons)
    assert fake_gpio.setups == {pin: (fake_gpio.IN, fake_gpio.PUD_UP) for pin in (5, 6, 13, 19)}
    presses: list[ButtonPress] = []
    for at_ms, level in [(0, 0), (2, 1), (3, 0), (10, 0), (22, 0), (23, 0), (40, 1), (80, 1)]:
        clock.now_us = at_ms * 1000
        fake_gpio.drive(13, level)  # hint pulled low = pressed, with a bounce at 2 ms
        presses += buttons.poll()
    assert presses == [ButtonPress("hint", 23_000)]  # low since 3 ms, held 20 ms at 23 ms
    clock.now_us = 100_000
    fake_gpio.drive(5, 0)
    assert buttons.poll() == []
    clock.now_us = 120_000
    assert buttons.poll() == [ButtonPress("confirm", 120_000)]
    buttons.close()
    assert sorted(fake_gpio.cleaned) == [5, 6, 13, 19]


def test_open_buttons_uses_rpi_gpio(monkeypatch: pytest.MonkeyPatch, fake_gpio: Any) -> None:
    package = types.ModuleType("RPi")
    module = types.ModuleType("RPi.GPIO")
    for name in ("BCM", "IN", "PUD_UP", "LOW", "HIGH"):
        setattr(module, name, getattr(fake_gpio, name))
    for name in ("setmode", "setup", "input", "cleanup"):
        setattr(module, name, getattr(fake_gpio, name))
    package.GPIO = module  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "RPi", package)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", module)
    buttons = open_buttons(load_board("desdemona-hall"), clock=lambda: 0)
    assert set(buttons.pins) == {"confirm", "new_game", "hint", "take_back"}
    assert fake_gpio.mode == fake_gpio.BCM


def test_open_buttons_without_rpi_gpio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    with pytest.raises(DriverError, match=r"cannot import RPi\.GPIO"):
        open_buttons(load_board("desdemona-hall"))


def test_virtual_buttons() -> None:
    clock = SimClock(500)
    buttons = VirtualButtons(clock)
    assert isinstance(buttons, Buttons)
    buttons.press("take_back")
    clock.advance(100)
    buttons.press("confirm")
    assert buttons.poll() == [ButtonPress("take_back", 500), ButtonPress("confirm", 600)]
    assert buttons.poll() == []
    with pytest.raises(ValueError, match="no button 'undo'"):
        buttons.press("undo")
