"""The AI: one search core for all games, with per-game evaluation and move ordering.

    think(game, pos, level=10, seconds=2.0) -> Analysis   the move to play
    hint(game, pos, seconds=1.0) -> Analysis              the best move and a short line

Give ``seconds`` (wall clock; the answer comes within it) or ``nodes`` (a
deterministic budget: the same seed and node budget give the same move), or
both.  Each game's ``Policy`` (engines/ai/<game>.py) says which search plays it
best: alpha-beta with iterative deepening and a transposition table (with a
quiescence search of captures where the policy asks for one: The King of
Rings), or MCTS with a solver, progressive widening and evaluated short
playouts.  Chosen by
self-play at 0.25 s per move (8 games each, ``magboard match GAME --a
ai:10:alphabeta --b ai:10:mcts --games 8 --seconds 0.25``):
alpha-beta for Flip Four (8-0), Desdemona (5-3) and The King of Rings (4-4,
kept for its reproducible depth-limited answers); MCTS for Space Tiles (6-2).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from engines.ai.alphabeta import AlphaBeta
from engines.ai.analysis import Analysis
from engines.ai.budget import Budget
from engines.ai.levels import HIGHEST
from engines.ai.levels import level as level_settings
from engines.ai.mcts import Mcts
from engines.ai.parallel import parallel_alphabeta, parallel_mcts
from engines.ai.policy import Policy, policy_for
from engines.ai.workers import START_S, cores, ready, start, wait
from engines.game import Game, M, P

DEFAULT_SECONDS = 2.0
HINT_PV_LENGTH = 6
ALGORITHMS = ("alphabeta", "mcts")


def think(
    game: Game[P, M],
    pos: P,
    *,
    level: int = HIGHEST,
    seconds: float | None = None,
    nodes: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    algorithm: str | None = None,
    policy: Policy[Any, Any] | None = None,
) -> Analysis:
    """The move the AI plays in ``pos`` at ``level``.

    Without ``seconds`` and ``nodes`` the search takes DEFAULT_SECONDS.
    Below level 10 the level's own node cap and share of the moves apply as
    well (engines/ai/levels.py), so a weak level answers at once.
    ``workers`` processes share the search when there is a time limit
    (default: every core this process may run on), once they are up: until
    then (engines/ai/workers.py) this process searches alone; a node budget
    alone always searches in this process so that its result does not depend
    on the machine.  ``algorithm``
    ("alphabeta" or "mcts") and ``policy`` override the game's own, for
    experiments (tuning an evaluation against the current one).
    """
    if seconds is not None and seconds <= 0:
        raise ValueError("seconds must be positive")
    if nodes is not None and nodes <= 0:
        raise ValueError("nodes must be positive")
    if seconds is None and nodes is None:
        seconds = DEFAULT_SECONDS
    policy = policy or policy_for(game)
    settings = level_settings(level, policy.handicaps)
    chosen = algorithm or policy.algorithm
    if chosen not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {chosen!r} (known: {', '.join(ALGORITHMS)})")
    search_seconds, node_budget = settings.limits(seconds, nodes)
    budget = Budget(seconds=search_seconds, nodes=node_budget)
    rng = random.Random(seed)
    moves = game.legal_moves(pos)
    if not moves:
        raise ValueError("the game is over: there is no move to search")
    root_moves: list[Any] | None = None
    considered = settings.candidates(len(moves))
    if considered == 1 and len(moves) > 1:
        move = rng.choice(moves)
        return Analysis(best=move, value=0.0, pv=[move], algorithm="random")
    if considered < len(moves):
        root_moves = policy.order(pos, rng.sample(moves, considered))
    if workers is None:
        workers = cores() if nodes is None else 1
    parallel = workers > 1 and search_seconds is not None and node_budget is None and root_moves is None
    pool = ready(workers - 1) if parallel else None
    if chosen == "mcts":
        if pool is not None:
            return parallel_mcts(game, policy, pos, budget, seed, workers, pool)
        return Mcts(game, policy, budget, rng).search(pos, root_moves)
    # Levels below 10 search whole turns: their node caps were calibrated in those.
    split = policy.split_turns(pos) if root_moves is None and settings.nodes is None else None
    if split is None:
        if pool is not None:
            return parallel_alphabeta(game, policy, pos, budget, seed, workers, pool)
        return AlphaBeta(game, policy, budget, rng).search(pos, root_moves)
    if pool is not None:
        found = parallel_alphabeta(
            split.rules, split.policy, split.root, budget, seed, workers, pool, split.parts
        )
    else:
        found = AlphaBeta(split.rules, split.policy, budget, rng, depth_step=split.parts).search(split.root)
    return split.whole(found)


def start_workers(
    game: Game[P, M], *, level: int = HIGHEST, nodes: int | None = None, workers: int | None = None
) -> None:
    """Start, in the background, the worker processes a timed ``think`` with these settings shares its
    search with (none for a node budget), so that the first question finds them up, with the game's
    rules and policy imported."""
    policy = policy_for(game)
    if level_settings(level, policy.handicaps).limits(DEFAULT_SECONDS, nodes)[1] is None:
        start((cores() if workers is None else workers) - 1, [type(game).__module__, type(policy).__module__])


def wait_for_workers(timeout: float = START_S) -> bool:
    """Wait until the workers started are up (False if they are not by ``timeout``, or none were)."""
    return wait(timeout)


def hint(
    game: Game[P, M], pos: P, *, seconds: float = 1.0, seed: int = 0, workers: int | None = None
) -> Analysis:
    """The strongest move in ``pos`` with a short principal variation, for a player asking for help."""
    found = think(game, pos, seconds=seconds, seed=seed, workers=workers)
    return replace(found, pv=found.pv[:HINT_PV_LENGTH])


__all__ = ["Analysis", "Policy", "hint", "policy_for", "start_workers", "think", "wait_for_workers"]
