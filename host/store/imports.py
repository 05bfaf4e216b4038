"""Bringing games from files into the store: text records, SGF files and the old journals, each once.

A file is known by the SHA-256 of its bytes, so importing it again (or the
automatic import of the old journals at every start) adds nothing twice, and a
file imported before is not even read as a record again.  A file is read within
IMPORT_BYTES (a journal held every game played; a record is far smaller, see
engines/records.py), and a record keeps what its header says that the store has
a place for: the board, when the game started and ended.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import records, sgf
from engines.game import Game, MoveError
from host.files import MIB, read_bytes
from host.shown import quoted
from host.store.database import StoreError, opened, reason_of, transaction
from host.store.games import (
    Status,
    StoredGame,
    abandon,
    ending,
    in_play,
    insert_game,
    positions_of,
    read_stamp,
)
from host.store.old_journal import looks_like_journal, read_journal
from host.store.paths import data_dir

IMPORT_BYTES = 16 * MIB  # an old journal of ten years of games is a few MiB


@dataclass
class Imported:
    """What an import did: the games it added, and what it left out of the file."""

    path: Path
    ids: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    before: str | None = None  # the file was imported already: what that import did
    resumes: int | None = None  # the imported game that `magboard play` resumes

    def __str__(self) -> str:
        if self.before is not None:
            return f"{self.path}: imported before ({self.before})"
        games = ", ".join(map(str, self.ids)) or "none (no moves)"
        resumes = [] if self.resumes is None else [f"game {self.resumes} resumes at the next start"]
        return "; ".join([f"{self.path}: imported, games {games}", *resumes, *self.notes])


def _games_of(path: Path, data: bytes) -> tuple[list[StoredGame], list[str]]:
    """The games in a file, a journal, an SGF file or a record, and what could not be imported."""
    text = data.decode("utf-8", "replace")
    if looks_like_journal(text):
        journal = read_journal(path, text)
        game, options = journal.game.id, tuple(sorted(journal.game.chosen))
        found = []
        for number, moves in enumerate(journal.games, start=1):
            if moves:
                status, outcome = ending(journal.game, positions_of(journal.game, moves)[-1])
                if status is Status.PLAYING and number < len(journal.games):
                    status = Status.ABANDONED  # a new game was started after it
                stored = StoredGame(None, game, options, None, ("?", "?"), status, None, None, outcome)
                stored.source, stored.moves, stored.times = f"journal {path}", moves, [None] * len(moves)
                found.append(stored)
        return found, journal.notes
    notes: list[str] = []
    try:
        if sgf.looks_like_sgf(data):
            record, notes = sgf.load(data)
        else:
            record = records.parse(text)
        rules = record.make_game()
        final = positions_of(rules, record.moves)[-1]
        status, outcome = ending(rules, final)
        dead = _dead(rules, final, record.extra.get("dead"))
        if dead is not None:
            outcome, _ = rules.table.agreed(rules, final, frozenset(dead))
    except records.RecordError as exc:
        raise StoreError(path, f"line {exc.line}: {exc.reason}" if exc.line else exc.reason) from None
    except (MoveError, sgf.SgfError) as exc:
        raise StoreError(path, str(exc)) from None
    times, said = _times(record.extra)
    stored = StoredGame(
        None, record.game, tuple(sorted(record.options)), record.extra.get("board"), record.players,
        Status.ABANDONED if status is Status.PLAYING else status, times["date"], times["ended"], outcome,
        f"{'sgf' if sgf.looks_like_sgf(data) else 'record'} {path}", list(record.moves),
        [None] * len(record.moves),
    )  # fmt: skip
    stored.dead = dead
    return [stored], notes + said


def _dead(rules: Game[Any, Any], final: Any, given: str | None) -> tuple[str, ...] | None:
    """The dead stones a record says were agreed (its ``dead``), or None when it says none or its game
    does not end by agreeing them; MoveError for a name that is no stone of the final position."""
    if given is None or rules.table.dead_proposal(rules, final) is None:
        return None
    dead = tuple(sorted(given.split()))
    cells = rules.cells(final)
    for name in dead:
        if not cells.get(name):
            raise MoveError(f"dead {name}: no stone stands there at the end of the game")
    return dead


def _times(header: dict[str, str]) -> tuple[dict[str, float | None], list[str]]:
    """When the game started (``date``) and ended (``ended``), as far as the record says."""
    times: dict[str, float | None] = {}
    notes = []
    for key in ("date", "ended"):
        text = header.get(key)
        times[key] = None if text is None else read_stamp(text)
        if text is not None and times[key] is None:
            notes.append(f"{key} {quoted(text)} is not a date (YYYY-MM-DD HH:MM:SS): not kept")
    return times, notes


def _imported_before(conn: sqlite3.Connection, digest: str) -> str | None:
    row = conn.execute("SELECT note FROM imported_files WHERE sha256 = ?", (digest,)).fetchone()
    return None if row is None else str(row[0])


def _read(path: Path) -> tuple[bytes, str]:
    """The file's bytes and their SHA-256; StoreError when it cannot be read."""
    try:
        data = read_bytes(path, IMPORT_BYTES)
    except OSError as exc:
        raise StoreError(path, f"cannot read: {reason_of(exc)}") from None
    return data, hashlib.sha256(data).hexdigest()


