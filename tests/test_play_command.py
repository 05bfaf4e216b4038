"""`magboard play` on the simulated board: typed moves and actions, scripts, the game store."""

from __future__ import annotations

import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from host.cli_error import CliError
from host.commands.play import run_script
from host.store.games import Status, read_games
from tests.conftest import run_cli


def play(tmp_path: Path, typed: str, *extra: str) -> str:
    result = run_cli(
        "play", "desdemona", "--nodes", "40", "--level", "2", "--journal", str(tmp_path / "games.sqlite3"),
        "--terminal", *extra, input_text=typed,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_typed_move_is_made_by_simulated_hands_and_the_ai_move_is_lit(tmp_path: Path) -> None:
    out = play(tmp_path, "a4-a6\nquit\n")
    assert "AI plays " in out and "LEDs: " in out
    assert read_games(tmp_path / "games.sqlite3")[-1].moves[0] == "a4-a6"


def test_physical_actions_and_bad_input(tmp_path: Path) -> None:
    out = play(tmp_path, "zz\nlift a4\nplace b6\nlift b6\nplace a4\nlift z9\nmoves\nquit\n")
    assert "'zz': expected" in out
    assert "b6 lift (fast)" in out  # a queen put on b6 is no move: guided back
    assert "no cell 'z9'" in out
    assert "a4-a5 a4-a6" in out
    assert read_games(tmp_path / "games.sqlite3")[-1].moves == []


@pytest.mark.parametrize(
    ("game", "example"), [("desdemona", "e.g. a4-a6/c8 (shot)"), ("go7", "e.g. d4 or pass)")]
)
def test_help_gives_an_example_in_the_games_own_notation(tmp_path: Path, game: str, example: str) -> None:
    result = run_cli(
        "play", game, "--humans", "--journal", str(tmp_path / "games.sqlite3"), "--terminal",
        input_text="help\nquit\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"Type a move ({example}" in result.stdout


def test_do_carries_out_the_ai_move_and_the_game_resumes_from_the_store(tmp_path: Path) -> None:
    play(tmp_path, "a4-a6\ndo\nquit\n")
    moves = read_games(tmp_path / "games.sqlite3")[-1].moves
    assert len(moves) == 2
    out = play(tmp_path, "quit\n")
    assert "moves: " + " ".join(moves) in out
    play(tmp_path, "quit\n", "--new")
    first, second = read_games(tmp_path / "games.sqlite3")
    assert (first.moves, first.status, second.moves, second.status) == (
        moves,
        Status.ABANDONED,
        [],
        Status.PLAYING,
    )


def test_a_script_prints_commits_and_led_frames_as_json_lines(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text(
        "# Black's first move\nlift a4   # the LEDs show where it may go\nwait 300\nplace a6\nwait 400\n"
    )
    result = run_cli(
        "play", "desdemona", "--humans", "--script", str(script), "--journal", str(tmp_path / "j"),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    commits = [e["move"] for e in events if e["event"] == "commit"]
    assert commits == ["a4-a6"]
    lit = [e["lit"] for e in events if e["event"] == "leds" and e["lit"]]
    # The queen in the hand: green where it may go, and its own square dark (putting it back is no move).
    assert lit[0]["a6"] == [0, 255, 0] and "a4" not in lit[0]
    assert events[-1] == {"t": events[-1]["t"], "event": "end", "moves": ["a4-a6"]}


def test_a_bad_script_names_the_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("lift a4\nfly a6\n")
    result = run_cli("play", "desdemona", "--script", str(script), "--journal", str(tmp_path / "j"))
    assert result.returncode == 2
    assert (
        result.stderr.strip() == f"magboard play: {script}:line 2: 'fly a6': unknown action 'fly' "
        "(lift, place, remove, turn, slide, tap, wait, press, step)"
    )


def test_end_of_input_stops_cleanly(tmp_path: Path) -> None:
    assert "Type 'help'" in play(tmp_path, "")


def test_a_typed_pass_presses_the_pass_button(tmp_path: Path) -> None:
    result = run_cli(
        "play", "go7", "--humans", "--journal", str(tmp_path / "games.sqlite3"), "--terminal",
        input_text="d4\npass\nc3\npass\npass\nconfirm\nquit\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Take off the dead stones" not in result.stdout  # nothing is proposed dead: no White stone
    assert "Take off any stones you agree are dead, then press Confirm. By area Black 49, White 0 + 7.5" in (
        result.stdout
    )
    assert "Game over: Black wins. By area Black 49, White 0 + 7.5: Black wins by 41.5." in result.stdout
    (stored,) = read_games(tmp_path / "games.sqlite3")
    assert stored.moves == ["d4", "pass", "c3", "pass", "pass"] and stored.status is Status.FINISHED


class SilentAfterHello:
    """A device that said HELLO and then went quiet before its sensors settled."""

    latest = None
    device = None


def test_a_script_waits_for_the_settled_board_and_says_when_it_never_settles() -> None:
    table = SimpleNamespace(link=SilentAfterHello(), reach=SimpleNamespace(ready_s=1.0))
    with pytest.raises(CliError, match=r"^the simulated board said HELLO, then went silent$"):
        run_script(table, [], io.StringIO())  # type: ignore[arg-type]
