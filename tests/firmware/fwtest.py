"""Shared helpers for the firmware tests, which run under CPython (pytest) and
under MicroPython (mpy_runner.py). Importing this module puts the firmware and
the simulated RP2040 on the import path and loads the firmware's hardware
modules against the simulated ``machine`` and ``neopixel``; those two names are
then taken out of sys.modules again, so that nothing else in a pytest session
(the Adafruit neopixel, for one) sees them. MicroPython-compatible.
"""

import binascii
import json
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
FIRMWARE = HERE + "/../../firmware"
for _path in (FIRMWARE + "/sim", FIRMWARE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import fake_machine  # noqa: E402
import fake_neopixel  # noqa: E402

_previous = {name: sys.modules.get(name) for name in ("machine", "neopixel")}
sys.modules["machine"] = fake_machine
sys.modules["neopixel"] = fake_neopixel
import device  # noqa: E402, F401  (each binds the simulated chip as it loads)
import hall_scan  # noqa: E402, F401
import leds  # noqa: E402, F401
import matrix_scan  # noqa: E402, F401

for _name, _module in _previous.items():
    if _module is None:
        del sys.modules[_name]
    else:
        sys.modules[_name] = _module

_vectors = None


def vectors():
    """The wire-protocol test vectors shared with the host's tests."""
    global _vectors
    if _vectors is None:
        with open(HERE + "/protocol_vectors.json") as handle:
            _vectors = json.load(handle)
    return _vectors


def unhex(text):
    return binascii.unhexlify(text)


def hexed(data):
    return binascii.hexlify(bytes(data)).decode()


def check(condition, message):
    """An assertion that says what went wrong under both interpreters."""
    if not condition:
        raise AssertionError(message)


class FakePort:
    """The USB port as the device sees it: bytes queued for reading, bytes written."""

    def __init__(self):
        self.incoming = bytearray()
        self.sent = bytearray()

    def read_into(self, buf, limit):
        count = min(limit, len(self.incoming))
        buf[:count] = self.incoming[:count]
        self.incoming = self.incoming[count:]
        return count

    def write(self, buf, length):
        self.sent.extend(bytes(buf[:length]))

    def take_frames(self):
        """The frames written so far (delimiters removed), clearing them."""
        frames = [frame for frame in bytes(self.sent).split(b"\x00")[:-1] if frame]
        self.sent = bytearray()
        return frames


def reed_config(rows=3, cols=4, **changes):
    """A valid reed board_config document: rows on GPIO 0.., columns right after."""
    data = {
        "version": 1,
        "board": "test-reed",
        "sensor": "reed",
        "rows": rows,
        "cols": cols,
        "row_pins": list(range(rows)),
        "col_pins": list(range(rows, rows + cols)),
        "led_pin": None,
        "led_count": 0,
        "debounce_ms": 5,
        "scan_period_us": 1000,
        "heartbeat_ms": 1000,
    }
    data.update(changes)
    return data


def hall_config(rows=2, cols=3, **changes):
    """A valid analog Hall board_config document with a flat calibration."""
    data = {
        "version": 1,
        "board": "test-hall",
        "sensor": "hall_analog",
        "rows": rows,
        "cols": cols,
        "mux_select_pins": [2, 3, 4, 5],
        "mux_enable_pins": [6 + m for m in range(rows)],
        "adc_pin": 26,
        "calibration": {"zero": [30000] * (rows * cols), "threshold": 2000, "hysteresis": 500},
        "debounce_ms": 5,
        "scan_period_us": 1000,
        "heartbeat_ms": 1000,
    }
    data.update(changes)
    return data


def decode_frames(frames):
    """(type, seq, body) of each frame written by the device, checked by the firmware's own receiver."""
    import wire

    out = []
    for frame in frames:
        receiver = wire.FrameReceiver(1024)
        length = 0
        for byte in frame + b"\x00":
            length = receiver.push(byte)
        check(length > 0, "device sent a frame its own receiver rejects: " + hexed(frame))
        buf = receiver.buf
        out.append((buf[1], buf[2] | (buf[3] << 8), bytes(buf[4 : length - 4])))
    return out
