"""Searches on several cores with worker processes (the Pi has four; Python threads would share one).

- MCTS, root-parallel: each worker searches the same position with its own
  seed; the parent adds up the visits of each root move.
- Alpha-beta, split root: the ordered root moves are dealt round-robin to the
  workers, each deepens iteratively on its share, and the answer is the best
  value at the deepest iteration every worker completed (values from different
  depths are not comparable).  Wide games (Desdemona) gain almost linearly.

The workers (engines/ai/workers.py) are processes of their own, not forked
from this one; the game, policy and position go to them pickled; the deadline
is a ``time.perf_counter`` instant, which on Linux is the system-wide monotonic
clock.  A parallel search runs only against a deadline, never a node budget
alone.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engines.ai.alphabeta import AlphaBeta
from engines.ai.analysis import Analysis
from engines.ai.budget import Budget
from engines.ai.mcts import Mcts, Node, best_child
from engines.ai.policy import EVAL_LIMIT, WIN, M, P, Policy
from engines.ai.rules import Rules
from engines.ai.workers import forget

# How long after the deadline a worker's answer is still awaited (sending it is quick).
RESULT_GRACE = 0.01
# The share of the time left that the workers stop early by, so that their answers are in by the
# deadline: sent while this process still searches, they wait for it to let go of the interpreter,
# longer than the grace on a busy or emulated machine (a Pi's userland under qemu lost one in two).
HAND_IN = 0.05


def _hand_in_by(deadline: float) -> float:
    """When the workers stop searching for an answer due at ``deadline``."""
    return deadline - HAND_IN * max(0.0, deadline - time.perf_counter())


RootStats = list[tuple[Any, int, float, float | None]]


def _collect(futures: list[Future[Any]], deadline: float) -> list[Any]:
    """The reports of the workers that answered by the deadline (plus grace); late ones are dropped."""
    reports = []
    for future in futures:
        try:
            reports.append(future.result(max(0.0, deadline - time.perf_counter()) + RESULT_GRACE))
        except FutureTimeout:
            future.cancel()
        except BrokenProcessPool:
            forget()
        except Exception:  # a failed worker adds nothing: this process's own search still answers
            continue
    return reports


def _mcts_worker(
    game: Rules[P, M], policy: Policy[P, M], pos: P, deadline: float, seed: int
) -> tuple[RootStats, int, int]:
    budget = Budget(deadline=deadline)
    search = Mcts(game, policy, budget, random.Random(seed))
    root = search.run(pos)
    stats: RootStats = [(c.move, c.visits, c.total, c.proven) for c in root.children]
    return stats, budget.nodes, search.simulations


def parallel_mcts(
    game: Rules[P, M],
    policy: Policy[P, M],
    pos: P,
    budget: Budget,
    seed: int,
    workers: int,
    pool: ProcessPoolExecutor,
) -> Analysis:
    """Search with ``workers`` processes (this one and ``workers - 1`` of ``pool``) until ``budget``'s
    deadline."""
    assert budget.deadline is not None
    deadline = budget.deadline
    ends = _hand_in_by(deadline)
    futures = [pool.submit(_mcts_worker, game, policy, pos, ends, seed + i) for i in range(1, workers)]
    own = Mcts(game, policy, Budget(deadline=deadline), random.Random(seed))
    root = own.run(pos)
    merged: dict[Any, list[Any]] = {}
    for c in root.children:
        merged[c.move] = [c.visits, c.total, c.proven, c.mover]
    nodes, simulations = own.budget.nodes, own.simulations
    for stats, n, s in _collect(futures, deadline):
        nodes += n
        simulations += s
        for move, visits, total, proven in stats:
            entry = merged.setdefault(move, [0, 0.0, None, root.to_move])
            entry[0] += visits
            entry[1] += total
            if proven is not None:
                entry[2] = proven
    return _combine(root, merged, budget, nodes, simulations)


def _combine(
    root: Node, merged: dict[Any, list[Any]], budget: Budget, nodes: int, simulations: int
) -> Analysis:
    def rank(item: tuple[Any, list[Any]]) -> tuple[int, int, float]:
        visits, total, proven = item[1][0], item[1][1], item[1][2]
        if proven is not None and proven >= WIN:
            return (2, visits, 0.0)
        if proven is not None and proven <= -WIN:
            return (0, visits, 0.0)
        return (1, visits, total / visits if visits else 0.0)

    # Root children are moves of the root's side to move: their values are already from its view.
    move, (visits, total, proven, _) = max(merged.items(), key=rank)
    value = proven if proven is not None else (total / visits if visits else 0.0)
    pv = [move]
    node = next((c for c in root.children if c.move == move), None)
    while node is not None and node.children and len(pv) < 12:
        node = best_child(node)
        pv.append(node.move)
    return Analysis(
        best=move,
        value=max(-1.0, min(1.0, value)),
        pv=pv,
        nodes=nodes,
        seconds=budget.elapsed(),
        depth=len(pv),
        algorithm="mcts",
        proven=proven is not None and abs(proven) > EVAL_LIMIT,
        simulations=simulations,
    )


AbReport = tuple[list[tuple[int, Any, float]], Any, float, list[Any], int]


def _ab_worker(
    game: Rules[P, M],
    policy: Policy[P, M],
    pos: P,
    moves: list[M],
    deadline: float,
    seed: int,
    depth_step: int,
) -> AbReport:
    search = AlphaBeta(game, policy, Budget(deadline=deadline), random.Random(seed), depth_step=depth_step)
    found = search.search(pos, moves)
    return (search.iterations, found.best, found.value, found.pv, found.nodes)


def parallel_alphabeta(
    game: Rules[P, M],
    policy: Policy[P, M],
    pos: P,
    budget: Budget,
    seed: int,
    workers: int,
    pool: ProcessPoolExecutor,
    depth_step: int = 1,
) -> Analysis:
    """Alpha-beta over the root moves split between ``workers`` processes (this one and ``workers - 1``
    of ``pool``)."""
    assert budget.deadline is not None
    deadline = budget.deadline
    rng = random.Random(seed)
    moves = list(game.legal_moves(pos))
    rng.shuffle(moves)
    moves = policy.order(pos, moves)
    workers = min(workers, len(moves))
    futures = []
    if workers > 1:
        ends = _hand_in_by(deadline)
        futures = [
            pool.submit(_ab_worker, game, policy, pos, moves[i::workers], ends, seed + i, depth_step)
            for i in range(1, workers)
        ]
    own = AlphaBeta(game, policy, Budget(deadline=deadline), rng, depth_step=depth_step)
    found = own.search(pos, moves[::workers])
    reports: list[AbReport] = [(own.iterations, found.best, found.value, found.pv, found.nodes)]
    reports.extend(_collect(futures, deadline))
    common = min(r[0][-1][0] if r[0] else 0 for r in reports)
    candidates = []
    for iterations, best, value, pv, _ in reports:
        at_common = [it for it in iterations if it[0] == common]
        if at_common:
            _, move, v = at_common[0]
            candidates.append((v, move, pv if move == best else [move]))
        else:
            candidates.append((value, best, pv))
    value, move, pv = max(candidates, key=lambda c: c[0])
    return Analysis(
        best=move,
        value=max(-1.0, min(1.0, value)),
        pv=pv,
        nodes=sum(r[4] for r in reports),
        seconds=budget.elapsed(),
        depth=common,
        algorithm="alphabeta",
        proven=abs(value) > EVAL_LIMIT,
    )