def _note_file(conn: sqlite3.Connection, digest: str, path: Path, ids: list[int]) -> None:
    """Remember the file as imported (a file continued again is remembered by its first import)."""
    conn.execute(
        "INSERT OR IGNORE INTO imported_files (sha256, path, at, note) VALUES (?, ?, ?, ?)",
        (digest, str(path), time.time(), "games " + (", ".join(map(str, ids)) or "none")),
    )


def import_file(conn: sqlite3.Connection, path: Path) -> Imported:
    """Import a record, an SGF file or an old journal; the unfinished last game of a journal resumes at
    the next start unless its slot has one already.  StoreError says why the file cannot be imported."""
    data, digest = _read(path)
    before = _imported_before(conn, digest)
    if before is not None:
        return Imported(path, before=before)
    games, notes = _games_of(path, data)
    report = Imported(path, notes=notes)
    with transaction(conn):
        before = _imported_before(conn, digest)  # again: another process may have imported it meanwhile
        if before is not None:
            report.before = before
            return report
        for stored in games:
            if stored.status is Status.PLAYING and in_play(conn, stored.game, stored.options) is not None:
                stored.status = Status.ABANDONED  # the slot has a game that resumes already
            report.ids.append(insert_game(conn, stored))
            if stored.status is Status.PLAYING:
                report.resumes = report.ids[-1]
        _note_file(conn, digest, path, report.ids)
    return report


def continue_file(conn: sqlite3.Connection, path: Path, game_id: str, options: tuple[str, ...]) -> Imported:
    """Import the one unfinished game of a record or SGF file as the game of its slot that resumes (the
    slot's game in play is abandoned, as by a new game), so that the board continues it.  A file
    continued before is imported again: each continuation is a game of its own.  StoreError says why
    the file holds no game of ``game_id`` to continue."""
    data, digest = _read(path)
    games, notes = _games_of(path, data)
    if len(games) != 1:
        raise StoreError(path, f"holds {len(games)} games: give a record or an SGF file of one")
    stored = games[0]
    if (stored.game, stored.options) != (game_id, tuple(sorted(options))):
        raise StoreError(path, f"is a game of {stored.game}, not {game_id}")
    if stored.outcome is not None:
        raise StoreError(path, "the game is over: nothing to continue (`magboard history import` keeps it)")
    stored.status = Status.PLAYING
    report = Imported(path, notes=notes)
    with transaction(conn):
        current = in_play(conn, stored.game, stored.options)
        if current is not None:
            abandon(conn, current, time.time())
        report.ids.append(insert_game(conn, stored))
        report.resumes = report.ids[-1]
        _note_file(conn, digest, path, report.ids)
    return report


def import_old_journals(store: Path) -> list[str]:
    """Import the journal files of earlier versions from the data directory, once: what each import did."""
    found = sorted(data_dir().glob("*.journal"))
    if not found:
        return []
    said = []
    with opened(store) as conn:
        for path in found:
            try:
                report = import_file(conn, path)
            except StoreError as exc:
                said.append(f"{exc} (not imported)")
                continue
            except sqlite3.Error as exc:
                raise StoreError(store, f"cannot write: {reason_of(exc)}") from None
            if report.before is None:
                said.append(str(report))
    return said
