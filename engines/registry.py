"""Which games are installed, and how to make one by id.

Games are found, not listed: every installed distribution may register games in
the ``magboard.games`` entry-point group (``id = "package.module:GameClass"``),
magboard's own four the same way (pyproject.toml).  A game's module is imported
only when the game is asked for, so a tool that needs one game does not pay for
loading the others, and a broken third-party game is reported and left out
instead of taking every command down with it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from functools import cache
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from engines.game import Game

GROUP = "magboard.games"
# The game `magboard play` and the service play when none is named.
DEFAULT = "desdemona"


class UnknownGameError(ValueError):
    pass


@cache
def _entries() -> dict[str, EntryPoint]:
    """The registered games by id, in the order their distributions declare them (read once: reading every
    installed distribution's metadata costs milliseconds)."""
    out: dict[str, EntryPoint] = {}
    for entry in entry_points(group=GROUP):
        out.setdefault(entry.name, entry)
    return out


@cache
def _load(game_id: str) -> type[Game[Any, Any]] | None:
    """The game class registered as ``game_id``, or None (said once on stderr) when it cannot be loaded."""
    entry = _entries().get(game_id)
    if entry is None:
        return None
    try:
        loaded = entry.load()
    except Exception as exc:  # a third-party game's import may fail in any way
        print(f"magboard: game {game_id!r} ({entry.value}) cannot be loaded: {exc}", file=sys.stderr)
        return None
    if not (isinstance(loaded, type) and issubclass(loaded, Game)) or loaded.id != game_id:
        print(
            f"magboard: game {game_id!r} ({entry.value}) is not a Game with id {game_id!r}", file=sys.stderr
        )
        return None
    return loaded


def available() -> list[str]:
    """The ids of the installed games that load."""
    return [game_id for game_id in _entries() if _load(game_id) is not None]


def packages() -> dict[str, str]:
    """Each registered game's package by id - its entry point's module less the last part
    (``threerow`` for ``threerow.rules:ThreeRow``) - found without importing any: where a game's
    own files are (its boards, host.hardware.loading)."""
    return {game_id: entry.module.rpartition(".")[0] or entry.module for game_id, entry in _entries().items()}


def game_class(game_id: str) -> type[Game[Any, Any]]:
    """The class registered as ``game_id``, whose class attributes are the game's facts (its name,
    options, default board), read without making a game."""
    cls = _load(game_id)
    if cls is None:
        known = ", ".join(available()) or "none: install magboard (pip install -e .)"
        raise UnknownGameError(f"unknown game {game_id!r} (known: {known})")
    return cls


def make(game_id: str, options: Iterable[str] = ()) -> Game[Any, Any]:
    """A game by id with the named rule options switched on."""
    return game_class(game_id)(frozenset(options))


def named(target: str) -> Any:
    """What a game's "module:attribute" text names (its ``gtp`` or ``sgf`` facts), the module imported
    only now: a game's facts for one tool cost nothing to the others."""
    module, _, name = target.partition(":")
    return getattr(import_module(module), name)
