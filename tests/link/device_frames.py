"""Device messages as wire bytes, for tests that play the device's part.

An encoding written from docs/protocol.md for the tests only; the tests check
it against the shared vectors before trusting it.
"""

from __future__ import annotations

import struct

from host.link.frames import PROTOCOL_VERSION, Frame, encode_frame
from host.link.messages import pack_cells


def frame(msg_type: int, body: bytes, seq: int) -> bytes:
    return encode_frame(Frame(PROTOCOL_VERSION, msg_type, seq, body))


def hello_body(
    *,
    boot_id: int,
    board: str,
    rows: int,
    cols: int,
    sensor: int = 0,
    bits: int = 1,
    status: int = 0,
    caps: int = 0,
    led_count: int = 0,
    firmware: tuple[int, int, int] = (0, 1, 0),
    timing: tuple[int, int, int] = (5, 1000, 1000),
) -> bytes:
    name = board.encode()
    return (
        struct.pack(
            "<BBBBIBBBBBHHHHH",
            1,
            *firmware,
            boot_id,
            status,
            sensor,
            rows,
            cols,
            bits,
            caps,
            led_count,
            *timing,
        )
        + bytes([len(name)])
        + name
    )


def state_body(
    *,
    boot_id: int,
    values: list[int],
    rows: int,
    cols: int,
    bits: int = 1,
    generation: int = 0,
    settled_ms: int = 0,
) -> bytes:
    return struct.pack("<IIIBBB", boot_id, generation, settled_ms, rows, cols, bits) + pack_cells(
        values, bits
    )


def heartbeat_body(
    *,
    boot_id: int,
    uptime_ms: int = 1000,
    scans_per_second: int = 1000,
    max_scan_us: int = 200,
    deadline_misses: int = 0,
    rx_rejected: int = 0,
    rx_overflows: int = 0,
    naks: int = 0,
    free_bytes: int = 150000,
) -> bytes:
    return struct.pack(
        "<IIHHIHHHI",
        boot_id,
        uptime_ms,
        scans_per_second,
        max_scan_us,
        deadline_misses,
        rx_rejected,
        rx_overflows,
        naks,
        free_bytes,
    )


def ack_body(seq: int, command: int, echo: bytes = b"") -> bytes:
    return struct.pack("<HB", seq, command) + echo


def nak_body(seq: int, command: int, reason: int, message: str) -> bytes:
    return struct.pack("<HBB", seq, command, reason) + message.encode()


def log_body(level: int, text: str) -> bytes:
    return bytes([level]) + text.encode()
