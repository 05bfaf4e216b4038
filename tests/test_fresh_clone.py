"""A new user's first command on a fresh clone prints nothing that reads like a failure.

`./dev.sh play --help` makes the virtual environment and installs magboard
into it, as on a machine that never ran it: pip and setuptools have warnings
to print there that are noise to a player (issue 41: nine "Location ... is
ignored" lines and a box of asterisks, on the first command of all).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

SETUP_S = 600


def fresh_clone(into: Path) -> Path:
    """The files git tracks, and those it does not ignore, as they are now: the clone of this working tree."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@pytest.mark.xdist_group("fresh-clone")
def test_the_first_command_on_a_fresh_clone_prints_no_warning(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    clone = fresh_clone(tmp_path / "magboard")
    env = {k: v for k, v in os.environ.items() if k not in ("MAGBOARD_VENV", "VIRTUAL_ENV")}
    result = subprocess.run(
        ["./dev.sh", "play", "--help"], cwd=clone, capture_output=True, text=True, timeout=SETUP_S, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: magboard play")
    said = result.stdout + result.stderr
    assert not re.search(r"warn|!!|\*{10}", said, re.IGNORECASE), said
    assert result.stderr == ""
