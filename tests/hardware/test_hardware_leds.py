"""LED output shaping, the virtual strip, and the real Adafruit drivers with their transmit captured."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from host.drivers.interfaces import DriverError, LedStrip
from host.drivers.neopixel_strip import NeoPixelStrip, open_strip
from host.drivers.shaping import OutputShaper
from host.hardware.loading import load_board
from host.hardware.power import frame_current_ma
from host.sim.virtual_board import SimClock
from host.sim.virtual_leds import VirtualStrip

WHITE, OFF = (255, 255, 255), (0, 0, 0)


def test_gamma_and_brightness_cap() -> None:
    # kingofrings-reed: gamma 2.6, cap 0.5.  255 -> 127.5 -> 128 (round half to even);
    # 128 -> 255 * (128/255)^2.6 * 0.5 = 255 * 0.1666 * 0.5 = 21.2 -> 21; 1 -> 0.
    shaper = OutputShaper(load_board("kingofrings-reed").leds)
    assert shaper.table[255] == 128
    assert shaper.table[128] == 21
    assert shaper.table[1] == 0 and shaper.table[0] == 0


def test_current_limit_dims_a_bright_frame_evenly() -> None:
    # desdemona-hall: 100 LEDs, cap 0.4, limit 1800 mA.  All white at the cap is 102 per channel:
    # 100 * 1 + 300 * 20 * 102 / 255 = 2500 mA, so every channel is scaled by (1800 - 100) / (2500 - 100)
    # and 102 * 0.7083 = 72.25 -> 72.
    leds = load_board("desdemona-hall").leds
    out = OutputShaper(leds).shape([WHITE] * 100)
    assert set(out) == {(72, 72, 72)}
    assert frame_current_ma(leds, out) <= 1800
    one = OutputShaper(leds).shape([WHITE] + [OFF] * 99)
    assert one[0] == (102, 102, 102)  # a single LED is far below the limit


def test_virtual_strip_records_what_was_asked_and_what_was_shown() -> None:
    board = load_board("flipfour-reed")
    clock = SimClock(1000)
    strip = VirtualStrip(board.leds, clock)
    assert isinstance(strip, LedStrip)
    assert strip.current == (OFF,) * 19
    strip.show(board.led_frame({"c3": (255, 0, 0)}))
    shown = strip.frames[-1]
    assert shown.at_us == 1000
    assert shown.frame[board.cell("c3").led] == (255, 0, 0)
    assert shown.output[board.cell("c3").led] == (round(255 * 0.6), 0, 0)  # cap 0.6
    assert strip.ever_lit() == {board.cell("c3").led}
    with pytest.raises(ValueError, match="has 3 colours, the chain has 19 LEDs"):
        strip.show([WHITE] * 3)
    with pytest.raises(ValueError, match=r"entry 1: \(256, 0, 0\)"):
        strip.show([OFF, (256, 0, 0)] + [OFF] * 17)
    strip.close()
    assert strip.current == (OFF,) * 19
    with pytest.raises(RuntimeError, match="closed"):
        strip.show([OFF] * 19)


# --- the real Adafruit drivers ---------------------------------------------------------


class FakePin:
    def __init__(self, number: int) -> None:
        self.id = number


class FakeDigitalInOut:
    def __init__(self, pin: FakePin) -> None:
        self.pin = pin
        self.direction: object = None
        self.released = False

    def deinit(self) -> None:
        self.released = True


class FakeSPI:
    """The busio.SPI calls adafruit_bus_device makes: lock, configure, write, unlock."""

    def __init__(self) -> None:
        self.locked = False
        self.configured: dict[str, Any] = {}
        self.writes: list[bytes] = []

    def try_lock(self) -> bool:
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False

    def configure(self, **settings: Any) -> None:
        self.configured = settings

    def write(self, data: bytes) -> None:
        assert self.locked
        self.writes.append(bytes(data))


@pytest.fixture
def fake_blinka(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Blinka's board, digitalio and neopixel_write replaced, so the real neopixel module imports here."""
    sent: list[tuple[FakePin, bytes]] = []
    spi = FakeSPI()
    board_module = types.ModuleType("board")
    board_module.D18 = FakePin(18)  # type: ignore[attr-defined]
    board_module.SPI = lambda: spi  # type: ignore[attr-defined]
    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = FakeDigitalInOut  # type: ignore[attr-defined]
    digitalio.Direction = types.SimpleNamespace(OUTPUT="output", INPUT="input")  # type: ignore[attr-defined]
    writer = types.ModuleType("neopixel_write")
    writer.neopixel_write = lambda pin, buf: sent.append((pin.pin, bytes(buf)))  # type: ignore[attr-defined]
    for name, module in (("board", board_module), ("digitalio", digitalio), ("neopixel_write", writer)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)
    monkeypatch.delitem(sys.modules, "neopixel_spi", raising=False)
    yield {"sent": sent, "spi": spi}
    for name in ("neopixel", "neopixel_spi"):  # imported against the fakes: not for later tests
        sys.modules.pop(name, None)


