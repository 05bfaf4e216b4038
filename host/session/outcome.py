"""Why a finished game ended, in the game's own words, and the cells that decided it."""

from __future__ import annotations

from typing import Any

from engines.game import Game
from host.session import words


def explain(game: Game[Any, Any], pos: Any) -> tuple[str, frozenset[str]]:
    """The reason a finished game ended and the cells that show it (the winner's pieces)."""
    outcome = game.outcome(pos)
    if outcome is None:
        return "", frozenset()
    cells = game.cells(pos)
    shown = frozenset(
        name
        for name, stack in cells.items()
        if stack and (outcome.winner is None or stack[-1].colour == outcome.winner)
    )
    score = outcome.score
    if score is None:
        return "", shown
    a, b = words.sides(game)
    return f"{a} {score[0]}, {b} {score[1]}", shown
