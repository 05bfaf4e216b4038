"""Nothing an engine starts outlives the program playing it: the engine, its child in its process group,
and a grandchild detached into a session of its own are all gone once the engine quits, dies, is found
hung, or once `play` or `match` ends - by quit, SIGTERM, SIGINT or kill -9 - and `play` stops waiting for
an engine's first answer at SIGINT or SIGTERM.  Against GnuGo too, each way.

The engine is tests/gtp/fake_engine.py started with a marker: every process of it (its keeper, the engine,
the child, the grandchild) has the marker in its command line, which /proc shows.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from engines.go7.rules import Go7
from host.peers.gtp.engine import GtpEngine
from host.peers.gtp.game import GtpGame
from host.peers.gtp.protocol import GtpError
from tests.conftest import ROOT
from tests.gtp.test_engine_faults import FAKE, MARGIN_S, SECONDS
from tests.processes import Proc, alive, descendants, processes

GAME = Go7()
GNUGO = "gnugo --mode gtp --level 1"
EVERY = 4  # the keeper, the engine, its child and the detached grandchild
START_S = 20.0
GONE_S = 5.0


@pytest.fixture
def marker() -> Iterator[str]:
    mark = f"magboard-test-{uuid.uuid4().hex}"
    yield mark
    for proc in marked(mark):  # not left for the next test, whatever this one found
        os.kill(proc.pid, signal.SIGKILL)


def marked(mark: str) -> list[Proc]:
    return [p for p in processes().values() if mark in p.command]


def engine_line(fault: str, mark: str, after: int = 1) -> str:
    return f"{sys.executable} {FAKE} {fault} {after} {mark}"


def wait_for(mark: str, count: int) -> None:
    deadline = time.monotonic() + START_S
    while len(marked(mark)) < count:
        assert time.monotonic() < deadline, f"not every process started: {marked(mark)}"
        time.sleep(0.05)


def left(mark: str) -> list[Proc]:
    """The processes of the engine still there after GONE_S (the zombies' parents have reaped them)."""
    deadline = time.monotonic() + GONE_S
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    return marked(mark)


def started(fault: str, mark: str, after: int = 1) -> GtpGame:
    table = GtpGame(GtpEngine(engine_line(fault, mark, after)), GAME, SECONDS, MARGIN_S)
    wait_for(mark, EVERY)
    return table


def test_an_engine_that_quits_leaves_nothing(marker: str) -> None:
    table = started("none", marker)
    assert table.choose(GAME.play_texts(["g7"])) == GAME.parse_move(GAME.start(), "a1")
    table.engine.close()
    assert not left(marker)


@pytest.mark.parametrize("fault", ["die", "hang"])
def test_an_engine_that_dies_or_hangs_leaves_nothing(marker: str, fault: str) -> None:
    table = started(fault, marker)
    with pytest.raises(GtpError):
        table.choose(GAME.play_texts(["g7"]))
    assert not left(marker)


def test_an_engine_killed_leaves_nothing_and_is_said_killed(marker: str) -> None:
    table = started("none", marker)
    (engine,) = [p for p in marked(marker) if p.parent == table.engine._process.pid]
    os.kill(engine.pid, signal.SIGKILL)
    with pytest.raises(GtpError, match="killed by signal 9"):
        table.choose(GAME.play_texts(["g7"]))
    assert not left(marker)


def play(tmp_path: Path, line: str) -> subprocess.Popen[str]:
    """`play go7` on the terminal against the engine of ``line`` (stdin left open for the test)."""
    return subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "go7", "--engine", line, "--terminal", "--seconds", "0.2",
         "--nodes", "30", "--level", "3", "--new", "--journal", str(tmp_path / "games.sqlite3")],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=(tmp_path / "err").open("w"),
        text=True, start_new_session=True,
    )  # fmt: skip


