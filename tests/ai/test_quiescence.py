"""Alpha-beta's quiescence search on a hand-made tree, where every value can be worked out on paper.

Player 0 at the root chooses between a capture ``a`` and a quiet move ``b``.
After ``a`` the opponent may recapture (``x``), after which player 0 may take
back again (``y``); each position's evaluation is for its side to move.  A
one-move search without quiescence believes the capture's +0.5; with it, the
chain of captures decides, and either side may stop capturing and stand on
the evaluation.
"""

from __future__ import annotations

import random

import pytest

from engines.ai.alphabeta import AlphaBeta
from engines.ai.budget import Budget
from engines.ai.policy import Policy
from engines.game import Outcome

# position -> (side to move, static evaluation for that side)
TREE = {
    "": (0, 0.0),
    "a": (1, -0.5),  # player 0 took a stack: bad for player 1, unless it takes it back
    "b": (1, -0.1),
    "ax": (0, -0.8),  # player 1 took it back
    "aq": (0, 0.5),
    "bq": (0, 0.1),
    "axq": (1, 0.8),
}
NOISY = {"a": ["x"], "ax": ["y"]}


class Tree:
    """The rules of TREE: a position's moves are the letters that extend it to another position."""

    def __init__(self, after_both_captures: float) -> None:
        self.values = {**TREE, "axy": (1, after_both_captures)}

    def to_move(self, pos: str) -> int:
        return self.values[pos][0]

    def legal_moves(self, pos: str) -> list[str]:
        return [m for m in "abqxy" if pos + m in self.values]

    def play(self, pos: str, move: str) -> str:
        return pos + move

    def outcome(self, pos: str) -> Outcome | None:
        return None

    def key(self, pos: str) -> int:
        return hash(pos)


class TreePolicy(Policy[str, str]):
    def __init__(self, game: Tree, quiescence: bool) -> None:
        super().__init__(game)
        self.tree = game
        self.quiescence = quiescence

    def result(self, pos: str) -> float | None:
        return None

    def evaluate(self, pos: str) -> float:
        return self.tree.values[pos][1]

    def noisy(self, pos: str) -> list[str]:
        return NOISY.get(pos, [])


def one_move_search(after_both_captures: float, quiescence: bool) -> tuple[str, float]:
    game = Tree(after_both_captures)
    search = AlphaBeta(game, TreePolicy(game, quiescence), Budget(nodes=1000), random.Random(0), max_depth=1)
    found = search.search("")
    return found.best, found.value


@pytest.mark.parametrize(
    ("after_both_captures", "best", "value"),
    [
        # Player 1's recapture stands (taking back again costs player 0: 0.2 for player 1), so the
        # capture is worth -0.2 to player 0 and the quiet move's 0.1 is better.
        (0.2, "b", 0.1),
        # Player 0 would take back again and be 0.6 up, so player 1 does not recapture and stands
        # on its -0.5: the capture is worth its 0.5 after all.
        (-0.6, "a", 0.5),
    ],
)
def test_the_chain_of_captures_decides(after_both_captures: float, best: str, value: float) -> None:
    assert one_move_search(after_both_captures, quiescence=True) == (best, pytest.approx(value))


def test_without_quiescence_the_capture_looks_won() -> None:
    assert one_move_search(0.2, quiescence=False) == ("a", pytest.approx(0.5))
