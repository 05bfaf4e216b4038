"""Old journal files imported once: complete lines kept, a torn or zero-filled tail reported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from host.store.database import StoreError, opened
from host.store.games import Status, read_games
from host.store.imports import import_file
from tests.conftest import ROOT

HEADER = "game: desdemona\noptions: \n---\n"
RESUMES = "imported, games 1; game 1 resumes at the next start; "


def imported(tmp_path: Path, body: bytes | str) -> tuple[str, list[tuple[list[str], Status]]]:
    journal = tmp_path / "desdemona.journal"
    journal.write_bytes(body if isinstance(body, bytes) else body.encode())
    store = tmp_path / "games.sqlite3"
    with opened(store) as conn:
        said = str(import_file(conn, journal))
    return said, [(g.moves, g.status) for g in read_games(store)]


def test_a_torn_last_line_is_left_out_and_said(tmp_path: Path) -> None:
    said, games = imported(tmp_path, HEADER + "move a4-a6\nmove a7-a8/a7\nmove a6-")
    journal = tmp_path / "desdemona.journal"
    assert said == f"{journal}: {RESUMES}line 6: cut short ('move a6-'), not imported"
    assert games == [(["a4-a6", "a7-a8/a7"], Status.PLAYING)]


def test_a_zero_filled_tail_is_left_out_and_said(tmp_path: Path) -> None:
    said, games = imported(tmp_path, (HEADER + "move a4-a6\nmove a7-a8/a7\n").encode() + bytes(4096))
    assert said.endswith(RESUMES + "line 6: a zero-filled tail of 4096 bytes, not imported")
    assert games == [(["a4-a6", "a7-a8/a7"], Status.PLAYING)]


def test_zeros_then_later_lines_keep_the_later_lines(tmp_path: Path) -> None:
    body = (HEADER + "move a4-a6\n").encode() + bytes(100) + b"\n" + bytes(7) + b"move a7-a8/a7\n"
    said, games = imported(tmp_path, body)
    assert said.endswith(RESUMES + "line 5: zero-filled (a torn write), skipped")
    assert games == [(["a4-a6", "a7-a8/a7"], Status.PLAYING)]


def test_an_entry_glued_to_a_torn_one_is_kept(tmp_path: Path) -> None:
    """The old journal appended after a torn line: 'move a7-' + 'move a7-a8/a7' on one line."""
    said, games = imported(tmp_path, HEADER + "move a4-a6\nmove a7-move a7-a8/a7\nmove a6-a5/a6\n")
    assert said.endswith(RESUMES + "line 5: a torn entry 'move a7-' skipped")
    assert games == [(["a4-a6", "a7-a8/a7", "a6-a5/a6"], Status.PLAYING)]


def test_take_backs_and_new_games(tmp_path: Path) -> None:
    body = HEADER + "move a4-a6\nmove a7-a8/a7\ntakeback 1\nnewgame\nmove a4-a5\nnewgame\n"
    said, games = imported(tmp_path, body)
    assert said.endswith("imported, games 1, 2")  # the journal ends on 'newgame': nothing resumes
    assert games == [(["a4-a6"], Status.ABANDONED), (["a4-a5"], Status.ABANDONED)]


def test_an_illegal_move_ends_the_import_there(tmp_path: Path) -> None:
    said, games = imported(tmp_path, HEADER + "move a4-a6\nmove a7-a6\nmove a7-a8/a7\n")
    assert said.endswith(
        RESUMES + "line 5: move 'a7-a6': not legal here: the queen on a7 cannot reach a6:"
        " this line and the 1 after it are not imported"
    )
    assert games == [(["a4-a6"], Status.PLAYING)]


def test_a_journal_is_imported_once(tmp_path: Path) -> None:
    imported(tmp_path, HEADER + "move a4-a6\n")
    said, games = imported(tmp_path, HEADER + "move a4-a6\n")
    assert said == f"{tmp_path / 'desdemona.journal'}: imported before (games 1)"
    assert len(games) == 1


def test_a_journal_whose_header_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as caught:
        imported(tmp_path, "game: nosuchgame\n---\nmove a4-a6\n")
    assert str(caught.value).startswith(f"{tmp_path / 'desdemona.journal'}: line 2: ")


def test_magboard_play_imports_the_old_journals_once_and_resumes_their_game(tmp_path: Path) -> None:
    data = tmp_path / "magboard"
    data.mkdir()
    (data / "desdemona.journal").write_text(HEADER + "move a4-a6\nmove a7-a8/a7\nmove a6")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "host.cli", "play", "desdemona", "--humans", "--terminal"]

    def play() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, input="quit\n", capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
        )

    first = play()
    assert first.returncode == 0, first.stderr
    journal = data / "desdemona.journal"
    assert first.stderr == f"magboard play: {journal}: {RESUMES}line 6: cut short ('move a6'), not imported\n"
    assert "moves: a4-a6 a7-a8/a7" in first.stdout
    assert f"moves are saved in {data / 'games.sqlite3'}" in first.stdout
    second = play()
    assert (second.returncode, second.stderr) == (0, "")
    assert len(read_games(data / "games.sqlite3")) == 1


@pytest.mark.parametrize("count", ["\u00b2", "\u0663", "9" * 5000, "0", "3"])
def test_a_take_back_count_that_is_not_one_ends_the_import_there(tmp_path: Path, count: str) -> None:
    said, games = imported(tmp_path, HEADER + f"move a4-a6\ntakeback {count}\nmove a7-a8/a7\n")
    shown = repr(f"takeback {count}") if len(count) < 100 else ""
    assert (
        "line 5: cannot read " + shown in said and ": this line and the 1 after it are not imported" in said
    )
    assert games == [(["a4-a6"], Status.PLAYING)]


def test_a_journal_that_crashed_every_start_is_said_once_and_the_store_opens(tmp_path: Path) -> None:
    data = tmp_path / "magboard"
    data.mkdir()
    (data / "desdemona.journal").write_text(HEADER + "move a4-a6\ntakeback \u00b2\n")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    listing = [sys.executable, "-m", "host.cli", "history", "list"]
    first = subprocess.run(listing, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert first.returncode == 0 and "Traceback" not in first.stderr, first.stderr
    assert "line 5: cannot read 'takeback ²': this line and the 0 after it are not imported" in first.stderr
    assert first.stdout.split()[0] == "1" and "desdemona  1 move  playing" in first.stdout
    second = subprocess.run(listing, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert (second.returncode, second.stderr) == (0, "")  # imported once: never read again
