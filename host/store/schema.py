"""The store's schema, as the migrations that build it: a database at version N has run the first N.

A migration is never edited once released; a change to the schema is a new one
appended here, run once in the transaction that opens an older database.
"""

from __future__ import annotations

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '',
            board TEXT,
            player0 TEXT NOT NULL DEFAULT '?',
            player1 TEXT NOT NULL DEFAULT '?',
            status TEXT NOT NULL CHECK (status IN ('playing', 'finished', 'abandoned')),
            started_at REAL,
            ended_at REAL,
            winner INTEGER CHECK (winner IN (0, 1)),
            score0 INTEGER,
            score1 INTEGER,
            source TEXT NOT NULL DEFAULT 'played'
        )""",
        "CREATE INDEX games_in_play ON games (game, options) WHERE status = 'playing'",
        """CREATE TABLE moves (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            ply INTEGER NOT NULL CHECK (ply > 0),
            text TEXT NOT NULL,
            at REAL,
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID""",
        """CREATE TABLE imported_files (
            sha256 TEXT PRIMARY KEY,
            path TEXT NOT NULL,
            at REAL NOT NULL,
            note TEXT NOT NULL
        )""",
    ),
    # The stones a Go game's players agreed were dead after the rules' end (cell names, space-separated;
    # NULL: nothing agreed, '' agreed that none were): engines/table.py's ``dead_proposal``.
    ("ALTER TABLE games ADD COLUMN dead TEXT",),
)

VERSION = len(MIGRATIONS)
