"""The match harness: colours alternate, results are tallied, the Wilson interval is right."""

from __future__ import annotations

import pytest

from engines.ai.match import AiPlayer, GameResult, Tally, play_match, random_opening, wilson
from tests.ai.toy import TicTacToe


def test_wilson_interval_matches_the_formula() -> None:
    # 5 of 10: p = 0.5, z = 1.96: centre 0.5, half width 0.2634 (computed by hand from the formula).
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(60, 60) == pytest.approx((0.9398, 1.0), abs=1e-4)


def test_tally_counts_draws_as_half() -> None:
    tally = Tally()
    for winner in (0, None, 1, 0):
        tally.add(GameResult(first=0, winner=winner, texts=[]))
    assert (tally.wins, tally.draws, tally.losses) == (2, 1, 1)
    assert tally.score() == 0.625


def test_perfect_tic_tac_toe_players_draw_with_alternating_colours() -> None:
    game = TicTacToe()
    players = (AiPlayer(game, nodes=20000), AiPlayer(game, nodes=20000, algorithm="mcts"))
    seen_first = []
    tally = play_match(game, players, 2, 1.0, lambda i, result, t: seen_first.append(result.first))
    assert seen_first == [0, 1]
    assert (tally.wins, tally.draws, tally.losses) == (0, 2, 0)


def test_a_strong_player_beats_a_blind_one() -> None:
    game = TicTacToe()
    # Level 1 plays at random (it looks at one move); level 10 solves the game.
    players = (AiPlayer(game, level=10, nodes=20000), AiPlayer(game, level=1, nodes=20000))
    tally = play_match(game, players, 2, 1.0)
    assert tally.losses == 0
    assert tally.wins >= 1


def test_each_pair_of_games_shares_a_random_opening_with_colours_swapped() -> None:
    game = TicTacToe()
    players = (AiPlayer(game, nodes=300), AiPlayer(game, nodes=300))
    results: list[GameResult] = []
    play_match(game, players, 4, 1.0, lambda i, result, t: results.append(result), opening_plies=2, seed=5)
    assert [r.first for r in results] == [0, 1, 0, 1]
    for i, result in enumerate(results):
        assert result.texts[:2] == random_opening(game, 2, 5 + i // 2)
