"""Ways to spoil a good input: what a torn write, a bad editor, a hostile author or a fuzzer makes of it."""

from __future__ import annotations

import random
from collections.abc import Callable

NASTY_NUMBERS = ("9" * 30, "9" * 5000, "-1", "0", "²", "٣", "1_000", "0x10", "1e400", "nan", "+", "")
NASTY_CHARS = ("\x00", "\x1b[2J", "\x07", "\x9b", "\u202e", "\u2066", "\r", "\n", "\ufeff", "\udcff", "\\")


def _flip(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    spoilt = bytearray(data)
    for _ in range(rng.randrange(1, 8)):
        spoilt[rng.randrange(len(spoilt))] = rng.randrange(256)
    return bytes(spoilt)


def _insert(rng: random.Random, data: bytes, piece: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + piece + data[at:]


def _char(rng: random.Random, data: bytes) -> bytes:
    return _insert(rng, data, rng.choice(NASTY_CHARS).encode("utf-8", "surrogatepass"))


def _number(rng: random.Random, data: bytes) -> bytes:
    """A number in the text replaced by one no one means."""
    digits = [i for i, byte in enumerate(data) if 0x30 <= byte <= 0x39]
    if not digits:
        return _insert(rng, data, rng.choice(NASTY_NUMBERS).encode())
    at = rng.choice(digits)
    return data[:at] + rng.choice(NASTY_NUMBERS).encode() + data[at + 1 :]


def _deep(rng: random.Random, data: bytes) -> bytes:
    depth = rng.choice((40, 3000, 50_000))
    piece = rng.choice((b"a" + b".a" * depth + b" = 1\n", b"x = " + b"[" * depth + b"\n", b"[" * depth))
    return _insert(rng, data, piece)


def _lines(rng: random.Random, data: bytes) -> bytes:
    lines = data.split(b"\n")
    line = rng.choice(lines)
    kind = rng.randrange(3)
    if kind == 0:
        return data + b"\n" + (line + b"\n") * rng.choice((2, 1000, 100_000))
    if kind == 1 and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    return b"\n".join(lines[: rng.randrange(len(lines) + 1)])


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _binary(rng: random.Random, data: bytes) -> bytes:
    return _insert(rng, data, rng.randbytes(rng.choice((1, 100, 5000))))


def _huge_value(rng: random.Random, data: bytes) -> bytes:
    return _insert(rng, data, b"x" * rng.choice((300, 70_000, 2_000_000)))


MUTATIONS: dict[str, Callable[[random.Random, bytes], bytes]] = {
    "byte flips": _flip,
    "control characters": _char,
    "numbers": _number,
    "deep nesting": _deep,
    "lines": _lines,
    "truncated": _truncate,
    "binary": _binary,
    "huge values": _huge_value,
}


def mutate(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """One spoilt copy of ``data`` and the name of how it was spoilt (sometimes twice over)."""
    name = rng.choice(list(MUTATIONS))
    spoilt = MUTATIONS[name](rng, data)
    if rng.random() < 0.3:
        spoilt = MUTATIONS[rng.choice(list(MUTATIONS))](rng, spoilt)
    return name, spoilt
