"""Damaged stores: bytes flipped, pages zeroed, the file cut short, its log garbled, its rows rewritten.

A store with one unfinished game of each kind is copied and damaged as a failing SD card, a torn
write or another program would, then opened as `magboard play` opens it and listed and shown as
`magboard history` does.  Opening must either resume each game with exactly its moves, or refuse
in one line (a StoreError) - never crash, and never start a new game beside an unfinished one it
failed to find.  SQLite keeps no checksum of its pages' contents, so a flipped byte inside a move
or a name that still reads as one goes unseen; such trials are counted ("changed unseen"), not
failed: nothing here can tell them from a game played so.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

from attacks.common import GAMES, Budget, Table, judge, run_cli, sample_store
from engines import registry
from host.store.database import StoreError
from host.store.recorder import GameRecorder

SQL_DAMAGE = (
    "UPDATE moves SET text = CAST(text AS BLOB) WHERE rowid % 3 = 0",
    "UPDATE moves SET text = CAST(x'ff' || CAST(text AS BLOB) AS TEXT) WHERE ply = 2",
    "UPDATE moves SET at = 'noon' WHERE ply = 1",
    "UPDATE moves SET ply = ply + 10 WHERE ply = 2",
    "DELETE FROM moves WHERE ply = 1",
    "UPDATE moves SET text = 'zz9' WHERE ply = 1",
    "UPDATE games SET player0 = x'1b5b324a'",
    "UPDATE games SET started_at = 'yesterday'",
    "UPDATE games SET score0 = 'many', winner = 7",
    "UPDATE games SET game = 'chess'",
    "UPDATE games SET options = 'bogus'",
    "PRAGMA user_version = 99",
    "DROP TABLE owners",
    "DROP INDEX games_in_play",
)


def _page_damage(rng: random.Random, path: Path) -> tuple[str, str]:
    data = bytearray(path.read_bytes())
    page = 4096
    kind = rng.randrange(5)
    if kind == 0:
        for _ in range(rng.choice((1, 4, 64))):
            data[rng.randrange(len(data))] = rng.randrange(256)
        name = "bytes flipped"
    elif kind == 1:
        start = rng.randrange(len(data) // page) * page
        data[start : start + page] = bytes(page)
        name = "a page zeroed"
    elif kind == 2:
        del data[rng.randrange(len(data)) :]
        name = "cut short"
    elif kind == 3:
        start = rng.randrange(1, len(data) // page) * page
        other = rng.randrange(1, len(data) // page) * page
        data[start : start + page], data[other : other + page] = (
            data[other : other + page],
            data[start : start + page],
        )
        name = "two pages swapped"
    else:
        at, garbage = rng.randrange(100), rng.randbytes(rng.randrange(1, 16))
        data[at : at + len(garbage)] = garbage
        name = "header garbled"
    path.write_bytes(bytes(data))
    return name, ""


def _log_damage(rng: random.Random, path: Path) -> tuple[str, str]:
    wal = path.with_name(path.name + "-wal")
    wal.write_bytes(rng.randbytes(rng.choice((32, 4096 + 24, 70_000))))
    return "a garbage log", ""


def _sql_damage(rng: random.Random, path: Path) -> tuple[str, str]:
    statement = rng.choice(SQL_DAMAGE)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute(statement)
    conn.close()
    return "rows rewritten", statement


def _resume_all(path: Path, games: dict[str, list[str]]) -> tuple[str | None, bool]:
    """Open every game as play does: (why that broke the rules, whether a game came back changed)."""
    changed = False
    for game_id, moves in games.items():
        try:
            recorder = GameRecorder.open(path, registry.make(game_id), board=None, players=("?", "?"))
        except StoreError as exc:
            return ("a message of more than one line" if "\n" in str(exc) else None), changed
        except Exception as exc:
            return f"{type(exc).__name__} at open: {str(exc)[:90]}", changed
        try:
            if recorder.moves != moves:
                if recorder.game_id is not None and not recorder.moves and _unfinished_hidden(path, game_id):
                    return f"a new game started beside the unfinished {game_id}", changed
                changed = True
        finally:
            recorder.close()
    return None, changed


def _unfinished_hidden(path: Path, game_id: str) -> bool:
    """Whether the table (read without its indexes) still holds an older unfinished game of this slot."""
    try:
        with sqlite3.connect(path) as conn:
            rows = conn.execute(
                "SELECT count(*) FROM games NOT INDEXED"
                " WHERE game = ? AND options = '' AND status = 'playing'",
                (game_id,),
            ).fetchone()[0]
        conn.close()
    except sqlite3.Error:
        return False
    return bool(rows > 1)


def run(budget: Budget, work: Path) -> Table:
    table = Table(
        "damaged stores: pages, logs and rows as a card, a torn write or another program leaves them"
    )
    rng = random.Random(budget.seed)
    good = work / "good.sqlite3"
    games = sample_store(good, budget.seed)
    with sqlite3.connect(good) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    unseen = refused = 0
    for trial in budget.trials():
        path = work / f"damaged-{trial % 4}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)
        shutil.copy(good, path)
        damage = rng.choice((_page_damage, _page_damage, _log_damage, _sql_damage))
        try:
            case, detail = damage(rng, path)
        except sqlite3.Error:  # the damage itself could not be done (a row another statement removed)
            continue
        failure, changed = _resume_all(path, games)
        if failure is not None and detail:
            failure += f" ({detail})"
        for action in (("list",), ("show", str(rng.randint(1, len(GAMES))))):
            failure = failure or judge(run_cli("history", "--journal", str(path), *action))
        table.tried(case, failure)
        unseen += changed and failure is None
        refused += run_cli("history", "--journal", str(path), "list").status != 0
    table.figures["stores damaged"] = table.total
    table.figures["refused in one line"] = refused
    table.figures["changed unseen (no page checksums in SQLite)"] = unseen
    return table
