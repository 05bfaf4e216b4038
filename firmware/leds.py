"""NeoPixels driven by the Pico, for builds whose Pi cannot drive them.

LED frames arrive as RGB triplets; they are copied straight into the strip's
own buffer in its wire order (GRB for WS2812), so nothing is allocated. The copy
is hotloops.copy_rgb under MicroPython (a bytecode loop cost ~1 ms for 19 LEDs on the
emulated Pico, in the period that received the frame), copy_rgb below elsewhere.
"""

import array
import sys

import machine
import neopixel

# PicoLeds._layout: bytes per LED, the offsets of red, green and blue in one, the first LED
# and the number of LEDs to set.
BPP = 0
FIRST = 4
COUNT = 5


def copy_rgb(strip, layout, src, off):
    """LEDs layout[FIRST].. (layout[COUNT] of them) of strip from RGB bytes src[off:]."""
    bpp = layout[BPP]
    r = layout[1]
    g = layout[2]
    b = layout[3]
    j = layout[FIRST] * bpp
    for _ in range(layout[COUNT]):
        strip[j + r] = src[off]
        strip[j + g] = src[off + 1]
        strip[j + b] = src[off + 2]
        off += 3
        j += bpp


if sys.implementation.name == "micropython":
    from hotloops import copy_rgb as _copy_rgb
else:
    _copy_rgb = copy_rgb


class PicoLeds:
    def __init__(self, pin, count):
        self.count = count
        self._strip = neopixel.NeoPixel(machine.Pin(pin), count)
        self._buf = self._strip.buf
        order = self._strip.ORDER
        self._layout = array.array("i", (self._strip.bpp, order[0], order[1], order[2], 0, 0))

    def set_rgb(self, src, off, first, count):
        """Set LEDs first..first+count-1 from RGB bytes src[off:off+3*count]."""
        layout = self._layout
        layout[FIRST] = first
        layout[COUNT] = count
        _copy_rgb(self._buf, layout, src, off)

    def show(self):
        self._strip.write()
