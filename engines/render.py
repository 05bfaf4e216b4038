"""Drawing a position for a terminal, for any geometry.

Hex boards are drawn with each rank shifted half a cell, as on the real board;
the top rank is printed first so that player 0 sits at the bottom.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engines.geometry import Geometry
from engines.physical import Thing

GLYPHS = {
    ("knight", 0): "K",
    ("knight", 1): "k",
    ("ring_silver", None): "s",
    ("ring_blue", None): "b",
    ("ring_bigblue", None): "B",
    ("queen", 0): "Q",
    ("queen", 1): "q",
    ("stone", 0): "x",
    ("stone", 1): "o",
    ("tile", None): "_",
    ("piece", 0): "R",
    ("piece", 1): "Y",
}


def default_glyph(things: tuple[Thing, ...]) -> str:
    """The top object's letter: upper case for player 0, lower case for player 1."""
    if not things:
        return "."
    top = things[-1]
    return GLYPHS.get((top.kind, top.colour), "?")


def render_cells(
    geometry: Geometry,
    cells: Mapping[str, tuple[Thing, ...]],
    glyph: Callable[[tuple[Thing, ...]], str] = default_glyph,
) -> str:
    width = max(2, *(len(glyph(t)) for t in cells.values())) + 1
    ranks = sorted({r for _, r in geometry.coords}, reverse=True)
    files = sorted({q for q, _ in geometry.coords})
    low_rank = min(ranks)
    rows: list[str] = []
    for r in ranks:
        row_cells = sorted((q, i) for i, (q, rr) in enumerate(geometry.coords) if rr == r)
        label = geometry.names[row_cells[0][1]][1:]
        pad = " " * ((r - low_rank) * width // 2) if geometry.shape == "hex" else ""
        lead = " " * ((row_cells[0][0] - files[0]) * width)
        body = "".join(glyph(cells[geometry.names[i]]).rjust(width) for _, i in row_cells)
        rows.append(f"{label:>3} {pad}{lead}{body}")
    letters = sorted({geometry.names[i][0] for i in range(geometry.size)})
    rows.append("    " + "".join(ch.rjust(width) for ch in letters))
    return "\n".join(rows)
