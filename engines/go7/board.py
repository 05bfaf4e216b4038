"""The 7x7 Go board as bitboards: stones of one colour are one 49-bit int.

Point i is bit i, numbered rank by rank from a1 (``GEOMETRY``'s order, which is
also OpenSpiel's action number for the point), so a group, its liberties and a
capture are a few shifts and masks.  Pure data and pure functions of
bitboards; the rules that use them (turns, ko, the end) are in
engines/go7/rules.py.
"""

from __future__ import annotations

from engines.bits import cells_of
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


def _ring(point: int, distance: int) -> int:
    q, r = GEOMETRY.coords[point]
    return sum(1 << i for i, (qq, rr) in enumerate(GEOMETRY.coords) if abs(qq - q) + abs(rr - r) == distance)


NEAR: tuple[tuple[int, int], ...] = tuple((_ring(p, 1), _ring(p, 2)) for p in range(POINTS))
DEAD_MARGIN = 2  # a stone is counted dead when the opponent's weight around it beats its own by more


def weight(stones: int, point: int) -> int:
    """The weight of ``stones`` around ``point``: 2 for each next to it, 1 for each two steps away."""
    one, two = NEAR[point]
    return 2 * (stones & one).bit_count() + (stones & two).bit_count()


def dead_stones(black: int, white: int) -> tuple[int, int]:
    """(Black's, White's) stones estimated dead, one by one: those whose surroundings weigh more for the
    opponent than for their own colour, by more than DEAD_MARGIN (the search's estimate of the area)."""
    dead_black = dead_white = 0
    for point in cells_of(black):
        if weight(white, point) > weight(black, point) + DEAD_MARGIN:
            dead_black |= 1 << point
    for point in cells_of(white):
        if weight(black, point) > weight(white, point) + DEAD_MARGIN:
            dead_white |= 1 << point
    return dead_black, dead_white


def dead_groups(black: int, white: int) -> int:
    """The stones to propose dead at the end of a game: whole groups, those most of whose stones
    ``dead_stones`` counts dead (players take a group off whole, never half of it)."""
    proposed = 0
    for stones, dead in zip((black, white), dead_stones(black, white), strict=True):
        left = stones
        while left:
            chain = group(left & -left, stones)
            left &= ~chain
            if 2 * (chain & dead).bit_count() > chain.bit_count():
                proposed |= chain
    return proposed
