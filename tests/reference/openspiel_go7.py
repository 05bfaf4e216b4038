"""Go 7x7 played move for move beside OpenSpiel's own ``go`` (board_size 7): the reference for its rules.

The point indices of go7 are OpenSpiel's action numbers (a1 = 0 ... g7 = 48, the pass 49), so a random game
is one list of ints played in both. At every position the legal moves, whether the game is over and the
board must agree, and at the end the returns (+1/-1, 0 for a draw). OpenSpiel ends every game after
``max_game_length`` moves (98 on 7x7), an artefact of the library that go7 does not copy: ``UNCAPPED`` lifts
it, so whole games compare; ``capped`` compares the library's default game up to its cap.

Uniform random play ends most games by two passes; ``prolong`` play passes only now and then, so games run
to thousands of moves, through many kos, and end mostly by a repeated board (OpenSpiel's draw).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engines import registry
from engines.go7.rules import PASS, Go7, Position, diagram

UNCAPPED = {"board_size": 7, "max_game_length": 1_000_000}
DEFAULT = {"board_size": 7}
PROLONG_PASS = 0.02  # prolonged play passes with this chance (or when nothing else is legal)


@dataclass(frozen=True)
class Replay:
    plies: int
    difference: str | None  # what differed first, or None


def reference_board(state: Any) -> str:
    """OpenSpiel's board (its ``str``: X Black, O White, + empty, rank 7 first) in go7's diagram notation."""
    rows = [line.split()[1] for line in str(state).splitlines()[2:9]]
    return "\n".join(row.replace("X", "x").replace("O", "o").replace("+", ".") for row in rows)


def returns_of(game: Go7, pos: Position) -> list[float]:
    outcome = game.outcome(pos)
    assert outcome is not None
    if outcome.winner is None:
        return [0.0, 0.0]
    return [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]


def choose(legal: list[int], rng: random.Random, prolong: bool) -> int:
    if prolong and len(legal) > 1 and rng.random() > PROLONG_PASS:
        return rng.choice([m for m in legal if m != PASS])
    return rng.choice(legal)


def replay(reference: Any, seed: int, prolong: bool = False, max_plies: int | None = None) -> Replay:
    """One random game in both; ``max_plies`` stops comparing there (OpenSpiel's cap ends its game)."""
    game = registry.make("go7")
    assert isinstance(game, Go7)
    rng = random.Random(seed)
    state, pos = reference.new_initial_state(), game.start()
    plies = 0
    while True:
        theirs = [] if state.is_terminal() else sorted(state.legal_actions())
        ours = game.legal_moves(pos)
        where = f"seed {seed}, ply {plies}"
        if theirs != ours:
            only = sorted(set(theirs) ^ set(ours))
            return Replay(plies, f"{where}: legal moves differ at {only} (OpenSpiel {theirs}, go7 {ours})")
        if reference_board(state) != diagram(pos):
            return Replay(plies, f"{where}: boards differ\n{reference_board(state)}\n  vs\n{diagram(pos)}")
        if state.is_terminal():
            if state.returns() != returns_of(game, pos):
                return Replay(plies, f"{where}: returns {state.returns()} vs {returns_of(game, pos)}")
            return Replay(plies, None)
        if max_plies is not None and plies == max_plies:
            return Replay(plies, None)
        move = choose(ours, rng, prolong)
        state.apply_action(move)
        pos = game.play(pos, move)
        plies += 1
