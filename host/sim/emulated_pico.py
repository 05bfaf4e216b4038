"""A Raspberry Pi Pico emulated instruction by instruction, running MicroPython's own rp2 port.

``EmulatedPico`` is the firmware side of the rig like ``FirmwareProcess``, one level
closer to the wood: ``emulator/pico.mjs`` runs the RP2040 emulator rp2040js with the
RP2040 boot ROM and a MicroPython UF2 built for the Pico (``../shared/rp2040/``
beside the repository, or ``$MAGBOARD_RP2040``), so the firmware meets the real
``machine``, ``neopixel``, USB CDC serial and littlefs. The USB serial port is a
pseudo-terminal (``port``) that pyserial, mpremote and ``magboard firmware deploy``
open as they open a Pico. The board's wiring goes to the emulated GPIOs and ADC:
``set_digital`` closes matrix switches (the emulator drives the column inputs from
the rows the firmware drives low, with the pull-ups the firmware set), ``set_analog``
sets what each multiplexer channel gives the ADC. NeoPixel frames the firmware
bit-bangs on its LED pin are decoded back into colours (``leds``, ``on_leds``).

The filesystem starts as a littlefs image holding the firmware and ``board_config.json``
(``deployed=True``, the quick way; ``boot_main=False`` leaves main.py out, so the REPL
answers, for measurements), or empty for a real deploy over ``port``. The flash
lives in a file for the emulator's lifetime, so ``restart`` and ``kill`` keep it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import firmware
from host.sim.firmware_process import (
    EMULATOR_DIR,
    FIRMWARE_DIR,
    FirmwareProcessError,
    Rgb,
    analog_muxes,
    digital_switches,
    empty_board,
    node_package_missing,
)
from host.sim.serial_pty import PicoProcess

ROOT = EMULATOR_DIR.parent
EMULATOR = EMULATOR_DIR / "pico.mjs"
UF2_NAME = "micropython-v1.28.0-RPI_PICO.uf2"
BOOTROM_NAME = "bootrom-b1.bin"
CONFIG_FILE = "board_config.json"

# MicroPython RPI_PICO's filesystem: littlefs2 at flash offset 0xA0000, 352 blocks of 4 KiB.
FS_BLOCK_SIZE = 4096
FS_BLOCK_COUNT = 352
FS_PROG_SIZE = 256
FS_READ_SIZE = 32
FS_LOOKAHEAD = 32


def rp2040_dir() -> Path:
    """Where the UF2 and the boot ROM are: $MAGBOARD_RP2040, else ../shared/rp2040 beside the clone."""
    configured = os.environ.get("MAGBOARD_RP2040")
    return Path(configured) if configured else ROOT.parent / "shared" / "rp2040"


def missing() -> str | None:
    """Why the emulated Pico cannot run here (one line), or None when it can."""
    reason = node_package_missing("rp2040js")
    if reason is not None:
        return reason
    for name in (UF2_NAME, BOOTROM_NAME):
        if not (rp2040_dir() / name).is_file():
            return f"no {name} in {rp2040_dir()} (set MAGBOARD_RP2040 to its folder)"
    return None


def filesystem_image(files: Mapping[str, bytes]) -> bytes:
    """A littlefs image the Pico's MicroPython mounts, holding files in its root."""
    from littlefs import LittleFS

    fs = LittleFS(
        block_size=FS_BLOCK_SIZE,
        block_count=FS_BLOCK_COUNT,
        prog_size=FS_PROG_SIZE,
        read_size=FS_READ_SIZE,
        lookahead_size=FS_LOOKAHEAD,
    )
    for name, data in files.items():
        with fs.open(name, "wb") as handle:
            handle.write(data)
    return bytes(fs.context.buffer)


def deployed_files(config: Mapping[str, object]) -> dict[str, bytes]:
    """What ``magboard firmware deploy`` leaves on a Pico: the device files and the board's config."""
    files = {name: (FIRMWARE_DIR / name).read_bytes() for name in firmware.DEVICE_FILES}
    files[CONFIG_FILE] = json.dumps(config).encode()
    return files


