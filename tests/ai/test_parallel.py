"""The parallel search: workers that are not forked from this (threaded) process, and legal answers."""

from __future__ import annotations

import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from engines import registry
from engines.ai import think, workers
from engines.ai.parallel import _ab_worker
from engines.ai.policy import policy_for


def worker_pool(size: int) -> ProcessPoolExecutor:
    workers.start(size)
    assert workers.wait(60)
    pool = workers.ready(size)
    assert pool is not None
    return pool


def test_workers_are_not_children_of_this_process() -> None:
    # A worker forked from here would have this process as its parent; the fork server's are its own.
    parent = worker_pool(1).submit(os.getppid).result(timeout=60)
    assert parent != os.getpid()


@pytest.mark.parametrize("game_id", ["desdemona", "kingofrings", "spacetiles"])
def test_a_parallel_search_from_a_thread_answers_a_legal_move(game_id: str) -> None:
    game = registry.make(game_id)
    rng = random.Random(3)
    pos = game.start()
    for _ in range(4):
        pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    answers = []
    stop = threading.Event()
    busy = threading.Thread(target=stop.wait)  # another thread alive, as the board link is in a session
    busy.start()
    worker_pool(1)
    searching = threading.Thread(target=lambda: answers.append(think(game, pos, seconds=0.3, workers=2)))
    searching.start()
    searching.join()
    stop.set()
    busy.join()
    assert answers[0].best in game.legal_moves(pos)


def test_a_worker_searches_its_share_of_the_root_in_its_own_process() -> None:
    # The parent drops a worker's report when the worker fails, so check one worker's report directly.
    game = registry.make("kingofrings")
    pos = game.start()
    moves = game.legal_moves(pos)[::2]
    deadline = time.perf_counter() + 1.0
    future = worker_pool(1).submit(_ab_worker, game, policy_for(game), pos, moves, deadline, 1, 1)
    _, best, _, pv, nodes = future.result(timeout=60)
    assert best in moves and pv[0] == best
    assert nodes > 0
