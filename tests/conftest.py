"""Shared fixtures: the project root, and running the command line in-process or as a program."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import tests.budget  # noqa: F401 - loads the hypothesis profile for every test

ROOT = Path(__file__).resolve().parent.parent


def run_cli(
    *args: str, input_text: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `magboard ARGS` as a separate program, as a user or another tool would."""
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args],
        capture_output=True,
        text=True,
        input=input_text,
        cwd=cwd or ROOT,
        timeout=300,
    )


@pytest.fixture
def cli() -> object:
    return run_cli
