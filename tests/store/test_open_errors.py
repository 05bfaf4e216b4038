"""A store that cannot be used at start: one line naming the path and the reason, exit status 2.

We run as root, so permission bits do not stop us: the unusable places are a
directory, a path under a regular file, a device (/dev/full), sysfs (where
not even root may create a file), a file size limit of 0 (RLIMIT_FSIZE, a
disk that is full from the start), and files that are not stores of ours.
"""

from __future__ import annotations

import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from host.store.games import Status, read_games
from host.store.schema import VERSION
from tests.conftest import ROOT, run_cli


def play(store: Path | str, *extra: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    command = ["play", "desdemona", "--humans", "--terminal", "--journal", str(store), *extra]
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *command],
        input="quit\n", capture_output=True, text=True, cwd=ROOT, timeout=120, **kwargs,  # type: ignore[call-overload]
    )  # fmt: skip


def refused(result: subprocess.CompletedProcess[str], command: str = "play") -> str:
    """The one line said, after checking that nothing else was."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"magboard {command}: ")
    return lines[0]


def test_a_directory(tmp_path: Path) -> None:
    line = refused(play(tmp_path))
    assert (
        line
        == f"magboard play: {tmp_path}: cannot open: it is a directory (give a file name, e.g. games.sqlite3)"
    )


def test_a_path_under_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    store = tmp_path / "file" / "games.sqlite3"
    assert refused(play(store)) == f"magboard play: {store}: cannot open: not a directory"


def test_a_device() -> None:
    assert refused(play("/dev/full")) == "magboard play: /dev/full: cannot open: not a regular file"


def test_a_place_where_no_file_may_be_created() -> None:
    line = refused(play("/sys/magboard-games.sqlite3"))
    assert line in (
        "magboard play: /sys/magboard-games.sqlite3: cannot open: permission denied",
        "magboard play: /sys/magboard-games.sqlite3: cannot open: read-only file system",
    )


def test_a_disk_full_from_the_start(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"

    def no_room() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))

    line = refused(play(store, preexec_fn=no_room))
    assert line.startswith(f"magboard play: {store}: cannot ")
    assert "disk I/O error" in line or "disk is full" in line


def test_an_old_journal_file_is_not_taken_for_a_store(tmp_path: Path) -> None:
    old = tmp_path / "desdemona.journal"
    old.write_text("game: desdemona\noptions: \n---\nmove a4-a6\n")
    line = refused(play(old))
    assert line == (
        f"magboard play: {old}: not a game store (an old journal file? import it with "
        "`magboard history import FILE`)"
    )
    assert old.read_text() == "game: desdemona\noptions: \n---\nmove a4-a6\n"


def test_a_corrupt_store(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    store.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    assert refused(play(store)).startswith(f"magboard play: {store}: cannot ")


def test_a_store_of_a_newer_version(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    with sqlite3.connect(store) as conn:
        conn.execute("PRAGMA user_version = 99")
    line = refused(play(store))
    newer = f"made by a newer magboard (schema 99; this one knows up to {VERSION})"
    assert line == f"magboard play: {store}: {newer}"


def test_a_stored_game_that_no_longer_replays(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    assert play(store).returncode == 0
    conn = sqlite3.connect(store)
    conn.execute("INSERT INTO moves (game_id, ply, text) VALUES (1, 1, 'a4-a9')")
    conn.commit()
    conn.close()
    line = refused(play(store))
    assert line.startswith(
        f"magboard play: {store}: game 1 (desdemona) cannot be resumed: ply 1: move 'a4-a9': "
    )
    assert line.endswith("(start another with --new: this one stays in the store)")
    assert play(store, "--new").returncode == 0
    assert [(g.moves, g.status) for g in read_games(store)] == [
        (["a4-a9"], Status.ABANDONED),
        ([], Status.PLAYING),
    ]


@pytest.mark.parametrize("action", [("list",), ("show", "1"), ("export", "1"), ("import", "x")])
def test_history_says_the_same(tmp_path: Path, action: tuple[str, ...]) -> None:
    line = refused(run_cli("history", "--journal", str(tmp_path), *action), "history")
    assert line.startswith(f"magboard history: {tmp_path}: cannot open: it is a directory")
