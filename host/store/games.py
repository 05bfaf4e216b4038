"""Games as the store keeps them: rows in, rows out, and a game as a text record.

The writing side used while a game is played is host/store/recorder.py; this
module holds what it shares with `magboard history` and the importers.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from engines import registry
from engines.game import Game, M, MoveError, Outcome, P
from engines.records import Record
from host.numbers import LARGEST_ID
from host.shown import quoted, unbroken
from host.store.database import BUSY_MS, opened, store_text


class DamagedGame(sqlite3.DatabaseError):
    """A stored game whose row no magboard wrote (a value of the wrong type, an unknown status)."""


class Status(Enum):
    PLAYING = "playing"  # the game of its slot that resumes at the next start
    FINISHED = "finished"  # the rules say it is over: winner and score are set
    ABANDONED = "abandoned"  # left unfinished: a new game was started instead


@dataclass
class StoredGame:
    """One game of the store: who played what, when, how it ended, and its moves."""

    id: int | None
    game: str
    options: tuple[str, ...]
    board: str | None
    players: tuple[str, str]
    status: Status
    started_at: float | None
    ended_at: float | None = None
    outcome: Outcome | None = None
    source: str = "played"
    moves: list[str] = field(default_factory=list)
    times: list[float | None] = field(default_factory=list)
    # The stones the players agreed were dead after the rules' end (None: nothing agreed).
    dead: tuple[str, ...] | None = None

    def make_game(self) -> Game[Any, Any]:
        return registry.make(self.game, self.options)

    def record(self) -> Record:
        """The game as a text record (`magboard record check` reads it back)."""
        extra: dict[str, str] = {"status": self.status.value}
        if self.board:
            extra["board"] = self.board
        if self.started_at is not None:
            extra["date"] = stamp(self.started_at)
        if self.ended_at is not None:
            extra["ended"] = stamp(self.ended_at)
        if self.outcome is not None:
            extra["result"] = result_text(self.outcome)
        if self.dead is not None:
            extra["dead"] = " ".join(self.dead)
        players = (unbroken(self.players[0]), unbroken(self.players[1]))  # one header line each
        return Record(self.game, players, self.options, list(self.moves), extra)


STAMP = "%Y-%m-%d %H:%M:%S"
STAMPS_READ = (STAMP, "%Y-%m-%d %H:%M", "%Y-%m-%d")  # a record typed by hand may give less


def stamp(at: float) -> str:
    return time.strftime(STAMP, time.localtime(at))


def read_stamp(text: str) -> float | None:
    """The time a record's ``date`` gives (local time, as ``stamp`` writes it), or None if it gives none."""
    for form in STAMPS_READ:
        try:
            return time.mktime(time.strptime(text.strip(), form))
        except (ValueError, OverflowError):
            continue
    return None


