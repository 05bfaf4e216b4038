"""`magboard analyse` and `magboard match` from the command line."""

from __future__ import annotations

import json

import pytest

from engines import registry
from engines.ai import think
from host.cli import main


def test_analyse_prints_a_legal_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["analyse", "kingofrings", "d2-d3", "--nodes", "300"])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    game = registry.make("kingofrings")
    # The principal variation must replay as canonical moves after d2-d3.
    pos = game.play_texts(["d2-d3"])
    game.play_texts(out["pv"], pos)
    assert out["best"] == out["pv"][0]
    assert out["to_move"] == 1
    assert -1.0 <= out["value"] <= 1.0
    assert out["algorithm"] == "alphabeta"


def test_analyse_is_reproducible_with_a_node_budget(capsys: pytest.CaptureFixture[str]) -> None:
    main(["analyse", "flipfour", "--nodes", "300", "--seed", "2"])
    first = json.loads(capsys.readouterr().out)
    main(["analyse", "flipfour", "--nodes", "300", "--seed", "2"])
    second = json.loads(capsys.readouterr().out)
    for timed in ("seconds", "nodes_per_second"):
        first.pop(timed)
        second.pop(timed)
    assert first == second


def test_analyse_counts_nodes_per_second_and_mcts_simulations(capsys: pytest.CaptureFixture[str]) -> None:
    main(["analyse", "spacetiles", "--nodes", "300"])
    mcts = json.loads(capsys.readouterr().out)
    main(["analyse", "kingofrings", "--nodes", "300"])
    alphabeta = json.loads(capsys.readouterr().out)
    assert mcts["algorithm"] == "mcts"
    # Every simulation produces at least one position (its leaf), so there are no more than nodes.
    assert 0 < mcts["simulations"] <= mcts["nodes"]
    assert mcts["depth"] == len(mcts["pv"])
    assert alphabeta["simulations"] is None
    for found in (mcts, alphabeta):
        # "seconds" is rounded to a millisecond, "nodes_per_second" to a whole number.
        rate = found["nodes_per_second"]
        assert rate > 0
        assert abs(rate * found["seconds"] - found["nodes"]) <= rate * 0.0005 + found["seconds"] + 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyse", "flipfour", "--level", "0", "--nodes", "10"], "--level must be 1..10"),
        (["analyse", "flipfour", "--nodes", "0"], "--nodes must be positive"),
        (["analyse", "flipfour", "zz", "--nodes", "10"], "ply 1: move 'zz'"),
        (["match", "flipfour", "--b", "ai:12", "--games", "1"], "level must be 1..10"),
        (["match", "flipfour", "--b", "gnugo", "--games", "1"], "unknown player 'gnugo'"),
        (["match", "flipfour", "--games", "0"], "--games must be 1 or more"),
    ],
)
def test_bad_arguments_get_one_clear_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_analyse_refuses_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    # Space Tiles games between two AIs end within a few turns: play one to the end.
    game = registry.make("spacetiles")
    pos = game.start()
    texts: list[str] = []
    while game.outcome(pos) is None:
        move = think(game, pos, nodes=200).best
        texts.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    assert main(["analyse", "spacetiles", *texts, "--nodes", "10"]) == 2
    assert "the game is over" in capsys.readouterr().err
