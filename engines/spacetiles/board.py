"""Space Tiles boards: the cell layout and the starting tiles, read from a data file.

RULES.md calls the 45-cell parallelogram "this project's reading" of the seed,
so the layout must be swappable without touching the rules: everything that
depends on the shape (the geometry, which cells start with a tile, how many
tiles and pieces exist) lives in ``engines/spacetiles/boards/<name>.json`` and
reaches the rules only through a ``SpaceTilesBoard``.

File format (JSON object):

    "geometry":    {"kind": "hex_parallelogram", "files": F, "ranks": R}
                 | {"kind": "hex_hexagon", "radius": N}
                 | {"kind": "hex_cells", "cells": {"<name>": [q, r], ...}}   (any other hex layout)
    "start_tiles": ["d2", ...]   the cells holding a tile before the first turn
    "tiles":       total number of tiles (start tiles + supply)
    "pieces_each": pieces in each player's hand at the start
    "description": free text (optional)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from engines.geometry import HEX_AXES, HEX_DIRECTIONS, Geometry, hex_hexagon, hex_parallelogram
from engines.pickling import by_fields

DEFAULT_BOARD = "parallelogram"

_NAME_RE = re.compile(r"^[a-z0-9_]+$")
_CELL_NAME_RE = re.compile(r"^[a-z]\d{1,2}$")


class BoardError(ValueError):
    """A board file that is missing or does not describe a playable Space Tiles board."""


@dataclass(frozen=True)
class SpaceTilesBoard:
    """One Space Tiles layout: cells, start tiles, and the material of the game.

    ``start_tiles`` are cell indices of ``geometry``.
    """

    name: str
    geometry: Geometry
    start_tiles: tuple[int, ...]
    tiles: int
    pieces_each: int

    def __reduce__(self) -> tuple[type[SpaceTilesBoard], tuple[object, ...]]:
        return by_fields(self)

    @property
    def supply(self) -> int:
        """Tiles off the board at the start."""
        return self.tiles - len(self.start_tiles)


@cache
def load_board(name: str = DEFAULT_BOARD) -> SpaceTilesBoard:
    """The board described by ``engines/spacetiles/boards/<name>.json``."""
    if not _NAME_RE.match(name):
        raise BoardError(f"board name {name!r}: use lower-case letters, digits and '_' only")
    filename = f"engines/spacetiles/boards/{name}.json"
    resource = resources.files("engines.spacetiles").joinpath("boards", f"{name}.json")
    try:
        text = resource.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardError(f"no Space Tiles board {name!r} (expected {filename})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(f"{filename}: not valid JSON: {exc}") from None
    return board_from_data(name, data, filename)


def board_from_data(name: str, data: object, source: str) -> SpaceTilesBoard:
    """Check a parsed board description; BoardError names ``source`` and the faulty field."""
    if not isinstance(data, dict):
        raise BoardError(f"{source}: expected a JSON object")
    unknown = sorted(set(data) - {"geometry", "start_tiles", "tiles", "pieces_each", "description"})
    if unknown:
        raise BoardError(f"{source}: unknown field {unknown[0]!r}")
    geometry = _geometry(data.get("geometry"), f"{source}: geometry")
    start_names = data.get("start_tiles")
    if not (isinstance(start_names, list) and start_names and all(isinstance(n, str) for n in start_names)):
        raise BoardError(f"{source}: start_tiles: expected a non-empty list of cell names")
    start: list[int] = []
    for cell_name in start_names:
        if cell_name not in geometry.index:
            raise BoardError(f"{source}: start_tiles: no cell {cell_name!r} on this board")
        if geometry.index[cell_name] in start:
            raise BoardError(f"{source}: start_tiles: {cell_name!r} is listed twice")
        start.append(geometry.index[cell_name])
    tiles = _count(data, "tiles", source)
    pieces_each = _count(data, "pieces_each", source)
    if not len(start) <= tiles <= geometry.size:
        low, high = len(start), geometry.size
        raise BoardError(f"{source}: tiles: from {low} (the start tiles) to {high} (the cells)")
    return SpaceTilesBoard(name, geometry, tuple(sorted(start)), tiles, pieces_each)


def _count(data: dict[str, object], key: str, source: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BoardError(f"{source}: {key}: expected a whole number >= 0")
    return value


def _geometry(spec: object, where: str) -> Geometry:
    if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str):
        raise BoardError(f"{where}: expected an object with a 'kind'")
    kind = spec["kind"]
    if kind == "hex_parallelogram":
        return hex_parallelogram(_size(spec, "files", where), _size(spec, "ranks", where))
    if kind == "hex_hexagon":
        return hex_hexagon(_size(spec, "radius", where))
    if kind == "hex_cells":
        return _explicit_cells(spec.get("cells"), where)
    raise BoardError(f"{where}: unknown kind {kind!r} (known: hex_parallelogram, hex_hexagon, hex_cells)")


def _size(spec: dict[str, object], key: str, where: str) -> int:
    value = spec.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 26:
        raise BoardError(f"{where}: {key}: expected a whole number from 1 to 26")
    return value


def _explicit_cells(cells: object, where: str) -> Geometry:
    if not isinstance(cells, dict) or not cells:
        raise BoardError(f"{where}: cells: expected an object from cell name to [q, r]")
    named: list[tuple[tuple[int, int], str]] = []
    for cell_name, coord in cells.items():
        if not _CELL_NAME_RE.match(cell_name):
            raise BoardError(f"{where}: cells: {cell_name!r} is not a cell name like 'c4'")
        if not (
            isinstance(coord, list)
            and len(coord) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in coord)
        ):
            raise BoardError(f"{where}: cells: {cell_name}: expected [q, r] as two whole numbers")
        named.append(((coord[0], coord[1]), cell_name))
    named.sort(key=lambda item: (item[0][1], item[0][0]))  # rank by rank, as engines.geometry numbers cells
    try:
        return Geometry(
            "hex", tuple(n for _, n in named), tuple(c for c, _ in named), HEX_DIRECTIONS, HEX_AXES
        )
    except ValueError as exc:
        raise BoardError(f"{where}: cells: {exc}") from None