def result_text(outcome: Outcome) -> str:
    result = {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[outcome.winner]
    return result if outcome.score is None else f"{result} ({outcome.score[0]}:{outcome.score[1]})"


def positions_of(game: Game[P, M], moves: Sequence[str]) -> list[P]:
    """Every position of a game from the start; MoveError names the ply that cannot be played."""
    positions = [game.start()]
    for ply, text in enumerate(moves, start=1):
        try:
            positions.append(game.play(positions[-1], game.parse_move(positions[-1], text)))
        except MoveError as exc:
            raise MoveError(f"ply {ply}: move {quoted(text)}: {exc}") from None
    return positions


def ending(game: Game[P, M], pos: P) -> tuple[Status, Outcome | None]:
    outcome = game.outcome(pos)
    return (Status.PLAYING, None) if outcome is None else (Status.FINISHED, outcome)


def played_ending(game: Game[P, M], pos: P) -> tuple[Status, Outcome | None]:
    """``ending`` of a game played on the board: one whose players still have to agree on the dead stones
    is in play (it resumes in that phase), not finished."""
    if game.table.dead_proposal(game, pos) is not None:
        return Status.PLAYING, None
    return ending(game, pos)


GAME_COLUMNS = (
    "id, game, options, board, player0, player1, status, started_at, ended_at, winner, score0, score1,"
    " source, dead"
)


def _is_text(value: object) -> bool:
    """Text as magboard stores it: a str, of valid UTF-8 (``store_text`` keeps other bytes as surrogates)."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_time(value: object) -> bool:
    return value is None or (isinstance(value, int | float) and not isinstance(value, bool))


def _what(value: object) -> str:
    """A stored value as a message names it."""
    if isinstance(value, str):
        return quoted(value) if _is_text(value) else "bytes that are not UTF-8"
    if isinstance(value, bytes):
        return "a BLOB of 1 byte" if len(value) == 1 else f"a BLOB of {len(value)} bytes"
    return f"{type(value).__name__} {quoted(repr(value))}"


def _from_row(row: sqlite3.Row | tuple[Any, ...]) -> StoredGame:
    """A game from its row; DamagedGame names the first value no magboard would have written."""
    (id_, game, options, board, p0, p1, status, started, ended, winner, s0, s1, source, dead) = row
    texts = {"game": game, "options": options, "player0": p0, "player1": p1, "source": source}
    for column, value in {**texts, "board": board or ""}.items():
        if not _is_text(value):
            raise DamagedGame(f"game {id_}: its {column} is not text ({_what(value)})")
    if dead is not None and not _is_text(dead):
        raise DamagedGame(f"game {id_}: its dead stones are not text ({_what(dead)})")
    if status not in {s.value for s in Status}:
        raise DamagedGame(f"game {id_}: its status is {_what(status)}, not playing, finished or abandoned")
    for column, value in (("started_at", started), ("ended_at", ended)):
        if not _is_time(value):
            raise DamagedGame(f"game {id_}: its {column} is not a time ({_what(value)})")
    if winner not in (None, 0, 1) or not all(s is None or type(s) is int for s in (s0, s1)):
        raise DamagedGame(f"game {id_}: its result is not one ({_what(winner)}, {_what(s0)}, {_what(s1)})")
    outcome = None
    if Status(status) is Status.FINISHED:
        outcome = Outcome(winner, None if s0 is None or s1 is None else (s0, s1))
    return StoredGame(
        id_, game, tuple(options.split()), board, (p0, p1), Status(status), started, ended, outcome, source,
        dead=None if dead is None else tuple(dead.split()),
    )  # fmt: skip


def list_games(
    conn: sqlite3.Connection, damaged: list[DamagedGame] | None = None
) -> list[tuple[StoredGame, int]]:
    """Every game, oldest first, with its number of moves (the moves themselves are not read).

    A damaged game raises DamagedGame; given a list ``damaged``, it goes there and the rest are listed.
    """
    rows = conn.execute(
        f"SELECT {GAME_COLUMNS}, (SELECT count(*) FROM moves WHERE game_id = games.id) FROM games ORDER BY id"
    ).fetchall()
    games = []
    for row in rows:
        try:
            games.append((_from_row(row[:-1]), row[-1]))
        except DamagedGame as exc:
            if damaged is None:
                raise
            damaged.append(exc)
    return games


def recent_games(
    conn: sqlite3.Connection, game_id: str, options: tuple[str, ...], limit: int
) -> tuple[list[tuple[StoredGame, int]], int]:
    """The newest ``limit`` games of one game and options, newest first, with their numbers of moves;
    and how many such games the store holds in all."""
    key = (game_id, " ".join(sorted(options)))
    rows = conn.execute(
        f"SELECT {GAME_COLUMNS}, (SELECT count(*) FROM moves WHERE game_id = games.id) FROM games"
        " WHERE game = ? AND options = ? ORDER BY id DESC LIMIT ?",
        (*key, limit),
    ).fetchall()
    total = conn.execute("SELECT count(*) FROM games WHERE game = ? AND options = ?", key).fetchone()[0]
    return [(_from_row(row[:-1]), row[-1]) for row in rows], int(total)


def load_game(conn: sqlite3.Connection, game_id: int) -> StoredGame | None:
    """The game with this id and its moves; None when there is none (an id SQLite cannot hold included).
    DamagedGame when its row or a move is one no magboard would have written."""
    if not 1 <= game_id <= LARGEST_ID:
        return None
    row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        return None
    stored = _from_row(row)
    for ply, text, at in conn.execute(
        "SELECT ply, text, at FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
    ):
        number = len(stored.moves) + 1
        if ply != number:
            raise DamagedGame(f"game {game_id}: its move {number} is missing (the next is {_what(ply)})")
        if not _is_text(text):
            raise DamagedGame(f"game {game_id}: its move {number} is not text ({_what(text)})")
        if not _is_time(at):
            raise DamagedGame(f"game {game_id}: the time of its move {number} is not a time ({_what(at)})")
        stored.moves.append(text)
        stored.times.append(at)
    return stored


def in_play(conn: sqlite3.Connection, game_id: str, options: tuple[str, ...]) -> int | None:
    """The id of the slot's game that resumes, if it has one."""
    row = conn.execute(
        "SELECT id FROM games WHERE game = ? AND options = ? AND status = 'playing' ORDER BY id DESC",
        (game_id, " ".join(sorted(options))),
    ).fetchone()
    return None if row is None else int(row[0])


def abandon(conn: sqlite3.Connection, game_id: int, now: float) -> None:
    """Mark a game abandoned by its id alone, without reading it (it may be damaged)."""
    conn.execute("UPDATE games SET status = 'abandoned', ended_at = ? WHERE id = ?", (now, game_id))


def insert_game(conn: sqlite3.Connection, stored: StoredGame) -> int:
    """A new row for the game and all its moves; returns its id."""
    cursor = conn.execute(
        "INSERT INTO games (game, options, board, player0, player1, status, started_at, source)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (stored.game, " ".join(sorted(stored.options)), stored.board, *stored.players, stored.status.value,
         stored.started_at, stored.source),
    )  # fmt: skip
    assert cursor.lastrowid is not None
    update_game(conn, cursor.lastrowid, stored, kept=0)
    return cursor.lastrowid


