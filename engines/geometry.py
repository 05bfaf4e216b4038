"""Board geometry shared by the rules engines and the hardware descriptions.

A ``Geometry`` is a set of named cells with integer coordinates, the unit steps
between neighbours, and the axes along which lines run.  Square grids and the
two hexagonal boards differ only in their coordinates and directions, so the
rules engines, the hardware files (cell positions in mm) and the move tracker
(distances for pairing missing and extra objects) all use one type.

Cells are numbered 0..n-1 rank by rank from the rank nearest player 0, files
left to right: index order is the order of ``names``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from engines.pickling import by_fields

Coord = tuple[int, int]

SQUARE_DIRECTIONS: tuple[Coord, ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
SQUARE_AXES: tuple[Coord, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))
HEX_DIRECTIONS: tuple[Coord, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
HEX_AXES: tuple[Coord, ...] = ((1, 0), (0, 1), (1, -1))

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Geometry:
    """Named cells with coordinates; ``shape`` is "square" or "hex"."""

    shape: str
    names: tuple[str, ...]
    coords: tuple[Coord, ...]
    directions: tuple[Coord, ...]
    axes: tuple[Coord, ...]
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    _at: dict[Coord, int] = field(init=False, repr=False, compare=False)
    steps: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[type[Geometry], tuple[object, ...]]:
        return by_fields(self)

    def __post_init__(self) -> None:
        if len(self.names) != len(self.coords):
            raise ValueError("every cell needs exactly one name and one coordinate")
        if len(set(self.names)) != len(self.names) or len(set(self.coords)) != len(self.coords):
            raise ValueError("cell names and coordinates must be unique")
        at = {c: i for i, c in enumerate(self.coords)}
        object.__setattr__(self, "index", {n: i for i, n in enumerate(self.names)})
        object.__setattr__(self, "_at", at)
        steps = tuple(
            tuple(at.get((q + dq, r + dr), -1) for dq, dr in self.directions) for q, r in self.coords
        )
        object.__setattr__(self, "steps", steps)

    # --- lookups ---------------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.names)

    def cell(self, name: str) -> int:
        """The index of a cell name; ValueError names the unknown cell."""
        try:
            return self.index[name]
        except KeyError:
            raise ValueError(f"no cell {name!r} on this board") from None

    def at(self, coord: Coord) -> int | None:
        """The cell at a coordinate, or None off the board."""
        return self._at.get(coord)

    def step(self, cell: int, direction: int) -> int:
        """The neighbour of ``cell`` in ``directions[direction]``, or -1 off the board."""
        return self.steps[cell][direction]

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return tuple(n for n in self.steps[cell] if n >= 0)

    def ray(self, cell: int, direction: int) -> tuple[int, ...]:
        """The cells from ``cell`` (exclusive) to the edge in one direction."""
        out: list[int] = []
        nxt = self.steps[cell][direction]
        while nxt >= 0:
            out.append(nxt)
            nxt = self.steps[nxt][direction]
        return tuple(out)

    def lines(self, min_length: int = 2) -> list[tuple[int, ...]]:
        """Every maximal line of cells along each axis, at least ``min_length`` long."""
        out: list[tuple[int, ...]] = []
        for dq, dr in self.axes:
            for i, (q, r) in enumerate(self.coords):
                if (q - dq, r - dr) in self._at:
                    continue  # not the first cell of its line
                line = [i]
                nxt = self._at.get((q + dq, r + dr))
                while nxt is not None:
                    line.append(nxt)
                    nq, nr = self.coords[nxt]
                    nxt = self._at.get((nq + dq, nr + dr))
                if len(line) >= min_length:
                    out.append(tuple(line))
        return out

    def distance(self, a: int, b: int) -> int:
        """Steps between two cells: king moves on squares, hex steps on hexes."""
        (qa, ra), (qb, rb) = self.coords[a], self.coords[b]
        dq, dr = qb - qa, rb - ra
        if self.shape == "square":
            return max(abs(dq), abs(dr))
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def centre(self, cell: int) -> tuple[float, float]:
        """Where a cell sits, in cell widths, x to the right and y away from player 0."""
        q, r = self.coords[cell]
        if self.shape == "square":
            return float(q), float(r)
        return q + r / 2, r * math.sqrt(3) / 2


def _named(coords: Iterable[Coord], name_of: dict[Coord, str]) -> tuple[tuple[str, ...], tuple[Coord, ...]]:
    ordered = sorted(coords, key=lambda c: (c[1], c[0]))
    return tuple(name_of[c] for c in ordered), tuple(ordered)


def square_grid(files: int, ranks: int) -> Geometry:
    """A files x ranks grid of squares named a1.. with 8 directions and 4 axes."""
    coords = [(q, r) for r in range(ranks) for q in range(files)]
    names, ordered = _named(coords, {(q, r): f"{FILE_LETTERS[q]}{r + 1}" for q, r in coords})
    return Geometry("square", names, ordered, SQUARE_DIRECTIONS, SQUARE_AXES)


def hex_parallelogram(files: int, ranks: int) -> Geometry:
    """Hexes in axial coordinates q=0..files-1, r=0..ranks-1, each rank shifted half a cell right."""
    coords = [(q, r) for r in range(ranks) for q in range(files)]
    names, ordered = _named(coords, {(q, r): f"{FILE_LETTERS[q]}{r + 1}" for q, r in coords})
    return Geometry("hex", names, ordered, HEX_DIRECTIONS, HEX_AXES)


def hex_hexagon(radius: int) -> Geometry:
    """The points of a hexagon with max(|q|, |r|, |q+r|) <= radius, named file q+radius, rank r+radius+1."""
    coords = [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if max(abs(q), abs(r), abs(q + r)) <= radius
    ]
    name_of = {(q, r): f"{FILE_LETTERS[q + radius]}{r + radius + 1}" for q, r in coords}
    names, ordered = _named(coords, name_of)
    return Geometry("hex", names, ordered, HEX_DIRECTIONS, HEX_AXES)
