"""Runs of cells in the making, the evaluation Space Tiles and Flip Four share.

A window (a set of cells in a row, as an int) that holds pieces of one colour
only could still become that colour's run; its weight grows with how full it
is.  The windows are kept in chunks of CHUNK, each with the cells it covers,
so that a stretch of windows without any piece is skipped at once; the others
add up in window order, the same float sum as a plain loop over every window.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_

CHUNK = 6

Chunks = tuple[tuple[int, tuple[int, ...]], ...]


def chunked(windows: Sequence[int]) -> Chunks:
    parts = (tuple(windows[i : i + CHUNK]) for i in range(0, len(windows), CHUNK))
    return tuple((reduce(or_, part), part) for part in parts)


def window_balance(chunks: Chunks, first: int, second: int, weights: Sequence[float]) -> float:
    """The weights of the windows only ``first`` has pieces in, less those only ``second`` has."""
    raw = 0.0
    occupied = first | second
    for cover, windows in chunks:
        if not cover & occupied:
            continue
        for window in windows:
            a = first & window
            b = second & window
            if a and not b:
                raw += weights[a.bit_count()]
            elif b and not a:
                raw -= weights[b.bit_count()]
    return raw