def update_game(conn: sqlite3.Connection, game_id: int, stored: StoredGame, kept: int) -> None:
    """Write the game's state and its moves after the first ``kept`` plies (those are stored already)."""
    outcome = stored.outcome
    score = outcome.score if outcome is not None and outcome.score is not None else (None, None)
    conn.execute(
        "UPDATE games SET status = ?, started_at = ?, ended_at = ?, winner = ?, score0 = ?, score1 = ?,"
        " dead = ?, player0 = ?, player1 = ? WHERE id = ?",
        (stored.status.value, stored.started_at, stored.ended_at, outcome.winner if outcome else None, *score,
         None if stored.dead is None else " ".join(stored.dead), *stored.players, game_id),
    )  # fmt: skip
    conn.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, kept))
    conn.executemany(
        "INSERT INTO moves (game_id, ply, text, at) VALUES (?, ?, ?, ?)",
        [(game_id, ply, text, at) for ply, (text, at) in
         enumerate(zip(stored.moves[kept:], stored.times[kept:], strict=True), start=kept + 1)],
    )  # fmt: skip


@contextlib.contextmanager
def reading(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the store at ``path``.

    It never takes the write lock (``open_store`` migrates, which writes), so
    the process playing a game goes on committing its moves undisturbed; in WAL
    mode the reader sees the last commit.  sqlite3.Error says why it cannot.
    """
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_MS / 1000, check_same_thread=False
    )
    conn.text_factory = store_text
    try:
        yield conn
    finally:
        conn.close()


def read_games(path: Path) -> list[StoredGame]:
    """Every game in the store at ``path`` with its moves (for tests and tools)."""
    with opened(path) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]
        return [g for g in (load_game(conn, i) for i in ids) if g is not None]
