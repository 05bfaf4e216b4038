"""Bringing games from files into the store: text records, and the old journal files, each once.

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

from engines import records
from engines.game import MoveError
from host.files import MIB, read_bytes
from host.shown import quoted
from host.store.database import StoreError, opened, reason_of, transaction
from host.store.games import Status, StoredGame, ending, in_play, insert_game, positions_of, read_stamp
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


def _games_of(path: Path, text: str) -> tuple[list[StoredGame], list[str]]:
    """The games in a file, a journal or a record, and what could not be imported."""
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
    try:
        record = records.parse(text)
        rules = record.make_game()
        status, outcome = ending(rules, positions_of(rules, record.moves)[-1])
    except records.RecordError as exc:
        raise StoreError(path, f"line {exc.line}: {exc.reason}" if exc.line else exc.reason) from None
    except MoveError as exc:
        raise StoreError(path, str(exc)) from None
    times, notes = _times(record.extra)
    stored = StoredGame(
        None, record.game, tuple(sorted(record.options)), record.extra.get("board"), record.players,
        Status.ABANDONED if status is Status.PLAYING else status, times["date"], times["ended"], outcome,
        f"record {path}", list(record.moves), [None] * len(record.moves),
    )  # fmt: skip
    return [stored], notes


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


def import_file(conn: sqlite3.Connection, path: Path) -> Imported:
    """Import a record or an old journal; the unfinished last game of a journal resumes at the next start
    unless its slot has one already.  StoreError says why the file cannot be imported."""
    try:
        data = read_bytes(path, IMPORT_BYTES)
    except OSError as exc:
        raise StoreError(path, f"cannot read: {reason_of(exc)}") from None
    digest = hashlib.sha256(data).hexdigest()
    before = _imported_before(conn, digest)
    if before is not None:
        return Imported(path, before=before)
    games, notes = _games_of(path, data.decode("utf-8", "replace"))
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
        conn.execute(
            "INSERT INTO imported_files (sha256, path, at, note) VALUES (?, ?, ?, ?)",
            (digest, str(path), time.time(), "games " + (", ".join(map(str, report.ids)) or "none")),
        )
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
