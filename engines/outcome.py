"""How a finished game ended: its own module, so that the rules (engines/game.py) and the table
(engines/table.py) can both say it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass

from engines.pickling import by_fields


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is the player who won, or None for a draw.  ``score`` is
    [player 0, player 1] for games that count points and None for the others.
    """

    winner: int | None
    score: tuple[int, int] | None = None

    def __reduce__(self) -> tuple[type[Outcome], tuple[object, ...]]:
        return by_fields(self)
