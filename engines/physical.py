"""The physical objects a game puts on a cell.

The move tracker never sees moves, only what the sensors feel; a board's sensor
model (in hardware/) turns these objects into expected readings.  So each game
describes its positions as objects, bottom to top on each cell, with just
enough detail for any sensor to tell them apart: what the object is, and which
player's colour it shows (for a reversible stone or piece, the side facing up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.pickling import by_fields

# The kinds of object the four games use.  Sensor models and board files refer
# to these names, so they are part of the contract between engines/ and hardware/.
KINDS = (
    "knight",  # The King of Rings: a player's knight (carries a magnet)
    "ring_silver",  # The King of Rings: 1-point ring (no magnet)
    "ring_blue",  # The King of Rings: 3-point ring
    "ring_bigblue",  # The King of Rings: the 5-point ring
    "queen",  # Desdemona: a queen of one colour
    "stone",  # Desdemona: a two-coloured stone; colour = the side up
    "tile",  # Space Tiles: a shared tile (no owner)
    "piece",  # Space Tiles: a player's piece; Flip Four: a reversible piece, colour = side up
)


@dataclass(frozen=True, slots=True)
class Thing:
    """One physical object: its kind and the player colour it shows (None if neutral)."""

    kind: str
    colour: int | None = None

    def __reduce__(self) -> tuple[type[Thing], tuple[Any, ...]]:
        return by_fields(self)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind of object {self.kind!r}")

    def __str__(self) -> str:
        return self.kind if self.colour is None else f"{self.kind}:{self.colour}"
