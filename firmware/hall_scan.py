"""Linear Hall sensors behind analog multiplexers (e.g. CD74HC4067) into one ADC.

Rows are multiplexers (one active-low enable each), columns their channels
(four shared select lines). Moving to the next channel or multiplexer is one
register write (GPIO_OUT_XOR), so a scan costs two operations per sensor: a
write and an ADC read.
"""

import array

import calibration
import machine
import messages
from debounce import CellDebouncer
from matrix_scan import SIO_GPIO_OUT_CLR, SIO_GPIO_OUT_SET, SIO_GPIO_OUT_XOR


def _select_mask(select_pins, channel):
    mask = 0
    for bit in range(len(select_pins)):
        if channel & (1 << bit):
            mask |= 1 << select_pins[bit]
    return mask


class AnalogMatrix:
    """Reads every sensor's raw ADC value (read_u16 units) into raw[mux * cols + channel]."""

    def __init__(self, select_pins, enable_pins, adc_pin, cols):
        pin = machine.Pin
        self.rows = len(enable_pins)
        self.cols = cols
        last = cols - 1
        self._pins = [pin(p, pin.OUT, value=(last >> i) & 1) for i, p in enumerate(select_pins)]
        self._pins.extend(pin(p, pin.OUT, value=1) for p in enable_pins)
        self._adc = machine.ADC(pin(adc_pin))
        self._mem = machine.mem32
        self._out_set = SIO_GPIO_OUT_SET
        self._out_clr = SIO_GPIO_OUT_CLR
        self._out_xor = SIO_GPIO_OUT_XOR
        self._channel_moves = [
            _select_mask(select_pins, ch) ^ _select_mask(select_pins, (ch - 1) % cols) for ch in range(cols)
        ]
        self._first_mux = 1 << enable_pins[0]
        self._last_mux = 1 << enable_pins[-1]
        self._mux_moves = [0]
        for m in range(1, self.rows):
            self._mux_moves.append((1 << enable_pins[m - 1]) | (1 << enable_pins[m]))

    def scan(self, raw):
        mem = self._mem
        out_xor = self._out_xor
        adc = self._adc  # adc.read_u16() allocates nothing; keeping "read = adc.read_u16" would, every scan
        channel_moves = self._channel_moves
        mux_moves = self._mux_moves
        cols = self.cols
        mem[self._out_clr] = self._first_mux
        i = 0
        for m in range(self.rows):
            if m:
                mem[out_xor] = mux_moves[m]
            for ch in range(cols):
                mem[out_xor] = channel_moves[ch]
                raw[i] = adc.read_u16()
                i += 1
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
            config.mux_select_pins, config.mux_enable_pins, config.adc_pin, config.cols
        )
        self.raw = array.array("H", [0] * count)
        self.codes = bytearray(count)
        self.zero = array.array("H", config.zero)
        self.threshold = config.threshold
        self.strong = config.strong_threshold
        self.hysteresis = config.hysteresis
        self.debouncer = CellDebouncer(count, config.debounce_ms * 1000)

    def settling(self):
        return self.debouncer.settling()

    def update(self, elapsed_us):
        """Scan once, classify and debounce; True when the settled state changed."""
        self.matrix.scan(self.raw)
        raw = self.raw
        codes = self.codes
        zero = self.zero
        threshold = self.threshold
        strong = self.strong
        hysteresis = self.hysteresis
        classify = calibration.classify
        for i in range(self.count):
            codes[i] = classify(codes[i], raw[i] - zero[i], threshold, strong, hysteresis)
        return self.debouncer.update(codes, elapsed_us)

    def set_debounce_ms(self, debounce_ms):
        self.debouncer.debounce_us = debounce_ms * 1000

    def pack(self, buf, off):
        return messages.pack_cells_2bit(self.debouncer.cooked, self.count, buf, off)
