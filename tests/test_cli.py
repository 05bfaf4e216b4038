"""The command line contract: JSON shapes, exit statuses and one-line errors."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_games_lists_the_game_ids() -> None:
    result = run_cli("games")
    assert result.returncode == 0
    assert "desdemona" in result.stdout.split()


def test_games_long_gives_each_games_boards_and_options_with_their_help() -> None:
    result = run_cli("games", "--long")
    assert result.returncode == 0, result.stderr
    assert (
        "kingofrings: The King of Rings\n"
        "  default board: kingofrings-hall\n"
        "  boards: kingofrings-hall, kingofrings-reed\n"
        "  --option empty_steps (flag, off unless named): a knight with no ring may also step onto an empty"
        " square\n"
        "  --option blue_parity (flag, off unless named): b1 is blue instead of a1"
    ) in result.stdout
    go7 = "go7: Go 7x7\n  default board: go7-hall\n  boards: go7-hall, go7-reed\nkingofrings"
    assert go7 in result.stdout


def test_rules_at_the_desdemona_start_lists_queen_moves_only() -> None:
    result = run_cli("rules", "desdemona")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state == {
        "game": "desdemona",
        "to_move": 0,
        "legal": sorted(state["legal"]),
        "over": False,
        "winner": None,
        "score": [0, 0],
    }
    assert len(state["legal"]) == 80
    assert all("/" not in m and "x" not in m for m in state["legal"])


def test_rules_each_prints_one_line_per_position() -> None:
    result = run_cli("rules", "desdemona", "--each", "a4-a6", "a7-a8/a7")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [s["to_move"] for s in lines] == [0, 1, 0]
    assert lines[-1]["score"] == [1, 0]


def test_an_illegal_move_names_the_ply_and_move_without_a_traceback() -> None:
    result = run_cli("rules", "desdemona", "a4-a6", "a7-a5/a7")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "magboard rules: ply 2: move 'a7-a5/a7': not legal here: the queen on a7 cannot reach a5"
    ]


def test_unknown_game_and_option_are_one_line_errors() -> None:
    result = run_cli("rules", "chess")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "unknown game 'chess'" in result.stderr
    result = run_cli("perft", "desdemona", "1", "--option", "fast")
    assert result.returncode == 2 and "unknown option 'fast'" in result.stderr


def test_perft_counts_move_sequences() -> None:
    assert run_cli("perft", "desdemona", "0").stdout.strip() == "1"
    assert run_cli("perft", "desdemona", "1").stdout.strip() == "80"
    # After a4-a6 White has 2192 moves (each queen move with its shots); cross-checked against the
    # independent implementation in tests/reference.
    assert run_cli("perft", "desdemona", "1", "a4-a6").stdout.strip() == "2192"
    assert run_cli("perft", "desdemona", "-1").returncode == 2
