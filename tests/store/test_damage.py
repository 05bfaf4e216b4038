"""A damaged store is said in one line with what to do, never used as if it were sound.

The damage is done as a disk or another program would: an index page emptied on
the disk (the game in progress can then not be found by its slot), a table page
overwritten, and values in the rows no magboard writes (a BLOB for a move, bytes
that are not UTF-8, an unknown status).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engines import registry
from host.store.database import StoreError
from host.store.games import Status
from host.store.recorder import GameRecorder
from tests.conftest import run_cli

MOVES = ["a4-a6", "a7-a8/a7"]


def open_desdemona(store: Path, new: bool = False) -> GameRecorder:
    return GameRecorder.open(store, registry.make("desdemona"), board=None, players=("?", "?"), new=new)


def two_moves(store: Path) -> None:
    recorder = open_desdemona(store)
    for text in MOVES:
        recorder.move(text)
    recorder.close()


def page_of(store: Path, name: str) -> tuple[int, int]:
    """Where the b-tree ``name`` starts in the file (the log checkpointed first): offset, page size."""
    with sqlite3.connect(store) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    return (root - 1) * size, size


def empty_the_index(store: Path) -> None:
    """The index of games in play loses its rows, as a torn write of its page would leave it."""
    offset, size = page_of(store, "games_in_play")
    with open(store, "r+b") as f:
        f.seek(offset)
        f.write(bytes([0x0A, 0, 0, 0, 0]) + (size % 65536).to_bytes(2, "big") + b"\x00")  # an empty leaf


def one_line(*args: str) -> str:
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr, result
    (line,) = result.stderr.splitlines()
    return line


def test_a_damaged_index_is_said_and_never_starts_a_second_game(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    two_moves(store)
    empty_the_index(store)
    damage = "the store is damaged (row 1 missing from index games_in_play); nothing was changed: "
    with pytest.raises(StoreError, match=r"damaged \(row 1 missing from index games_in_play\)"):
        open_desdemona(store)
    assert damage in one_line("history", "--journal", str(store), "list")
    assert read_games_unchecked(store) == [(1, Status.PLAYING)]  # and no game 2
    repaired = run_cli("history", "--journal", str(store), "repair")
    assert repaired.returncode == 0, repaired.stderr
    assert repaired.stdout.startswith(
        f"{store}: repaired (its indexes were rebuilt); the damaged store is kept"
    )
    (copy,) = tmp_path.glob("games.sqlite3.damaged-*")
    assert repaired.stdout.rstrip().endswith(str(copy))
    resumed = open_desdemona(store)
    assert (resumed.game_id, resumed.moves) == (1, MOVES)
    resumed.close()
    assert run_cli("history", "--journal", str(store), "repair").stdout == (
        f"{store}: the store is sound; nothing to repair\n"
    )


def read_games_unchecked(store: Path) -> list[tuple[int, Status]]:
    """The games as SQLite reads them without the index (what a store that skipped the check would see)."""
    with sqlite3.connect(store) as conn:
        rows = conn.execute("SELECT id, status FROM games NOT INDEXED ORDER BY id").fetchall()
    conn.close()
    return [(id_, Status(status)) for id_, status in rows]


def test_a_damaged_table_is_said_and_repair_says_what_it_cannot_do(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    two_moves(store)
    offset, _size = page_of(store, "moves")
    with open(store, "r+b") as f:
        f.seek(offset + 8)
        f.write(b"\xff" * 200)
    damage = (
        f"magboard history: {store}: the store is damaged (On tree page 4 cell 1: Offset 65535 out of range"
    )
    assert one_line("history", "--journal", str(store), "show", "1").startswith(damage)
    line = one_line("history", "--journal", str(store), "repair")
    assert "rebuilding its indexes did not repair it (" in line
    assert line.endswith("sqlite3's .recover may save its games")
    (copy,) = tmp_path.glob("games.sqlite3.damaged-*")
    assert copy.read_bytes()[:16] == b"SQLite format 3\x00"


# (what another program wrote, how it is said)
ROWS = [
    (
        "UPDATE moves SET text = x'61342d6136' WHERE ply = 2",
        "game 1: its move 2 is not text (a BLOB of 5 bytes)",
    ),
    (
        "UPDATE moves SET text = CAST(x'ff61' AS TEXT) WHERE ply = 2",
        "game 1: its move 2 is not text (bytes that are not UTF-8)",
    ),
    ("UPDATE moves SET at = 'noon' WHERE ply = 1", "game 1: the time of its move 1 is not a time ('noon')"),
    ("UPDATE moves SET ply = 3 WHERE ply = 2", "game 1: its move 2 is missing (the next is int '3')"),
    ("UPDATE games SET player0 = x'1b5b324a'", "game 1: its player0 is not text (a BLOB of 4 bytes)"),
    ("UPDATE games SET board = x'00'", "game 1: its board is not text (a BLOB of 1 byte)"),
    ("UPDATE games SET started_at = 'yesterday'", "game 1: its started_at is not a time ('yesterday')"),
]


@pytest.mark.parametrize(("change", "said"), ROWS, ids=[said for _, said in ROWS])
def test_a_row_no_magboard_wrote_is_one_line_at_play_and_history(
    tmp_path: Path, change: str, said: str
) -> None:
    store = tmp_path / "games.sqlite3"
    two_moves(store)
    with sqlite3.connect(store) as conn:
        conn.execute(change)
    conn.close()
    with pytest.raises(StoreError) as refused:
        open_desdemona(store)
    assert str(refused.value) == (
        f"{store}: {said}: it cannot be resumed (start another with --new: this one stays in the store)"
    )
    assert one_line("history", "--journal", str(store), "show", "1") == (
        f"magboard history: {store}: {said}: it was changed outside magboard"
    )
    fresh = open_desdemona(store, new=True)  # --new starts afresh, and the damaged game stays
    assert fresh.game_id == 2 and fresh.moves == []
    fresh.close()
    listed = run_cli("history", "--journal", str(store), "list")
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    lines = listed.stdout.splitlines()
    if "moves" in change:  # the game itself is readable: only its moves are damaged
        assert lines[0].split()[0] == "1" and len(lines) == 2
    else:
        assert lines == [lines[0], f"damaged: {said} (it was changed outside magboard)"]
    with sqlite3.connect(store) as conn:
        assert conn.execute("SELECT id, status FROM games ORDER BY id").fetchall() == [
            (1, "abandoned"),
            (2, "playing"),
        ]
    conn.close()


def test_an_unknown_status_breaks_a_constraint_and_is_said_at_open(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    two_moves(store)
    with sqlite3.connect(store) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("UPDATE games SET status = 'won'")
    conn.close()
    damage = f"{store}: the store is damaged (CHECK constraint failed in games); nothing was changed: "
    assert one_line("history", "--journal", str(store), "export", "1").startswith(
        f"magboard history: {damage}"
    )
    with pytest.raises(StoreError, match="CHECK constraint failed"):
        open_desdemona(store)


def test_a_schema_whose_text_is_not_utf8_is_said_damaged_in_one_line(tmp_path: Path) -> None:
    """Bytes flipped in the schema's SQL: SQLite's complaint quotes them and Python's sqlite3 fails to
    decode that (a UnicodeDecodeError, found by benchmarks/attacks/damage.py); it is a damaged store."""
    store = tmp_path / "games.sqlite3"
    two_moves(store)
    with sqlite3.connect(store) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(store.read_bytes())
    at = data.index(b"PRIMARY KEY") + len(b"PRIMARY ")
    data[at] = (
        0xCB  # 'K' with one bit flipped: a lead byte without its continuation, in a token SQLite quotes
    )
    store.write_bytes(bytes(data))
    with pytest.raises(StoreError) as refused:
        open_desdemona(store)
    message = str(refused.value)
    assert "damaged" in message and "\n" not in message
    repair = run_cli("history", "--journal", str(store), "repair")
    assert repair.returncode != 0 and "cannot repair" in repair.stderr and "Traceback" not in repair.stderr
