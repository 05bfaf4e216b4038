"""Board geometry: names, neighbours and lines of the three board shapes, checked by hand."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from engines.geometry import Geometry, hex_hexagon, hex_parallelogram, square_grid


def names(geometry: Geometry, cells: Iterable[int]) -> list[str]:
    return sorted(geometry.names[c] for c in cells)


def test_square_grid_names_and_neighbours() -> None:
    g = square_grid(7, 7)
    assert g.size == 49 and g.names[0] == "a1" and g.names[-1] == "g7"
    assert names(g, g.neighbours(g.cell("a1"))) == ["a2", "b1", "b2"]
    assert len(g.neighbours(g.cell("d4"))) == 8
    assert square_grid(10, 10).names[-1] == "j10"


def test_square_grid_lines_along_four_axes() -> None:
    g = square_grid(7, 7)
    # 7 ranks + 7 files + 11 diagonals of length >= 2 each way = 36 lines.
    assert len(g.lines()) == 7 + 7 + 11 + 11
    # Full length: the 7 ranks, the 7 files and the two long diagonals.
    assert len([line for line in g.lines() if len(line) == 7]) == 16
    assert g.distance(g.cell("a1"), g.cell("c7")) == 6


def test_ray_stops_at_the_edge() -> None:
    g = square_grid(10, 10)
    east = g.directions.index((1, 0))
    assert names(g, g.ray(g.cell("g4"), east)) == ["h4", "i4", "j4"]


def test_space_tiles_parallelogram() -> None:
    g = hex_parallelogram(9, 5)
    assert g.size == 45 and g.names[-1] == "i5"
    # (q, r) = (4, 2) is e3: neighbours (q+-1, r), (q, r+-1), (q+1, r-1), (q-1, r+1).
    assert names(g, g.neighbours(g.cell("e3"))) == ["d3", "d4", "e2", "e4", "f2", "f3"]
    # a1 is a corner with (1,0), (0,1) only: (q-1, r+1) is off the board.
    assert names(g, g.neighbours(g.cell("a1"))) == ["a2", "b1"]
    assert g.distance(g.cell("a1"), g.cell("i5")) == 12
    # i1 = (8, 0) to a5 = (0, 4): four (q-1, r+1) steps and four (q-1, 0) steps.
    assert g.distance(g.cell("i1"), g.cell("a5")) == 8


def test_flip_four_hexagon() -> None:
    g = hex_hexagon(2)
    assert g.size == 19
    points = "a3 a4 a5 b2 b3 b4 b5 c1 c2 c3 c4 c5 d1 d2 d3 d4 e1 e2 e3"
    assert sorted(g.names) == points.split()
    assert len(g.neighbours(g.cell("c3"))) == 6
    # Lines: along each of 3 axes, lengths 3 4 5 4 3 -> 15 lines; 9 of them have at least 4 points.
    assert sorted(len(line) for line in g.lines()) == sorted([3, 4, 5, 4, 3] * 3)
    assert len(g.lines(min_length=4)) == 9


def test_unknown_cell_is_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="'k1'"):
        square_grid(10, 10).cell("k1")