def test_neopixel_pwm_sends_shaped_grb_bytes(fake_blinka: dict[str, Any]) -> None:
    # kingofrings-reed: GRB on GPIO18, gamma 2.6, cap 0.5.  (255, 128, 0) -> R 128, G 21, B 0,
    # sent green first: 21, 128, 0.
    board = load_board("kingofrings-reed")
    strip = open_strip(board)
    assert isinstance(strip, LedStrip)
    frame = board.led_frame({"a1": (128, 255, 0), "b1": (255, 128, 0)})
    strip.show(frame)
    ((pin, data),) = fake_blinka["sent"]
    assert pin.id == 18
    assert len(data) == 49 * 3
    assert data[0:3] == bytes([128, 21, 0])  # a1 is LED 0
    assert data[3:6] == bytes([21, 128, 0])  # b1 is LED 1
    assert data[6:] == bytes(len(data) - 6)
    strip.close()
    assert fake_blinka["sent"][-1][1] == bytes(49 * 3)
    assert strip.pixels.pin.released


def test_neopixel_spi_sends_each_bit_as_a_pulse_pattern(fake_blinka: dict[str, Any]) -> None:
    # spacetiles-hall drives neopixel_spi: every data bit becomes one SPI byte, 0b11110000 for 1 and
    # 0b11000000 for 0, between two reset gaps of zeros.  White at cap 0.5 is 128 = 0b10000000.
    pytest.importorskip("neopixel_spi", reason="adafruit-circuitpython-neopixel-spi is not installed")
    board = load_board("spacetiles-hall")
    strip = open_strip(board)
    strip.show(board.led_frame({"a1": (255, 255, 255)}))
    spi = fake_blinka["spi"]
    (payload,) = spi.writes
    reset = round(6_400_000 * 80e-6 / 8)
    assert payload[:reset] == bytes(reset) and payload[-reset:] == bytes(reset)
    pulses = payload[reset:-reset]
    assert len(pulses) == 45 * 3 * 8
    bits = [1 if p == 0b11110000 else 0 for p in pulses]
    assert set(pulses) == {0b11110000, 0b11000000}
    data = bytes(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))
    assert data[:3] == bytes([128, 128, 128])
    assert data[3:] == bytes(44 * 3)
    assert spi.configured["baudrate"] == 6_400_000
    assert not spi.locked


def test_strip_on_the_pico_is_not_the_pis_to_open() -> None:
    with pytest.raises(DriverError, match="the Pico drives the LEDs"):
        open_strip(load_board("flipfour-reed"))


def test_missing_pi_packages_give_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "neopixel_spi", None)
    monkeypatch.setitem(sys.modules, "board", types.ModuleType("board"))
    with pytest.raises(DriverError, match=r"cannot import neopixel_spi .*pip install 'magboard\[pi\]'"):
        open_strip(load_board("spacetiles-hall"))


def test_strip_refuses_a_buffer_of_another_length() -> None:
    class Pixels(list[Any]):
        pass

    with pytest.raises(DriverError, match="holds 3 LEDs, the board has 49"):
        NeoPixelStrip(Pixels([0, 0, 0]), load_board("kingofrings-reed").leds)
