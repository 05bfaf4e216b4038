"""A store made before the dead stones were kept (schema 1) opens, gains the column, and keeps its games."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from host.store.database import open_store
from host.store.games import Status, read_games
from host.store.schema import MIGRATIONS, VERSION


def test_a_schema_1_store_gains_the_dead_stones_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as conn:
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute(
            "INSERT INTO games (game, status, winner, score0, score1) VALUES ('go7', 'finished', 1, 7, 15)"
        )
        conn.execute("INSERT INTO moves (game_id, ply, text) VALUES (1, 1, 'pass'), (1, 2, 'pass')")
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    open_store(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (VERSION,) == (2,)
    conn.close()
    (stored,) = read_games(path)
    assert stored.status is Status.FINISHED and stored.moves == ["pass", "pass"] and stored.dead is None