class EmulatedPico(PicoProcess):
    """One emulated Pico; use as a context manager. The interface is FirmwareProcess's."""

    error = FirmwareProcessError
    prefix = "magboard-emulated-pico-"
    # The emulated RP2040 runs a fifth to a third as fast as a Pico: a heartbeat (1 s of its time)
    # and its boot take that much longer on the host's clock.
    slowdown = 10.0

    def __init__(
        self,
        config: Mapping[str, object],
        *,
        on_leds: Callable[[list[Rgb]], None] | None = None,
        deployed: bool = True,
        boot_main: bool = True,
        led_pin: int | None = None,
    ) -> None:
        reason = missing()
        if reason is not None:
            raise FirmwareProcessError(f"cannot emulate a Pico: {reason}")
        super().__init__()
        self.config = dict(config)
        self._on_leds = on_leds
        self._deployed = deployed
        self._boot_main = boot_main
        configured = self.config.get("led_pin")
        if led_pin is None and isinstance(configured, int):
            led_pin = configured
        self._led_pin = led_pin
        self._control: socket.socket | None = None
        self._reader: threading.Thread | None = None
        self._send_lock = threading.Lock()
        self._wiring: dict[str, object] = self._initial_wiring()
        self._leds: list[Rgb] | None = None
        self._events: list[dict[str, object]] = []
        self._event = threading.Condition()
        self.boots = 0
        self.led_frames: list[tuple[int, list[Rgb]]] = []  # (emulated ns, colours) of every frame shown

    def _prepare(self) -> None:
        if self._deployed:
            files = deployed_files(self.config)
            if not self._boot_main:
                del files["main.py"]
            self._path("fs.img").write_bytes(filesystem_image(files))

    def _after_kill(self) -> None:
        if self._control is not None:
            with contextlib.suppress(OSError):
                self._control.shutdown(socket.SHUT_RDWR)
            self._control.close()
            self._control = None
        if self._reader is not None:
            self._reader.join(timeout=2.0)
            self._reader = None

    def wait_for(self, event: str, timeout: float, after: int = 0) -> dict[str, object]:
        """The first emulator event of a kind (``usb``, ``boot``, ``leds``, ...) from index ``after`` on."""
        with self._event:
            found = self._event.wait_for(lambda: self._find(event, after) is not None, timeout)
            if not found:
                raise TimeoutError(f"the emulated Pico sent no {event!r} event within {timeout} s")
            return self._find(event, after)  # type: ignore[return-value]

    @property
    def event_count(self) -> int:
        with self._event:
            return len(self._events)

    def events(self, kind: str) -> list[dict[str, object]]:
        with self._event:
            return [e for e in self._events if e.get("event") == kind]

    # --- the sensors ------------------------------------------------------------------------

    def set_digital(self, matrix: Sequence[Sequence[bool]]) -> None:
        """Close (True) or open every switch of the matrix, row by row."""
        closed = digital_switches(self.config, matrix)
        self._rewire(self._switches(closed))

    def set_analog(self, values: Sequence[Sequence[int]]) -> None:
        """Set every sensor's ADC reading (read_u16 units), multiplexer by multiplexer."""
        adc, select, muxes = analog_muxes(self.config, values)
        self._rewire({"kind": "muxes", "adc": adc, "select": select, "muxes": muxes})

    @property
    def leds(self) -> list[Rgb] | None:
        """The colours last decoded from the NeoPixel data pin, or None before any."""
        return self._leds

    def trace(self, on: bool) -> None:
        """Report the emulated time of every wiring change (``wired``) and USB transfer (``tx``)."""
        self._send({"op": "trace", "on": on})

    def settle(self, timeout: float) -> tuple[int, int | None]:
        """(reads, least ns) since the last call: how many times the firmware read its sensors
        (ADC conversions, or GPIO_IN reads of a matrix) after a select line changed (a
        multiplexer's select or enable, a matrix row), and the shortest emulated time from the
        last change to a read (None without reads)."""
        mark = self.event_count
        self._send({"op": "settle"})
        event = self.wait_for("settle", timeout, mark)
        return _whole(event, "reads"), None if event.get("min_gap_ns") is None else _whole(
            event, "min_gap_ns"
        )

    def stamp(self, tag: str) -> None:
        """Ask for the emulated clock now without waiting: a ``time`` event with this tag follows."""
        self._send({"op": "time", "tag": tag})

    def now_ns(self, timeout: float) -> int:
        """The emulated clock now (to within the emulator's 1 ms batches of emulated time)."""
        mark = self.event_count
        self._send({"op": "time"})
        return _whole(self.wait_for("time", timeout, mark), "t")

    # --- internals ------------------------------------------------------------------------

    def _mask(self, key: str) -> int:
        pins = self.config.get(key)
        return sum(1 << pin for pin in pins if isinstance(pin, int)) if isinstance(pins, list) else 0

    def _switches(self, closed: list[tuple[int, int]]) -> dict[str, object]:
        return {
            "kind": "switches",
            "switches": closed,
            "columns": self._mask("col_pins"),
            "rows": self._mask("row_pins"),
        }

    def _initial_wiring(self) -> dict[str, object]:
        try:
            board = empty_board(self.config)
            if self.config.get("sensor") == "hall_analog":
                adc, select, muxes = analog_muxes(self.config, board)
                return {"kind": "muxes", "adc": adc, "select": select, "muxes": muxes}
            return self._switches(digital_switches(self.config, [[bool(v) for v in row] for row in board]))
        except (FirmwareProcessError, ValueError, TypeError, AttributeError):
            return {
                "kind": "switches",
                "switches": [],
                "columns": 0,
                "rows": 0,
            }  # a config the firmware refuses

    def _rewire(self, wiring: dict[str, object]) -> None:
        self._wiring = wiring
        self._send({"op": "wire", **wiring})

    def _send(self, message: dict[str, object]) -> None:
        control = self._control
        if control is None:
            return
        # An emulator that died misses the message; the next one starts with the wiring as it is.
        with self._send_lock, contextlib.suppress(OSError):
            control.sendall(json.dumps(message).encode() + b"\n")

    def _spawn(self) -> None:
        assert self._pty is not None
        ours, theirs = socket.socketpair()
        folder = rp2040_dir()
        command = [
            "node",
            str(EMULATOR),
            "--uf2", str(folder / UF2_NAME),
            "--bootrom", str(folder / BOOTROM_NAME),
            "--flash", str(self._path("flash.bin")),
            "--serial-fd", str(self._pty.master),
            "--control-fd", str(theirs.fileno()),
        ]  # fmt: skip
        image = self._path("fs.img")
        if image.exists():
            command += ["--fs-image", str(image)]
        with self._path("stderr.txt").open("wb") as stderr:
            self._proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=stderr,
                stderr=stderr,
                pass_fds=(self._pty.master, theirs.fileno()),
                start_new_session=True,
            )
        theirs.close()
        self._control = ours
        self._reader = threading.Thread(target=self._read_events, args=(ours,), daemon=True)
        self._reader.start()
        self._send({"op": "wire", **self._wiring})
        if self._led_pin is not None:
            self._send({"op": "leds", "pin": self._led_pin})

    def _read_events(self, control: socket.socket) -> None:
        with contextlib.suppress(OSError), control.makefile("rb") as lines:
            for line in lines:
                event = json.loads(line)
                kind = event.get("event")
                if kind == "boot":
                    self.boots += 1
                elif kind == "leds":
                    self._show(event)
                with self._event:
                    self._events.append(event)
                    self._event.notify_all()

    def _show(self, event: dict[str, object]) -> None:
        data = bytes.fromhex(str(event["data"]))
        # WS2812 wire order is GRB (MicroPython's neopixel default).
        colours = [(data[i + 1], data[i], data[i + 2]) for i in range(0, len(data) - 2, 3)]
        self._leds = colours
        self.led_frames.append((_whole(event, "t"), colours))
        if self._on_leds is not None:
            self._on_leds(colours)

    def _find(self, event: str, after: int) -> dict[str, object] | None:
        for item in self._events[after:]:
            if item.get("event") == event:
                return item
        return None


def _whole(event: Mapping[str, object], key: str) -> int:
    """A whole number the emulator's event carries (emulator/pico.mjs sends them)."""
    value = event[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise FirmwareProcessError(f"the emulator's {event.get('event')!r} event: {key} is {value!r}")
    return int(value)
