"""The 7x7 Go board as bitboards: stones of one colour are one 49-bit int.

Point i is bit i, numbered rank by rank from a1 (``GEOMETRY``'s order, which is
also OpenSpiel's action number for the point), so a group, its liberties and a
capture are a few shifts and masks.  Pure data and pure functions of
bitboards; the rules that use them (turns, ko, the end) are in
engines/go7/rules.py.
"""

from __future__ import annotations

from engines.geometry import SQUARE_AXES, Geometry, square_grid

SIDE = 7
KOMI = 7.5  # points added to White's area: OpenSpiel's default, and the half point rules out a tie
_GRID = square_grid(SIDE, SIDE)
# Go's points touch along the lines only: four directions, so ``neighbours`` are a point's liberties
# and the page draws the board's lines between them.
ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))
GEOMETRY = Geometry("square", _GRID.names, _GRID.coords, ORTHOGONAL, SQUARE_AXES)
POINTS = GEOMETRY.size
NAMES = GEOMETRY.names
FULL = (1 << POINTS) - 1
PASS = POINTS  # the move that passes (49): the same number as OpenSpiel's pass action

_FILE_A = sum(1 << (rank * SIDE) for rank in range(SIDE))
_FILE_G = _FILE_A << (SIDE - 1)
NOT_FILE_A = FULL & ~_FILE_A
NOT_FILE_G = FULL & ~_FILE_G

# NEIGHBOURS[i]: the mask of the points next to point i.
NEIGHBOURS: tuple[int, ...] = tuple(sum(1 << n for n in GEOMETRY.neighbours(i)) for i in range(POINTS))
NEIGHBOUR_LISTS: tuple[tuple[int, ...], ...] = tuple(GEOMETRY.neighbours(i) for i in range(POINTS))


def spread(bits: int) -> int:
    """``bits`` and every point next to one of them."""
    return bits | (bits << 1) & NOT_FILE_A | (bits >> 1) & NOT_FILE_G | (bits << SIDE) & FULL | bits >> SIDE


def group(seed: int, stones: int) -> int:
    """The group (chain of stones joined along the lines) of the stones ``stones`` holding bit ``seed``."""
    found = seed
    while True:
        grown = spread(found) & stones
        if grown == found:
            return found
        found = grown


def liberties(chain: int, empty: int) -> int:
    """The empty points next to ``chain``."""
    return spread(chain) & empty & ~chain


def area(black: int, white: int) -> tuple[int, int, int, int]:
    """Tromp-Taylor area: (Black's points, White's points, Black's empty points, White's empty points).

    A player's points are their stones and the empty points from which only
    their stones can be reached (along empty points); an empty region touching
    both colours, or neither, counts for nobody.
    """
    empty = FULL & ~(black | white)
    black_empty = white_empty = 0
    left = empty
    while left:
        region = group(left & -left, empty)
        left &= ~region
        rim = spread(region) & ~region
        if rim & black and not rim & white:
            black_empty |= region
        elif rim & white and not rim & black:
            white_empty |= region
    return (black | black_empty).bit_count(), (white | white_empty).bit_count(), black_empty, white_empty
