"""Playing levels: each has its own time and node cap, weak levels consider few moves, levels are ordered."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from engines import registry
from engines.ai import think
from engines.ai.alphabeta import AlphaBeta
from engines.ai.budget import Budget
from engines.ai.levels import HIGHEST, LOWEST, Level, level
from engines.ai.match import AiPlayer, play_match
from engines.ai.mcts import Mcts
from engines.ai.policy import Policy, policy_for
from engines.game import Game
from tests.ai.toy import GEOMETRY, TicTacToe

GAME = TicTacToe()
LEVELS = range(LOWEST, HIGHEST + 1)

# x to move (5 empty cells): c1 completes rank 1 at once (checked by eye).
WIN_IN_ONE = TicTacToe.from_rows("""
o o .
. . .
x x .
""")


def levels_of(game: Game[Any, Any]) -> list[Level]:
    return [level(n, policy_for(game).handicaps) for n in LEVELS]


@pytest.mark.parametrize("game_id", registry.available())
def test_each_level_sees_more_of_the_tree_than_the_one_below(game_id: str) -> None:
    ladder = levels_of(registry.make(game_id))
    assert (ladder[0].breadth, ladder[0].nodes) == (0.0, 1)  # level 1 plays at random
    assert ladder[-1].breadth == 1.0 and ladder[-1].nodes is None  # level 10: everything
    for lower, upper in pairwise(ladder[:-1]):
        assert lower.breadth <= upper.breadth
        assert lower.nodes is not None and upper.nodes is not None
        assert lower.nodes <= upper.nodes
        assert (lower.breadth, lower.nodes) != (upper.breadth, upper.nodes)


def test_a_game_needs_a_handicap_for_each_level_below_ten() -> None:
    with pytest.raises(ValueError, match=r"levels 1\.\.9"):
        level(5, Policy(GAME).handicaps[:-1])
    with pytest.raises(ValueError, match=r"1\.\.10"):
        level(11, Policy(GAME).handicaps)


def test_every_level_keeps_its_own_time_even_at_a_quarter_second() -> None:
    # The old order (share of the time, then the 10 ms reserve) gave levels 1-6 the same 1 ms floor.
    seconds = [lv.limits(0.25, None)[0] for lv in levels_of(GAME)]
    assert all(s is not None for s in seconds)
    assert all(a < b for a, b in pairwise(seconds))  # type: ignore[operator]
    assert seconds[-1] == pytest.approx(0.25 * 0.9 - 0.01)


def test_a_node_budget_is_capped_by_the_level() -> None:
    third = level(3, Policy(GAME).handicaps)
    assert third.nodes == 6
    assert third.limits(None, 50) == (None, 6)
    assert third.limits(None, 4) == (None, 4)
    assert level(HIGHEST, Policy(GAME).handicaps).limits(None, 50) == (None, 50)


@pytest.mark.parametrize("game_id", registry.available())
@pytest.mark.parametrize("legal", [2, 13, 69, 400])
def test_levels_consider_more_moves_as_they_rise(game_id: str, legal: int) -> None:
    considered = [lv.candidates(legal) for lv in levels_of(registry.make(game_id))]
    assert considered[0] == 1
    assert considered[-1] == legal
    assert all(a <= b for a, b in pairwise(considered))
    if legal > 2:
        assert considered[1] < legal


def test_level_one_plays_at_random() -> None:
    found = [think(GAME, GAME.start(), level=1, nodes=1000, seed=seed) for seed in range(30)]
    assert len({f.best for f in found}) >= 5  # of 9; a search would always open in the same few cells
    assert all(f.algorithm == "random" for f in found)


def test_a_level_sees_a_win_only_when_it_considers_it() -> None:
    # Level 2 considers ceil(5 ** 0.3) = 2 of the 5 moves, drawn at random: c1 is among them with
    # chance 1 - C(4,2)/C(5,2) = 0.4, and its search (2 nodes) then takes it.
    assert level(2, Policy(GAME).handicaps).candidates(5) == 2
    found = [think(GAME, WIN_IN_ONE, level=2, nodes=1000, seed=seed) for seed in range(60)]
    wins = sum(f.best == GEOMETRY.cell("c1") for f in found)
    assert 12 <= wins <= 36
    # Level 9 considers every move: it always wins.
    assert all(think(GAME, WIN_IN_ONE, level=9, seed=seed).best == GEOMETRY.cell("c1") for seed in range(10))


@pytest.mark.parametrize("algorithm", ["alphabeta", "mcts"])
def test_a_search_of_some_root_moves_answers_with_one_of_them(algorithm: str) -> None:
    allowed = [GEOMETRY.cell("a2"), GEOMETRY.cell("b2")]
    search = (AlphaBeta if algorithm == "alphabeta" else Mcts)(
        GAME, Policy(GAME), Budget(nodes=5000), random.Random(0)
    )
    assert search.search(WIN_IN_ONE, allowed).best in allowed  # c1 would win, but is not allowed


@pytest.mark.parametrize("number", [2, 5])
def test_the_same_seed_gives_the_same_move_at_every_level(number: int) -> None:
    game = registry.make("flipfour")
    pos = game.play_texts(["c3", "b2,d4"])
    runs = [think(game, pos, level=number, nodes=5000, seed=11) for _ in range(2)]
    assert runs[0].best == runs[1].best
    cap = level(number, policy_for(game).handicaps).nodes
    assert cap is not None and runs[0].nodes <= cap + 1


@pytest.mark.parametrize(("strong", "most_losses"), [(5, 2), (9, 0)])
def test_higher_levels_beat_a_beginner(strong: int, most_losses: int) -> None:
    # Level 1 plays at random; level 5 considers about 4 of the 9 opening moves within 32 nodes and
    # can miss a block; level 9 considers every move (1000 nodes, enough to solve most positions).
    players = (AiPlayer(GAME, level=strong, nodes=10**6), AiPlayer(GAME, level=1, nodes=10**6, seed=3))
    tally = play_match(GAME, players, 10, 1.0)
    assert tally.wins >= 6
    assert tally.losses <= most_losses
