"""Game records: a plain text file a person can read, edit and mail.

Format::

    # magboard game record         <- comments start with '#', anywhere on a line
    game: desdemona                 <- header lines 'key: value' until the first move
    player0: Alice
    player1: magboard level 7
    options: empty_steps blue_parity (King of Rings only; space separated)

    a4-a6                           <- one canonical move per line
    d1-d3/d5

The header needs ``game``; ``player0``/``player1`` default to "?".  Reading
validates every move by replaying it, so a record that loads is a legal game;
errors carry the line number.  `magboard history export` writes the games of the
store (host/store) in this format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import registry
from engines.game import Game, M, MoveError, P, quoted

HEADER_RE = re.compile(r"^([a-z][a-z0-9_]*)\s*:\s*(.*)$")
MAX_CHARS = 1024 * 1024  # a long game is a few KiB: anything larger is not a record
KNOWN_KEYS = ("game", "player0", "player1", "options", "date", "event", "result")


class RecordError(ValueError):
    """A record that cannot be read: ``line`` is 1-based (0 when the whole file is at fault)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


@dataclass
class Record:
    """A game as text: which game, who played, the moves in canonical notation."""

    game: str
    players: tuple[str, str] = ("?", "?")
    options: tuple[str, ...] = ()
    moves: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)

    def make_game(self) -> Game[Any, Any]:
        return registry.make(self.game, self.options)

    def header_text(self) -> str:
        lines = [f"game: {self.game}", f"player0: {self.players[0]}", f"player1: {self.players[1]}"]
        if self.options:
            lines.append("options: " + " ".join(self.options))
        lines.extend(f"{k}: {v}" for k, v in self.extra.items())
        return "\n".join(lines) + "\n\n"

    def to_text(self) -> str:
        return self.header_text() + "".join(f"{m}\n" for m in self.moves)

    def replay(self) -> tuple[Game[Any, Any], Any]:
        """The game and its final position; RecordError names the first bad move's ply."""
        game = self.make_game()
        pos = game.start()
        for ply, text in enumerate(self.moves, start=1):
            try:
                pos = game.play(pos, game.parse_move(pos, text))
            except MoveError as exc:
                raise RecordError(0, f"ply {ply}: move {quoted(text)}: {exc}") from None
        return game, pos


def parse(text: str) -> Record:
    """Read and validate a record; every move is checked by replaying it."""
    if len(text) > MAX_CHARS:
        raise RecordError(0, f"longer than {MAX_CHARS // 1024} KiB: not a game record")
    header: dict[str, tuple[int, str]] = {}
    move_lines: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = HEADER_RE.match(line)
        if match and not move_lines and not _looks_like_move(line):
            key, value = match.group(1), match.group(2).strip()
            if key in header:
                raise RecordError(number, f"header {key!r} given twice")
            header[key] = (number, value)
            continue
        if match and move_lines and not _looks_like_move(line):
            raise RecordError(number, f"header line {quoted(line)} after the first move")
        move_lines.append((number, line))
    if "game" not in header:
        raise RecordError(1, "no 'game: ID' header line")
    game_line, game_id = header.pop("game")
    options_line, options_text = header.pop("options", (game_line, ""))
    options = tuple(options_text.split())
    players = (header.pop("player0", (0, "?"))[1], header.pop("player1", (0, "?"))[1])
    try:
        game = registry.make(game_id)
    except ValueError as exc:
        raise RecordError(game_line, str(exc)) from None
    try:
        game = registry.make(game_id, options)
    except ValueError as exc:
        raise RecordError(options_line, str(exc)) from None
    pos = game.start()
    moves: list[str] = []
    for number, move_text in move_lines:
        try:
            move = game.parse_move(pos, move_text)
        except MoveError as exc:
            raise RecordError(number, f"ply {len(moves) + 1}: move {quoted(move_text)}: {exc}") from None
        moves.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    extra = {key: value for key, (_, value) in header.items()}
    return Record(game_id, players, options, moves, extra)


def _looks_like_move(line: str) -> bool:
    """True for move texts that contain a colon (Space Tiles' 'c2:e3-e4'), not header lines."""
    key = line.split(":", 1)[0].strip()
    return bool(re.fullmatch(r"[a-z]\d+", key))


def load(path: str | os.PathLike[str]) -> Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(0, f"not a text file ({exc.reason} at byte {exc.start})") from None
    return parse(text)


def save(record: Record, path: str | os.PathLike[str]) -> None:
    """Write atomically: a crash mid-write leaves the old file, never half a record."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(record.to_text())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)


def from_moves(game: Game[P, M], moves: Iterable[str], players: tuple[str, str] = ("?", "?")) -> Record:
    return Record(game.id, players, tuple(sorted(game.chosen)), list(moves))
