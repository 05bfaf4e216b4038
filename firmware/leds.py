"""NeoPixels driven by the Pico, for builds whose Pi cannot drive them.

LED frames arrive as RGB triplets; they are copied straight into the strip's
own buffer in its wire order (GRB for WS2812), so nothing is allocated.
"""

import machine
import neopixel


class PicoLeds:
    def __init__(self, pin, count):
        self.count = count
        self._strip = neopixel.NeoPixel(machine.Pin(pin), count)
        self._buf = self._strip.buf
        self._bpp = self._strip.bpp
        order = self._strip.ORDER
        self._r = order[0]
        self._g = order[1]
        self._b = order[2]

    def set_rgb(self, src, off, first, count):
        """Set LEDs first..first+count-1 from RGB bytes src[off:off+3*count]."""
        buf = self._buf
        bpp = self._bpp
        r = self._r
        g = self._g
        b = self._b
        j = first * bpp
        for _ in range(count):
            buf[j + r] = src[off]
            buf[j + g] = src[off + 1]
            buf[j + b] = src[off + 2]
            off += 3
            j += bpp

    def show(self):
        self._strip.write()
