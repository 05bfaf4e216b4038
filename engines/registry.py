"""Which games exist, and how to make one by id.

Each game lives in its own module; the registry imports it only when asked, so
a tool that needs one game does not pay for loading the others.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module
from typing import Any

from engines.game import Game

# id -> "module:class".  The order is the order `magboard games` prints.
GAMES: dict[str, str] = {
    "kingofrings": "engines.kingofrings:KingOfRings",
    "desdemona": "engines.desdemona:Desdemona",
    "spacetiles": "engines.spacetiles:SpaceTiles",
    "flipfour": "engines.flipfour:FlipFour",
}


class UnknownGameError(ValueError):
    pass


def available() -> list[str]:
    """The ids of the games whose engines are installed."""
    out = []
    for game_id, target in GAMES.items():
        module = target.partition(":")[0]
        try:
            import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        out.append(game_id)
    return out


def make(game_id: str, options: Iterable[str] = ()) -> Game[Any, Any]:
    """A game by id with the named rule options switched on."""
    if game_id not in GAMES or game_id not in available():
        known = ", ".join(available())
        raise UnknownGameError(f"unknown game {game_id!r} (known: {known})")
    module, _, cls = GAMES[game_id].partition(":")
    game: Game[Any, Any] = getattr(import_module(module), cls)(frozenset(options))
    return game
