"""The game journal: every committed move on disk before the LEDs move on.

A power cut must never lose a committed move, so the journal is append-only
and each entry is flushed and synced before the session continues.  Entries
are whole lines; a line cut short by the power cut (no newline) was never
acknowledged and is ignored when the journal is read back.

Format: a header of ``key: value`` lines (``game`` required, ``options``),
a line ``---``, then one entry per line:

    move a4-a6          a committed move, canonical notation
    takeback 2          the last two moves taken back
    newgame             the board was set up again: start from the beginning
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import registry
from engines.game import Game, MoveError


class JournalError(ValueError):
    """A journal that cannot be replayed: the message names the line."""


@dataclass
class Replayed:
    """A journal read back: the game, the moves of the game in progress, every position."""

    game: Game[Any, Any]
    moves: list[str] = field(default_factory=list)
    positions: list[Any] = field(default_factory=list)


class Journal:
    """An open journal file that entries are appended to."""

    def __init__(self, path: Path, game: Game[Any, Any]) -> None:
        self.path = path
        self.game = game
        fresh = not path.exists() or path.stat().st_size == 0
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the session
        if fresh:
            options = " ".join(sorted(game.chosen))
            self._append(f"game: {game.id}\noptions: {options}\n---\n")

    def _append(self, text: str) -> None:
        self._file.write(text)
        self._file.flush()
        os.fsync(self._file.fileno())

    def move(self, text: str) -> None:
        self._append(f"move {text}\n")

    def takeback(self, plies: int) -> None:
        self._append(f"takeback {plies}\n")

    def new_game(self) -> None:
        self._append("newgame\n")

    def close(self) -> None:
        self._file.close()


def replay(path: Path) -> Replayed:
    """The game in progress at the end of a journal."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines = lines[:-1]  # cut short by a power cut: never acknowledged
    header: dict[str, str] = {}
    body = 0
    for number, line in enumerate(lines, start=1):
        if line == "---":
            body = number
            break
        key, sep, value = line.partition(":")
        if not sep:
            raise JournalError(f"{path}:{number}: expected 'key: value' or '---', got {line!r}")
        header[key.strip()] = value.strip()
    else:
        raise JournalError(f"{path}: no '---' after the header")
    try:
        game = registry.make(header.get("game", ""), header.get("options", "").split())
    except ValueError as exc:
        raise JournalError(f"{path}: {exc}") from None
    state = Replayed(game, [], [game.start()])
    for number, line in enumerate(lines[body:], start=body + 1):
        if not line:
            continue
        word, _, arg = line.partition(" ")
        if word == "move":
            try:
                move = game.parse_move(state.positions[-1], arg)
            except MoveError as exc:
                raise JournalError(f"{path}:{number}: move {arg!r}: {exc}") from None
            state.moves.append(arg)
            state.positions.append(game.play(state.positions[-1], move))
        elif word == "takeback" and arg.isdigit() and 0 < int(arg) <= len(state.moves):
            del state.moves[-int(arg) :]
            del state.positions[-int(arg) :]
        elif word == "newgame":
            state = Replayed(game, [], [game.start()])
        else:
            raise JournalError(f"{path}:{number}: cannot read {line!r}")
    return state
