"""Sets of cells as ints (bit ``c`` for cell index ``c``), shared by the games that keep boards that way."""

from __future__ import annotations


def cells_of(mask: int) -> list[int]:
    """The cell indices in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
