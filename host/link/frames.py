"""Frames on the serial line (docs/protocol.md): COBS, a 0x00 delimiter on each side, CRC-32.

The leading delimiter ends whatever noise came before, so the first frame
after a burst is read whole instead of being glued to the garbage.

A payload is version (u8), type (u8), sequence number (u16 LE), body, then
CRC-32 (u32 LE, zlib's) of everything before it.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import host.link.cobs as cobs

PROTOCOL_VERSION = 1
MAX_FRAME = 2048  # encoded bytes; the device never sends more than ~330
_HEADER = struct.Struct("<BBH")
_CRC = struct.Struct("<I")
_MIN_PAYLOAD = _HEADER.size + _CRC.size


class FrameError(ValueError):
    """Bytes between two delimiters that are not a frame; ``reason`` is a short tag."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Frame:
    version: int
    type: int
    seq: int
    body: bytes


def encode_frame(frame: Frame) -> bytes:
    """The bytes to send, both delimiters included."""
    payload = _HEADER.pack(frame.version, frame.type, frame.seq & 0xFFFF) + frame.body
    return b"\x00" + cobs.encode(payload + _CRC.pack(zlib.crc32(payload))) + b"\x00"


def decode_frame(encoded: bytes) -> Frame:
    """The frame encoded (delimiters removed); raises FrameError."""
    try:
        payload = cobs.decode(encoded)
    except cobs.CobsError as exc:
        raise FrameError("cobs", f"not COBS: {exc}") from None
    if len(payload) < _MIN_PAYLOAD:
        raise FrameError("short", f"{len(payload)} bytes, a frame has at least {_MIN_PAYLOAD}")
    (crc,) = _CRC.unpack_from(payload, len(payload) - _CRC.size)
    data = payload[: -_CRC.size]
    if zlib.crc32(data) != crc:
        raise FrameError("crc", f"CRC mismatch: frame says {crc:08x}, bytes give {zlib.crc32(data):08x}")
    version, msg_type, seq = _HEADER.unpack_from(data)
    return Frame(version, msg_type, seq, bytes(data[_HEADER.size :]))


class FrameSplitter:
    """Cuts a byte stream at 0x00 delimiters. Chunks longer than MAX_FRAME are
    reported as overflow (as None) and the rest of them skipped."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._overflowed = False

    def reset(self) -> None:
        self._pending.clear()
        self._overflowed = False

    def feed(self, data: bytes) -> list[bytes | None]:
        chunks: list[bytes | None] = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._overflowed:
                self._pending += piece
                if len(self._pending) > MAX_FRAME:
                    self._overflowed = True
                    self._pending.clear()
                    chunks.append(None)
            if end < 0:
                return chunks
            if self._overflowed:
                self._overflowed = False
            elif self._pending:
                chunks.append(bytes(self._pending))
            self._pending.clear()
            start = end + 1
