"""A game from another distribution brings its own board and plays, with no file of magboard changed.

tests/outside/threerow is such a distribution - Three in a Row, its rules and table in its own
package, its 3x3 reed board as package data, found through its ``magboard.games`` entry point -
built and installed here into a fresh virtual environment beside magboard (which that environment
sees through a .pth file, as this one has it installed), and played there with ``magboard play``
on its default board, which magboard's own hardware/boards does not have.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = ROOT / "tests" / "outside" / "threerow"
# Black takes the first rank; each stone stands longer than the session's settling time before the next.
SCRIPT = "".join(
    f"place {cell} stone:{side}\nwait 600\n"
    for cell, side in [("a1", 0), ("a2", 1), ("b1", 0), ("b2", 1), ("c1", 0)]
)

pytestmark = pytest.mark.xdist_group("outside-game")


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the outside game installed into it, and magboard beside it."""
    where = tmp_path_factory.mktemp("outside")
    source = where / "threerow"
    shutil.copytree(DISTRIBUTION, source, ignore=shutil.ignore_patterns("*.egg-info", "build", "__pycache__"))
    env = where / "venv"
    _run([sys.executable, "-m", "venv", str(env)])
    python = env / "bin" / "python"
    # Built as pip builds any distribution (in isolation), before magboard is put beside it.
    _run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(source)])
    purelib = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]
    ).stdout.strip()
    magboard = sysconfig.get_path("purelib")  # where this environment has magboard and its dependencies
    (Path(purelib) / "magboard-beside.pth").write_text(f"import site; site.addsitedir({magboard!r})\n")
    return env


def _magboard(env: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # The simulated board's MicroPython is found on PATH (this environment's, or the system's).
    path = os.pathsep.join([sysconfig.get_path("scripts"), os.environ.get("PATH", "")])
    return _run([str(env / "bin" / "python"), "-m", "host", *args], cwd=cwd, env={**os.environ, "PATH": path})


def test_the_outside_game_is_listed_with_the_board_it_brings(venv: Path, tmp_path: Path) -> None:
    long = _magboard(venv, "games", "--long", cwd=tmp_path).stdout
    assert "threerow: Three in a Row\n  default board: threerow-reed\n  boards: threerow-reed\n" in long
    assert not (ROOT / "hardware" / "boards" / "threerow-reed.toml").exists()


def test_the_outside_game_plays_on_its_default_board(venv: Path, tmp_path: Path) -> None:
    before = _run(
        ["git", "status", "--porcelain", "--", "engines", "host", "hardware", "pyproject.toml"], cwd=ROOT
    )
    script = tmp_path / "three.txt"
    script.write_text(SCRIPT)
    played = _magboard(
        venv, "play", "threerow", "--humans", "--new", "--no-browser", "--script", str(script),
        "--journal", str(tmp_path / "games.sqlite3"), cwd=tmp_path,
    )  # fmt: skip
    events = [json.loads(line) for line in played.stdout.splitlines()]
    assert [e["move"] for e in events if e["event"] == "commit"] == ["a1", "a2", "b1", "b2", "c1"]
    assert events[-1]["event"] == "end" and events[-1]["moves"] == ["a1", "a2", "b1", "b2", "c1"]
    after = _run(
        ["git", "status", "--porcelain", "--", "engines", "host", "hardware", "pyproject.toml"], cwd=ROOT
    )
    assert after.stdout == before.stdout  # no file of magboard changed
