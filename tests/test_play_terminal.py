"""The terminal game: typed moves, help commands, bad input, the record file and resuming."""

from __future__ import annotations

from pathlib import Path

from engines import records
from tests.conftest import run_cli


def play(tmp_path: Path, typed: str, *extra: str) -> str:
    result = run_cli(
        "play", "desdemona", "--seconds", "0.2", "--level", "1", "--record", str(tmp_path / "game.txt"),
        *extra, input_text=typed,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_move_gets_an_ai_reply_and_is_recorded(tmp_path: Path) -> None:
    out = play(tmp_path, "a4-a6\nquit\n")
    assert "AI plays " in out
    moves = records.load(tmp_path / "game.txt").moves
    assert moves[0] == "a4-a6" and len(moves) == 2


def test_bad_input_is_explained_and_the_game_goes_on(tmp_path: Path) -> None:
    out = play(tmp_path, "zz\na4-a9\nmoves\na4-a6\nquit\n")
    assert "'zz': expected" in out
    assert "'a4-a9': not legal here: the queen on a4 cannot reach a9" in out
    assert "a4-a5 a4-a6" in out  # the legal move list
    assert records.load(tmp_path / "game.txt").moves[0] == "a4-a6"


def test_undo_takes_back_the_human_move_and_the_reply(tmp_path: Path) -> None:
    play(tmp_path, "a4-a6\nundo\nquit\n")
    assert records.load(tmp_path / "game.txt").moves == []


def test_resume_continues_the_recorded_game(tmp_path: Path) -> None:
    play(tmp_path, "a4-a6\nquit\n")
    out = play(tmp_path, "quit\n", "--resume")
    assert "move 3>" in out
    assert len(records.load(tmp_path / "game.txt").moves) == 2


def test_end_of_input_stops_cleanly(tmp_path: Path) -> None:
    assert "move 1>" in play(tmp_path, "")
