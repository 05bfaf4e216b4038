"""The compiled build (MAGBOARD_COMPILE=1, README "A compiled AI"), built as `pip install` builds it.

It passes the engine and AI tests, and for the same seed and node budget it chooses the same moves, with
the same values, lines and node counts, as the pure Python of this tree.  The wheel is built from a copy
of the tree and installed into a temporary directory, so no compiled module ever lands beside the sources
the other tests import.  Building takes about two minutes on one core; under CI=true the test always runs
(no C compiler or Python headers is a failure), elsewhere it is skipped without them; `pytest -m "not
compiled"` leaves it out.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import engines.game
from engines import registry
from engines.ai import think
from tests.conftest import ROOT

# One build per run: under pytest-xdist every test of this module goes to the same worker.
pytestmark = [pytest.mark.compiled, pytest.mark.xdist_group("compiled")]

# What the wheel is built from: the packages (pyproject's packages.find), the metadata and the build.
SOURCES = [
    "engines",
    "host",
    "hardware",
    "firmware",
    "pyproject.toml",
    "setup.py",
    "build_backend",
    "README.md",
]
# The tests the compiled engines must pass: the rules, the AI, the agreement with the references, and SGF.
ENGINE_TESTS = [
    "tests/engines", "tests/ai", "tests/reference", "tests/test_reference_agreement.py",
    "tests/sgf/test_sgf.py",
]  # fmt: skip
# (plies of random moves from the start, seed, level) of the searches compared; each searches NODES nodes.
SEARCHES = [(0, 0, 10), (6, 1, 10), (14, 2, 10), (6, 3, 4)]
NODES = 5000


class Build(NamedTuple):
    """A compiled install (``site``) and a directory with the tests to run against it (``run``)."""

    site: Path
    run: Path

    def python(self, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
        """``python ARGS`` in ``run`` with the compiled install on the path (subprocesses inherit it)."""
        env = {**os.environ, "PYTHONPATH": str(self.site)}
        command = [sys.executable, *args]
        return subprocess.run(command, cwd=self.run, env=env, capture_output=True, text=True, timeout=timeout)


def missing_toolchain() -> str | None:
    """What the compiled build lacks here (a C compiler, Python's headers), or None."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


def run_ok(command: list[str], **kwargs: Any) -> None:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    missing = missing_toolchain()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the compiled build must be tested in CI: {missing}")
        pytest.skip(f"the compiled build: {missing}")
    assert Path(engines.game.__file__).suffix == ".py", (
        f"this tree's engines are compiled ({engines.game.__file__}), so the pure ones cannot be tested:"
        " an editable install with MAGBOARD_COMPILE=1 put them there; `git clean -fX engines` removes them"
    )
    top = tmp_path_factory.mktemp("compiled")
    tree, wheels, site, run = (top / name for name in ("tree", "wheels", "site", "run"))
    tree.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, tree / name)
    pip = [sys.executable, "-m", "pip"]
    compiling = {**os.environ, "MAGBOARD_COMPILE": "1"}
    run_ok([*pip, "wheel", "--no-deps", "-q", "-w", str(wheels), str(tree)], env=compiling, timeout=1800)
    (wheel,) = wheels.glob("magboard-*.whl")
    run_ok([*pip, "install", "--no-deps", "-q", "--target", str(site), str(wheel)], timeout=600)
    shutil.copytree(ROOT / "tests", run / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", run)  # pytest's settings
    return Build(site, run)


def test_the_compiled_modules_are_the_ones_imported(build: Build) -> None:
    modules = "engines.game", "engines.ai.alphabeta", "host.cli"
    probe = "import importlib, sys; print(*(importlib.import_module(m).__file__ for m in sys.argv[1:]))"
    done = build.python("-c", probe, *modules, timeout=60)
    assert done.returncode == 0, done.stderr
    game, alphabeta, cli = (Path(f) for f in done.stdout.split())
    assert game.suffix == alphabeta.suffix == ".so"
    assert all(f.is_relative_to(build.site) for f in (game, alphabeta, cli))


def test_the_engine_and_ai_tests_pass_compiled(build: Build) -> None:
    # That test spies on engines.ai.parallel_alphabeta by monkeypatching the module: compiled callers bind
    # the function directly and never see the spy (the pure run tests it).
    spied = "tests/ai/test_workers.py::test_until_its_workers_are_up_a_search_runs_in_this_process"
    done = build.python(
        "-m", "pytest", *ENGINE_TESTS, "--deselect", spied, "-q", "-p", "no:cacheprovider", timeout=1800
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]


def answers(game_id: str) -> list[dict[str, Any]]:
    """The AI's answer at each of SEARCHES in ``game_id``, as JSON values."""
    game = registry.make(game_id)
    found = []
    for plies, seed, level in SEARCHES:
        rng = random.Random(seed)
        pos = game.start()
        for _ in range(plies):
            after = game.play(pos, rng.choice(game.legal_moves(pos)))
            if game.outcome(after) is not None:
                break
            pos = after
        analysis = think(game, pos, level=level, nodes=NODES, seed=seed)
        found.append(
            {
                "search": [plies, seed, level],
                "best": game.format_move(pos, analysis.best),
                "pv": game.line_texts(pos, analysis.pv),
                "value": analysis.value,
                "nodes": analysis.nodes,
                "depth": analysis.depth,
                "algorithm": analysis.algorithm,
            }
        )
    return found


@pytest.mark.parametrize("game_id", registry.available())
def test_compiled_and_pure_choose_the_same_moves(build: Build, game_id: str) -> None:
    script = (
        "import json, sys; from tests.test_compiled import answers; print(json.dumps(answers(sys.argv[1])))"
    )
    done = build.python("-c", script, game_id, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == answers(game_id)
