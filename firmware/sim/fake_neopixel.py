"""Stands in for MicroPython's ``neopixel`` module on the simulated RP2040.

write() hands the strip's raw bytes (in wire order, GRB) to ``sink`` when the
simulator set one: it is the data line to the virtual strip.
"""

import struct

sink = None
shown = []


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)

    def __len__(self):
        return self.n

    def write(self):
        if sink is None:
            shown.append(bytes(self.buf))
        else:
            sink.write(b"L" + struct.pack("<HB", self.n, self.bpp) + self.buf)
