"""The shared search core on tic-tac-toe, where every answer can be checked by hand."""

from __future__ import annotations

import random

import pytest

from engines.ai import Analysis, hint, think
from engines.ai.alphabeta import AlphaBeta
from engines.ai.budget import Budget
from engines.ai.mcts import Mcts
from engines.ai.policy import Policy
from tests.ai.toy import GEOMETRY, TicTacToe

GAME = TicTacToe()
ALGORITHMS = ("alphabeta", "mcts")


def cell(name: str) -> int:
    return GEOMETRY.cell(name)


# x to move: a1 b1 are x's, c1 completes rank 1 (checked by eye).
WIN_IN_ONE = TicTacToe.from_rows("""
o o .
. . .
x x .
""")
# o to move must block: x (a1 b2) threatens c3 on the diagonal; o (a2 c1) has no two in a line.
MUST_BLOCK = TicTacToe.from_rows("""
. . .
o x .
x . o
""")


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_takes_a_win_in_one(algorithm: str) -> None:
    found = think(GAME, WIN_IN_ONE, nodes=2000, algorithm=algorithm)
    assert found.best == cell("c1")
    assert found.value > 0.9
    assert found.proven


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_blocks_a_threat(algorithm: str) -> None:
    found = think(GAME, MUST_BLOCK, nodes=5000, algorithm=algorithm)
    assert found.best == cell("c3")


def test_alphabeta_solves_the_game_as_a_draw() -> None:
    search = AlphaBeta(GAME, Policy(GAME), Budget(nodes=10**6), random.Random(0))
    found = search.search(GAME.start())
    assert found.value == 0.0
    assert found.proven
    assert found.depth <= 9


def test_mcts_solver_proves_a_lost_position() -> None:
    # o to move, x threatens both c1 (rank 1) and a3 (file a); o's b2 c3 make no threat: o loses.
    pos = TicTacToe.from_rows("""
. . o
x o .
x x .
""")
    root = Mcts(GAME, Policy(GAME), Budget(nodes=20000), random.Random(0)).run(pos)
    assert root.proven is not None and root.proven >= 1.0  # from x's view (the mover into the root)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_same_seed_and_node_budget_give_the_same_answer(algorithm: str) -> None:
    runs = [think(GAME, GAME.start(), nodes=300, seed=4, algorithm=algorithm) for _ in range(2)]
    assert runs[0] == runs[1] or (runs[0].best, runs[0].pv) == (runs[1].best, runs[1].pv)


def test_analysis_fields() -> None:
    found = think(GAME, WIN_IN_ONE, nodes=500)
    assert isinstance(found, Analysis)
    assert found.pv[0] == found.best
    assert -1.0 <= found.value <= 1.0
    assert found.nodes > 0


def test_hint_gives_a_short_line() -> None:
    found = hint(GAME, GAME.start(), seconds=0.05)
    assert found.best in GAME.legal_moves(GAME.start())
    assert 1 <= len(found.pv) <= 6


def test_a_finished_game_is_refused() -> None:
    over = TicTacToe.from_rows("x x x\no o .\n. . .")
    with pytest.raises(ValueError, match="over"):
        think(GAME, over, nodes=10)


@pytest.mark.parametrize("bad", [{"level": 0}, {"level": 11}, {"seconds": 0.0}, {"nodes": 0}])
def test_bad_budgets_are_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        think(GAME, GAME.start(), **bad)  # type: ignore[arg-type]


def test_mcts_answers_even_when_the_budget_is_gone_before_the_first_simulation() -> None:
    # A level-1 search with a tiny time budget can spend it all ordering the root moves.
    found = Mcts(GAME, Policy(GAME), Budget(nodes=0), random.Random(0)).search(GAME.start())
    assert found.best in GAME.legal_moves(GAME.start())
