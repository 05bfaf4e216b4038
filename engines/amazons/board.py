"""The Amazons board as bitboards: Python ints with bit ``cell`` set for each square (a1 = 0, j10 = 99).

A queen's reach along one ray ends before the nearest occupied square; on a
ray that ascends in cell numbers that is the lowest set bit of the occupied
squares on it, on the others the highest.  So a ray's reachable squares are a
prefix of its squares, found with one mask, one bit scan and a table lookup,
and move generation never walks a ray square by square.
"""

from __future__ import annotations

from engines.bits import cells_of
from engines.geometry import square_grid

GEOMETRY = square_grid(10, 10)
SIZE = GEOMETRY.size
FULL = (1 << SIZE) - 1
NAMES = GEOMETRY.names

# RAYS[cell]: one tuple per direction of the squares from ``cell`` to the edge, nearest first.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for ray in (GEOMETRY.ray(c, d) for d in range(8)) if ray) for c in range(SIZE)
)
# BEFORE[a][b]: how many squares lie strictly between a and b (b on one of a's rays).
BEFORE = tuple(tuple(GEOMETRY.distance(a, b) - 1 for b in range(SIZE)) for a in range(SIZE))
# NEAR[cell]: the squares one king step away, as a bitboard.
NEAR = tuple(sum(1 << n for n in GEOMETRY.neighbours(c)) for c in range(SIZE))

# RAY_TABLE[cell]: for each ray, (its squares as a bitboard, whether it ascends, its squares).
Ray = tuple[int, bool, tuple[int, ...]]
RAY_TABLE: tuple[tuple[Ray, ...], ...] = tuple(
    tuple((sum(1 << c for c in ray), ray[0] > cell, ray) for ray in RAYS[cell]) for cell in range(SIZE)
)


def reach(cell: int, occupied: int) -> list[int]:
    """The squares a queen on ``cell`` reaches in one move across the empty squares (``occupied`` blocks)."""
    out: list[int] = []
    before = BEFORE[cell]
    for mask, ascending, squares in RAY_TABLE[cell]:
        block = occupied & mask
        if not block:
            out += squares
        elif ascending:
            out += squares[: before[(block & -block).bit_length() - 1]]
        else:
            out += squares[: before[block.bit_length() - 1]]
    return out


def reach_count(cell: int, occupied: int) -> int:
    """``len(reach(cell, occupied))`` without listing the squares."""
    n = 0
    before = BEFORE[cell]
    for mask, ascending, squares in RAY_TABLE[cell]:
        block = occupied & mask
        if not block:
            n += len(squares)
        elif ascending:
            n += before[(block & -block).bit_length() - 1]
        else:
            n += before[block.bit_length() - 1]
    return n


def can_step(amazons: int, occupied: int) -> bool:
    """Whether any of ``amazons`` has an empty square next to it: exactly when its side has a legal turn
    (a queen move, then the arrow back onto the square it left)."""
    near = 0
    for cell in cells_of(amazons):
        near |= NEAR[cell]
    return bool(near & ~occupied)