def end(proc: subprocess.Popen[str], stop: str) -> None:
    """End `play` by ``stop``: quit typed at its terminal, or a signal's name; wait until it has ended."""
    assert proc.stdin is not None
    if stop == "quit":
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    else:
        proc.send_signal(signal.Signals[stop])
    proc.wait(START_S)


@pytest.mark.parametrize("stop", ["quit", "SIGTERM", "SIGINT", "SIGKILL"])
def test_play_with_an_engine_that_forks_leaves_nothing_however_it_ends(
    tmp_path: Path, marker: str, stop: str
) -> None:
    proc = play(tmp_path, engine_line("none", marker))
    try:
        wait_for(marker, EVERY)
        end(proc, stop)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert not left(marker), (tmp_path / "err").read_text()
    assert proc.returncode == {"quit": 0, "SIGTERM": -15, "SIGINT": 130, "SIGKILL": -9}[stop]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_the_wait_for_an_engines_first_answer_ends_at_a_signal(
    tmp_path: Path, marker: str, stop: signal.Signals
) -> None:
    """An engine that never answers is waited for up to 30 s at start; a signal ends the wait at once."""
    proc = play(tmp_path, engine_line("mute", marker))
    try:
        wait_for(marker, EVERY)
        time.sleep(0.5)  # in the wait
        asked = time.monotonic()
        proc.send_signal(stop)
        proc.wait(START_S)
        took = time.monotonic() - asked
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert took < 5, took
    assert not left(marker)
    assert proc.returncode == (130 if stop == signal.SIGINT else -signal.SIGTERM)
    assert "Traceback" not in (tmp_path / "err").read_text()


@pytest.mark.parametrize("stop", ["end", "SIGTERM", "SIGINT"])
def test_match_with_an_engine_leaves_nothing(tmp_path: Path, marker: str, stop: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "match", "go7", "--a", f"gtp:{engine_line('none', marker)}",
         "--b", "ai:1", "--games", "1" if stop == "end" else "1000", "--seconds", "0.05"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=(tmp_path / "err").open("w"), text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(marker, EVERY)
        if stop != "end":
            proc.send_signal(signal.Signals[stop])
        proc.wait(START_S * 3)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert not left(marker), (tmp_path / "err").read_text()
    if stop == "end":
        assert proc.returncode == 0, (tmp_path / "err").read_text()


@pytest.mark.usefixtures("gnugo")  # tests/gtp/conftest.py
@pytest.mark.parametrize("stop", ["quit", "SIGTERM", "SIGINT", "SIGKILL"])
def test_play_with_gnugo_leaves_nothing_however_it_ends(tmp_path: Path, stop: str) -> None:
    """GnuGo starts nothing of its own: every process below `play` (its keeper, GnuGo) must be gone."""
    proc = play(tmp_path, GNUGO)
    below: list[Proc] = []
    try:
        deadline = time.monotonic() + START_S
        while not any("gnugo" in p.command and "keeper" not in p.command for p in below):
            assert time.monotonic() < deadline, f"gnugo did not start: {below}"
            time.sleep(0.05)
            below = descendants(proc.pid)
        end(proc, stop)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + GONE_S
    while alive(below) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = alive(below)
    for orphan in left:
        os.kill(orphan.pid, signal.SIGKILL)
    assert not left, left


def test_the_keeper_starts_nothing_for_a_program_that_is_not_its_parent_or_is_gone(tmp_path: Path) -> None:
    """Its first argument is the pid of the program that started it: one that is not its parent's (the
    program ended before the keeper could watch it) or nobody's starts no engine."""
    made = tmp_path / "made"
    engine = [sys.executable, "-c", f"open({str(made)!r}, 'w')"]
    keeper = [sys.executable, "-m", "host.peers.gtp.keeper"]
    for owner in ("1", "999999999"):
        assert subprocess.run([*keeper, owner, *engine], cwd=ROOT, timeout=30).returncode == 127
        assert not made.exists()
    assert subprocess.run([*keeper, str(os.getpid()), *engine], cwd=ROOT, timeout=30).returncode == 0
    assert made.exists()
