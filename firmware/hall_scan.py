"""Linear Hall sensors behind analog multiplexers (e.g. CD74HC4067) into one ADC.

Rows are multiplexers (one active-low enable each), columns their channels
(four shared select lines). Moving to the next sensor, channel and multiplexer
at once, is one register write (GPIO_OUT_XOR), so a scan costs two operations
per sensor: a write and an ADC read.

AnalogMatrix.scan and calibration.classify_cells are the plain Python references, which the
simulated chip runs; on the rp2 port the scan is hotloops.scan_muxes, which also waits
settle_us after each write for the multiplexer's output to settle, and under MicroPython the
classification is hotloops.classify_cells. The simulated chip's ADC reads the selected channel
at once, so the reference does not wait.
"""

import array
import sys

import machine
from debounce import CellDebouncer
from matrix_scan import SIO_GPIO_OUT_CLR, SIO_GPIO_OUT_SET, SIO_GPIO_OUT_XOR


def _select_mask(select_pins, channel):
    mask = 0
    for bit in range(len(select_pins)):
        if channel & (1 << bit):
            mask |= 1 << select_pins[bit]
    return mask


def _moves(select_pins, enable_pins, cols):
    """The GPIO_OUT_XOR mask that moves to each sensor from the one before: the select lines
    from the previous channel (the last one, before the first) and, at channel 0 of every
    multiplexer but the first, the enable from the previous multiplexer to this one."""
    moves = []
    for m in range(len(enable_pins)):
        for ch in range(cols):
            move = _select_mask(select_pins, ch) ^ _select_mask(select_pins, (ch - 1) % cols)
            if m and not ch:
                move |= (1 << enable_pins[m - 1]) | (1 << enable_pins[m])
            moves.append(move)
    return array.array("I", moves)


class AnalogMatrix:
    """Reads every sensor's raw ADC value (read_u16 units) into raw[mux * cols + channel]."""

    def __init__(self, select_pins, enable_pins, adc_pin, cols, settle_us):
        pin = machine.Pin
        self.rows = len(enable_pins)
        self.cols = cols
        self.count = self.rows * cols
        self.settle_us = settle_us
        last = cols - 1
        self._pins = [pin(p, pin.OUT, value=(last >> i) & 1) for i, p in enumerate(select_pins)]
        self._pins.extend(pin(p, pin.OUT, value=1) for p in enable_pins)
        self._adc = machine.ADC(pin(adc_pin))
        # ADC CS: EN, AINSEL = the pin's channel, START_ONCE (for the register scan).
        self._adc_start = 1 | ((adc_pin - 26) << 12) | 4
        self._mem = machine.mem32
        self._out_set = SIO_GPIO_OUT_SET
        self._out_clr = SIO_GPIO_OUT_CLR
        self._out_xor = SIO_GPIO_OUT_XOR
        self._moves = _moves(select_pins, enable_pins, cols)
        self._first_mux = 1 << enable_pins[0]
        self._last_mux = 1 << enable_pins[-1]

    def scan(self, raw):
        mem = self._mem
        out_xor = self._out_xor
        adc = self._adc  # adc.read_u16() allocates nothing; keeping "read = adc.read_u16" would, every scan
        moves = self._moves
        mem[self._out_clr] = self._first_mux
        for i in range(self.count):
            mem[out_xor] = moves[i]
            raw[i] = adc.read_u16()
        mem[self._out_set] = self._last_mux


class HallSensor:
    """Raw readings -> codes (with hysteresis) -> debounced codes: 2 bits per cell in STATE."""

    bits = 2

    def __init__(self, config):
        self.rows = config.rows
        self.cols = config.cols
        count = config.rows * config.cols
        self.count = count
        self.matrix = AnalogMatrix(
            config.mux_select_pins, config.mux_enable_pins, config.adc_pin, config.cols, config.settle_us
        )
        self.raw = array.array("H", [0] * count)
        self.codes = bytearray(count)
        self.zero = array.array("H", config.zero)
        self.limits = array.array("i", (config.threshold, config.strong_threshold, config.hysteresis))
        self.debouncer = CellDebouncer(count, config.debounce_ms * 1000)

    def settling(self):
        return self.debouncer.settling()

    def update(self, elapsed_us):
        """Scan once, classify and debounce; True when the settled state changed."""
        _scan(self.matrix, self.raw)
        _classify_cells(self.raw, self.zero, self.codes, self.limits)
        return self.debouncer.update(self.codes, elapsed_us)

    def set_debounce_ms(self, debounce_ms):
        self.debouncer.debounce_us = debounce_ms * 1000

    def pack(self, buf, off):
        return _pack_cells_2bit(self.debouncer.cooked, self.count, buf, off)


if sys.platform == "rp2":
    from hotloops import scan_muxes as _scan
else:
    _scan = AnalogMatrix.scan
if sys.implementation.name == "micropython":
    from hotloops import classify_cells as _classify_cells
    from hotloops import pack_cells_2bit as _pack_cells_2bit
else:
    from calibration import classify_cells as _classify_cells
    from messages import pack_cells_2bit as _pack_cells_2bit
