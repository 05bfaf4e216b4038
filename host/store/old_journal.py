"""Reading the journal files of earlier magboard versions, to import them once into the store.

Format: ``key: value`` header lines (``game``, ``options``), a line ``---``, then
entries ``move TEXT``, ``takeback N`` and ``newgame``, one a line.  A power cut
or a full disk leaves the last line without its newline, or a zero-filled
tail; and because the old journal appended after such a line, the next entry
could be glued to it (``move d1-move j4-e4/d5``).  Complete lines are kept, a
glued entry is split from the torn one before it, and everything left out is
reported with its line number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import registry
from engines.game import Game, MoveError, quoted
from host.numbers import integer
from host.store.database import StoreError

KEYWORDS = ("move ", "takeback ", "newgame")


@dataclass
class ReadJournal:
    """A journal read back: its game, the games it holds (each its moves), what was left out."""

    game: Game[Any, Any]
    games: list[list[str]] = field(default_factory=lambda: [[]])
    notes: list[str] = field(default_factory=list)


def looks_like_journal(text: str) -> bool:
    """A journal has a '---' line after its header; a text record cannot have one."""
    return text.startswith("game:") and "\n---\n" in text


def _header(path: Path, lines: list[str]) -> tuple[Game[Any, Any], int]:
    header: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        if line == "---":
            try:
                return registry.make(header.get("game", ""), header.get("options", "").split()), number
            except ValueError as exc:
                raise StoreError(path, f"line {number}: {exc}") from None
        key, sep, value = line.partition(":")
        if not sep:
            raise StoreError(path, f"line {number}: expected 'key: value' or '---', got {line!r}")
        header[key.strip()] = value.strip()
    raise StoreError(path, "no '---' after the header: not a journal")


class _Replay:
    """The entries applied in order: the position of the game in progress is kept to check each move."""

    def __init__(self, journal: ReadJournal) -> None:
        self.journal = journal
        self.positions = [journal.game.start()]

    def apply(self, entry: str) -> str | None:
        """Apply one entry; None when done, else why it cannot be."""
        game, moves = self.journal.game, self.journal.games[-1]
        word, _, arg = entry.partition(" ")
        if word == "move" and arg:
            try:
                move = game.parse_move(self.positions[-1], arg)
            except MoveError as exc:
                return f"move {quoted(arg)}: {exc}"
            moves.append(arg)
            self.positions.append(game.play(self.positions[-1], move))
        elif word == "takeback" and (count := integer(arg)) is not None and 0 < count <= len(moves):
            del moves[-count:], self.positions[-count:]
        elif entry == "newgame":
            self.journal.games.append([])
            self.positions = [game.start()]
        else:
            return f"cannot read {entry!r}"
        return None


def read_journal(path: Path, text: str) -> ReadJournal:
    """The games of an old journal; StoreError only when even its header cannot be read."""
    lines = text.split("\n")
    tail = lines.pop()  # after the last newline: empty unless the last write was cut short
    game, body = _header(path, lines)
    journal = ReadJournal(game)
    replay = _Replay(journal)
    zeros: list[int] = []
    for number, line in enumerate(lines[body:], start=body + 1):
        entry = line.replace("\x00", "")
        if not entry:
            if line:
                zeros.append(number)
            continue
        why = replay.apply(entry)
        if why is not None:
            starts = [entry.rfind(k) for k in KEYWORDS if entry.rfind(k) > 0]
            glued = entry[max(starts) :] if starts else None
            if glued is not None and replay.apply(glued) is None:
                journal.notes.append(f"line {number}: a torn entry {entry[: max(starts)]!r} skipped")
                continue
            rest = len(lines) - number
            journal.notes.append(f"line {number}: {why}: this line and the {rest} after it are not imported")
            break
    if zeros:
        where = f"line {zeros[0]}" if len(zeros) == 1 else f"lines {zeros[0]}-{zeros[-1]}"
        journal.notes.append(f"{where}: zero-filled (a torn write), skipped")
    if tail.strip("\x00") == "" and tail:
        journal.notes.append(f"line {len(lines) + 1}: a zero-filled tail of {len(tail)} bytes, not imported")
    elif tail:
        journal.notes.append(f"line {len(lines) + 1}: cut short ({tail.replace(chr(0), '')!r}), not imported")
    return journal
