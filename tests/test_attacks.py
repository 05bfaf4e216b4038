"""The attack harnesses of benchmarks/attack.py, each for a second: every table ends with 0 failures.

The full runs (`benchmarks/attack.py`, 20 s a harness) are measurements; this is the small budget
of each that CI keeps running, so a change that breaks one of the guarantees they attack is caught
here.  The fault injection needs a C compiler: without one it is skipped outside CI (under CI=true
it fails, as the compiled build's test does).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

HARNESSES = ("kill9", "damage", "faults", "concurrency", "history", "lan", "web", "files", "gtp")


@pytest.mark.parametrize("name", HARNESSES)
def test_the_harness_finds_nothing(name: str) -> None:
    if (
        name == "faults"
        and not (shutil.which("cc") or shutil.which("gcc"))
        and os.environ.get("CI") != "true"
    ):
        pytest.skip("no C compiler to build benchmarks/attacks/faults.c")
    result = subprocess.run(
        [sys.executable, "benchmarks/attack.py", "--only", name, "--seconds", "1", "--count", "200"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().splitlines()[-1].startswith("1 harnesses, ")
    assert " 0 failures in " in result.stdout and "FAILED" not in result.stdout, result.stdout
