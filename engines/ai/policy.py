"""What a search needs to know about one game beyond its rules.

The search core (alpha-beta and MCTS) is shared by all games; each game adds a
``Policy``: a static evaluation, a move ordering (best first; MCTS widens in
this order, alpha-beta searches in it) and the move choice inside playouts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import import_module
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

from engines.ai.analysis import Analysis
from engines.ai.levels import Handicap
from engines.ai.rules import Rules
from engines.game import Game

P = TypeVar("P")
M = TypeVar("M")

# Search values of finished games are +-WIN; evaluations stay inside +-EVAL_LIMIT
# so that a proven result always outranks an estimate.
WIN = 1.0
EVAL_LIMIT = 0.9


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # pickled: see engines/pickling.py
class Policy(Generic[P, M]):
    """Game knowledge for the search; the defaults know nothing but the rules.

    ``algorithm`` names the search that won this game's self-play matches
    ("alphabeta" or "mcts"); the MCTS settings are per game because playouts
    cost very different amounts in different games.  ``handicaps`` are the
    (breadth, node cap) of levels 1..9 (engines/ai/levels.py); they are per
    game because strength grows differently with each in each game.
    Settings are given per class and changed per policy (``policy.handicaps
    = ...``), never on the class: compiled (mypyc), each policy holds them.
    """

    algorithm = "mcts"
    # Uncalibrated: node caps growing about 2.4 times a level, for a game without its own table.
    handicaps: tuple[Handicap, ...] = (
        (0.0, 1),
        (0.3, 2),
        (0.45, 6),
        (0.6, 13),
        (0.7, 32),
        (0.8, 75),
        (0.9, 178),
        (1.0, 422),
        (1.0, 1000),
    )
    playout_depth = 4
    widening_base = 2.0
    widening_exponent = 0.5
    exploration = 0.7
    # Whether alpha-beta orders the moves of a node above the leaves too (worth it where a leaf's
    # evaluation costs much more than ordering, and cut-offs there save evaluations).
    order_frontier = False
    # Whether alpha-beta searches ``noisy`` moves beyond its depth (a quiescence search), for games
    # where one move can swing the material so far that a static evaluation before it means little.
    quiescence = False

    def __init__(self, game: Rules[P, M]) -> None:
        self.game = game

    def result(self, pos: P) -> float | None:
        """``terminal_value`` of ``pos``, or a cheaper check that may miss only losses by having no move.

        Searches call this on every position they reach; a miss is harmless
        because a position without legal moves is caught when it is expanded.
        """
        return terminal_value(self.game, pos)

    def evaluate(self, pos: P) -> float:
        """How good ``pos`` (not finished) is for its side to move, in [-EVAL_LIMIT, EVAL_LIMIT]."""
        return 0.0

    def order(self, pos: P, moves: list[M]) -> list[M]:
        """The moves, most promising first."""
        return moves

    def noisy(self, pos: P) -> list[M]:
        """The moves of ``pos`` a quiescence search follows (when ``quiescence``), most promising first.

        They must end: every chain of noisy moves has to reach a position
        without any (captures do, since each takes a piece off the board).
        """
        return []

    def playout_move(self, pos: P, moves: list[M], rng: random.Random) -> M:
        """The move a playout makes from ``pos``."""
        return rng.choice(moves)

    def cutoff(self, pos: P, move: M, depth: int) -> None:
        """Alpha-beta found that ``move`` refutes ``pos`` searched ``depth`` deep (for history ordering)."""

    def split_turns(self, pos: P) -> TurnSplit | None:
        """``pos`` in a model whose moves are parts of turns, for alpha-beta (None: search whole turns)."""
        return None


@dataclass(frozen=True)
class TurnSplit:
    """A position of a game in a model whose moves are parts of the game's turns.

    ``rules`` and ``policy`` are the model's; ``root`` is the searched
    position in it; a turn takes ``parts`` moves of the model (some turns
    fewer), so alpha-beta deepens ``parts`` at a time; ``turns`` turns a line
    of parts from ``root`` into the game's moves, completing a last
    unfinished turn only if it is the first.
    """

    rules: Rules[Any, Any]
    policy: Policy[Any, Any]
    root: Any
    parts: int
    turns: Callable[[Any, list[Any]], list[Any]]

    def whole(self, found: Analysis) -> Analysis:
        """The model's search result as the game's: whole turns, depth in turns."""
        line = self.turns(self.root, found.pv)
        return replace(found, best=line[0], pv=line, depth=found.depth // self.parts)


def terminal_value(game: Rules[P, M], pos: P) -> float | None:
    """+-WIN or 0 for a finished game, from its side to move's view; None while it goes on."""
    outcome = game.outcome(pos)
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0.0
    return WIN if outcome.winner == game.to_move(pos) else -WIN


def policy_for(game: Game[P, M]) -> Policy[P, M]:
    """The game's own policy (``Game.ai_policy``), or the rules-only default for a game without one."""
    target = game.ai_policy
    if not target:
        return Policy(game)
    module, _, cls = target.partition(":")
    try:
        policy: Policy[Any, Any] = getattr(import_module(module), cls)(game)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return Policy(game)
    return policy
