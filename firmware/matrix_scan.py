"""The reed (or digital Hall) matrix: one diode per cell, rows driven low one
at a time, columns read with pull-ups.

Each row costs one register write (moving the low level from the previous
row to this one, through the SIO's GPIO_OUT_XOR) and one read of GPIO_IN,
which returns every column at once. When the column GPIOs are consecutive the
row is a shift and a mask away; otherwise the bits are gathered one by one
from the same single read.

DigitalMatrix.scan is the plain Python reference, which the simulated chip runs; on the rp2
port the scan is hotloops.scan_rows, which also waits settle_us after driving each row low.
The simulated chip's columns follow the rows at once, so the reference does not wait.
"""

import array
import sys

import machine
import messages
from debounce import RowDebouncer

SIO_GPIO_IN = 0xD0000004
SIO_GPIO_OUT_SET = 0xD0000014
SIO_GPIO_OUT_CLR = 0xD0000018
SIO_GPIO_OUT_XOR = 0xD000001C


def consecutive(pins):
    """True when pins are ascending consecutive GPIO numbers."""
    return all(pins[i] == pins[0] + i for i in range(1, len(pins)))


class DigitalMatrix:
    """Scans the matrix into one bit mask per row (bit c set = switch closed)."""

    def __init__(self, row_pins, col_pins, settle_us):
        pin = machine.Pin
        self.rows = len(row_pins)
        self.cols = len(col_pins)
        self.settle_us = settle_us
        self._pins = [pin(p, pin.OUT, value=1) for p in row_pins]
        self._pins.extend(pin(p, pin.IN, pin.PULL_UP) for p in col_pins)
        self._mem = machine.mem32
        self._gpio_in = SIO_GPIO_IN
        self._out_set = SIO_GPIO_OUT_SET
        self._out_clr = SIO_GPIO_OUT_CLR
        self._out_xor = SIO_GPIO_OUT_XOR
        self._first_row = 1 << row_pins[0]
        self._last_row = 1 << row_pins[-1]
        self._moves = array.array(
            "I", [0] + [(1 << row_pins[r - 1]) | (1 << row_pins[r]) for r in range(1, self.rows)]
        )
        self._consecutive = consecutive(col_pins)
        self._shift = col_pins[0]
        self._mask = (1 << self.cols) - 1
        self._col_bits = array.array("I", [1 << p for p in col_pins])

    def scan(self, out):
        """Read every row into out[r]; leaves all rows high (idle) afterwards."""
        mem = self._mem
        gpio_in = self._gpio_in
        out_xor = self._out_xor
        moves = self._moves
        mem[self._out_clr] = self._first_row
        if self._consecutive:
            shift = self._shift
            mask = self._mask
            out[0] = ~(mem[gpio_in] >> shift) & mask
            for r in range(1, self.rows):
                mem[out_xor] = moves[r]
                out[r] = ~(mem[gpio_in] >> shift) & mask
        else:
            out[0] = self._gather(mem[gpio_in])
            for r in range(1, self.rows):
                mem[out_xor] = moves[r]
                out[r] = self._gather(mem[gpio_in])
        mem[self._out_set] = self._last_row

    def _gather(self, level):
        bits = 0
        col_bits = self._col_bits
        for c in range(self.cols):
            if not level & col_bits[c]:
                bits |= 1 << c
        return bits


class DigitalSensor:
    """The matrix with its debouncer: 1 bit per cell in STATE."""

    bits = 1

    def __init__(self, config):
        self.rows = config.rows
        self.cols = config.cols
        self.matrix = DigitalMatrix(config.row_pins, config.col_pins, config.settle_us)
        self.raw = array.array("H", [0] * config.rows)
        self.debouncer = RowDebouncer(config.rows, config.cols, config.debounce_ms * 1000)

    def settling(self):
        return self.debouncer.settling()

    def update(self, elapsed_us):
        """Scan once and debounce; True when the settled state changed."""
        _scan(self.matrix, self.raw)
        return self.debouncer.update(self.raw, elapsed_us)

    def set_debounce_ms(self, debounce_ms):
        self.debouncer.debounce_us = debounce_ms * 1000

    def pack(self, buf, off):
        return _pack(self, buf, off)


def _pack_rows(sensor, buf, off):
    return messages.pack_rows_1bit(sensor.debouncer.cooked, sensor.rows, sensor.cols, buf, off)


if sys.platform == "rp2":
    from hotloops import scan_rows as _scan
else:
    _scan = DigitalMatrix.scan
if sys.implementation.name == "micropython":
    from hotloops import pack_rows_1bit as _pack
else:
    _pack = _pack_rows
