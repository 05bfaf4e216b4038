"""NeoPixels driven by the Pi, through Adafruit's pixel buffer (neopixel or neopixel_spi).

Adafruit's own brightness scaling is left at 1.0 and auto-write off: this
driver shapes every frame itself (host.drivers.shaping) and sends it with one
``show()``, so the bytes on the wire are exactly what the board file allows.
``neopixel`` (PWM/PCM pin, needs root) and ``neopixel_spi`` (SPI0 MOSI, works
on a Pi 5 and without root) share that buffer class, hence one strip type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from host.drivers.interfaces import RGB, DriverError, check_frame
from host.drivers.pi_modules import import_pi_module
from host.drivers.shaping import OutputShaper
from host.hardware.spec import LED_PI_PWM, LED_PI_SPI, BoardSpec, LedSpec


class PixelBuf(Protocol):
    """What this driver asks of Adafruit's pixel buffer (``adafruit_pixelbuf.PixelBuf``)."""

    def __len__(self) -> int: ...

    def __setitem__(self, index: int, rgb: RGB) -> None: ...

    def fill(self, colour: int) -> None: ...

    def show(self) -> None: ...

    def deinit(self) -> None: ...


class NeoPixelStrip:
    """An LedStrip on any Adafruit PixelBuf."""

    def __init__(self, pixels: PixelBuf, leds: LedSpec) -> None:
        if len(pixels) != leds.count:
            raise DriverError(f"the pixel buffer holds {len(pixels)} LEDs, the board has {leds.count}")
        self.pixels = pixels
        self.shaper = OutputShaper(leds)
        self._count = leds.count

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: Sequence[RGB]) -> None:
        check_frame(frame, self._count)
        for i, rgb in enumerate(self.shaper.shape(frame)):
            self.pixels[i] = rgb
        self.pixels.show()

    def close(self) -> None:
        self.pixels.fill(0)
        self.pixels.show()
        self.pixels.deinit()


def open_strip(board: BoardSpec) -> NeoPixelStrip:
    """The board's LED chain on this Pi, as its board file wires it."""
    leds = board.leds
    common = {"brightness": 1.0, "auto_write": False, "pixel_order": leds.order}
    if leds.driver == LED_PI_PWM:
        pins = import_pi_module("board")
        neopixel = import_pi_module("neopixel")
        pin = getattr(pins, f"D{leds.pin}", None)
        if pin is None:
            raise DriverError(f"this machine has no pin board.D{leds.pin} for the LEDs")
        pixels = neopixel.NeoPixel(pin, leds.count, **common)
    elif leds.driver == LED_PI_SPI:
        pins = import_pi_module("board")
        neopixel_spi = import_pi_module("neopixel_spi")
        pixels = neopixel_spi.NeoPixel_SPI(pins.SPI(), leds.count, **common)
    else:
        raise DriverError(f"board {board.id}: the Pico drives the LEDs; send frames over the serial link")
    return NeoPixelStrip(pixels, leds)
