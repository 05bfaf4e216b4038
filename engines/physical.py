"""The physical objects a game puts on a cell.

The move tracker never sees moves, only what the sensors feel; a board's sensor
model (in hardware/) turns these objects into expected readings.  So each game
describes its positions as objects, bottom to top on each cell, with just
enough detail for any sensor to tell them apart: what the object is, and which
player's colour it shows (for a reversible stone or piece, the side facing up).
Which kinds a game has, and what they are called, its table says
(engines/table.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.pickling import by_fields

# A kind is a name that sensor models and board files use too: lower-case letters, digits and '_'.
KIND_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Thing:
    """One physical object: its kind and the player colour it shows (None if neutral)."""

    kind: str
    colour: int | None = None

    def __reduce__(self) -> tuple[type[Thing], tuple[object, ...]]:
        return by_fields(self)

    def __post_init__(self) -> None:
        if not KIND_NAME.match(self.kind):
            raise ValueError(f"not a name of a kind of object: {self.kind!r}")

    def __str__(self) -> str:
        return self.kind if self.colour is None else f"{self.kind}:{self.colour}"
