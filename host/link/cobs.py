"""Consistent Overhead Byte Stuffing (the host's side of the framing).

Written independently of the firmware's in-place encoder; both are pinned to
the same test vectors, so a frame means the same bytes on both ends.
"""

from __future__ import annotations


class CobsError(ValueError):
    """Bytes that no COBS encoder produces."""


def encode(data: bytes) -> bytes:
    """The canonical encoding of data, without the 0x00 delimiter.

    Canonical: a final run that fills whole 254-byte blocks gets no empty
    block after it (Wikipedia's and the firmware's encoder agree on this).
    """
    out = bytearray()
    runs = data.split(b"\0")
    for index, run in enumerate(runs):
        last = index == len(runs) - 1
        while len(run) >= 254:
            out.append(255)
            out += run[:254]
            run = run[254:]
            if not run and last:
                return bytes(out)
        out.append(len(run) + 1)
        out += run
    return bytes(out)


def decode(data: bytes) -> bytes:
    """The bytes data encodes (delimiter already removed)."""
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0:
            raise CobsError(f"zero byte at offset {i} inside a frame")
        end = i + code
        if end > len(data):
            raise CobsError(f"block at offset {i} runs {end - len(data)} bytes past the end")
        block = data[i + 1 : end]
        if 0 in block:
            raise CobsError(f"zero byte at offset {i + 1 + block.index(0)} inside a frame")
        out += block
        i = end
        if code != 255 and i < len(data):
            out.append(0)
    return bytes(out)
