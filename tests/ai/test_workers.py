"""The AI's worker processes: as many as the cores this process may run on, never waited for by a
search, and all ended by ``stop``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import pytest

import engines.ai
from engines import registry
from engines.ai import think, workers
from host.cli import main
from tests.conftest import ROOT
from tests.processes import alive, descendants, fork_server_workers

# Pinned to one core, a timed search says how many cores it saw and which processes it started.
ON_ONE_CORE = """
import json, os
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from engines import registry
from engines.ai import think, workers
from tests.processes import descendants
game = registry.make("desdemona")
think(game, game.start(), seconds=0.2)
print(json.dumps({"cores": workers.cores(), "started": [p.command for p in descendants(os.getpid())]}))
"""


def test_the_cores_are_the_affinity_and_one_core_searches_alone() -> None:
    assert workers.cores() == len(os.sched_getaffinity(0))
    out = subprocess.run(
        [sys.executable, "-c", ON_ONE_CORE], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(out.stdout) == {"cores": 1, "started": []}


def test_until_its_workers_are_up_a_search_runs_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.make("desdemona")
    pools = []
    real = engines.ai.parallel_alphabeta

    def spy(*args: Any) -> Any:
        pools.append(args[6])
        return real(*args)

    monkeypatch.setattr(engines.ai, "parallel_alphabeta", spy)
    workers.stop()
    alone = think(game, game.start(), seconds=0.2, workers=3)
    assert pools == [] and alone.best in game.legal_moves(game.start())
    assert workers.wait(60)
    shared = think(game, game.start(), seconds=0.2, workers=3)
    assert pools == [workers.ready(2)] and shared.best in game.legal_moves(game.start())


def test_the_workers_start_at_once_and_stop_ends_every_one() -> None:
    workers.stop()
    workers.start(2)
    assert workers.wait(60)
    server, started = fork_server_workers(descendants(os.getpid()))
    assert server is not None and len(started) == 2
    assert workers.ready(2) is not None and workers.ready(3) is None  # a bigger pool is starting
    assert workers.wait(60)
    gone_by = time.monotonic() + 30
    while alive(started) and time.monotonic() < gone_by:  # the smaller pool ends in the background
        time.sleep(0.05)
    assert not alive(started)
    server, bigger = fork_server_workers(descendants(os.getpid()))
    assert len(bigger) == 3
    workers.stop()
    assert not alive(bigger)  # stop waits for them


def test_workers_must_be_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["analyse", "flipfour", "--workers", "0"])
    assert "argument --workers: must be an integer 1..64, got 0" in capsys.readouterr().err


def _imported(module: str) -> bool:
    return module in sys.modules


def test_workers_started_for_a_game_have_its_rules_and_policy_imported_before_the_first_question() -> None:
    game = registry.make("flipfour")
    modules = [type(game).__module__, type(engines.ai.policy_for(game)).__module__]
    assert modules == ["engines.flipfour.rules", "engines.flipfour.policy"]
    workers.stop()
    workers.start(1)
    assert workers.wait(60)
    pool = workers.ready(1)
    assert pool is not None and [pool.submit(_imported, m).result(60) for m in modules] == [False, False]
    workers.stop()
    engines.ai.start_workers(game, workers=2)
    assert workers.wait(60)
    pool = workers.ready(1)
    assert pool is not None and [pool.submit(_imported, m).result(60) for m in modules] == [True, True]
    workers.stop()
