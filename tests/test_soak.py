"""benchmarks/soak.py, at its smallest: it plays, samples, and sums up (its long runs are measurements)."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT


def test_the_soak_plays_and_says_what_the_process_holds() -> None:
    result = subprocess.run(
        [sys.executable, "benchmarks/soak.py", "--moves", "12", "--max-plies", "6", "--games", "flipfour",
         "--warmup", "0", "--no-gnugo"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    *games, last = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(games) == 2 and all(g["game"] == "flipfour" and g["plies"] == 6 for g in games), result.stdout
    summary = last["summary"]
    assert summary["moves"] == 12 and summary["children"] == [0, 0], result.stdout
    assert summary["games_in_trouble"] == 0, result.stdout
    assert summary["fds"][0] == summary["fds"][1] and summary["threads"] == [1, 1], result.stdout
