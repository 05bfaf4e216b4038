"""`magboard play` stopped by SIGTERM (what systemd sends), SIGINT or kill -9 (the out-of-memory killer)
leaves no process behind.

Its children are the firmware (MicroPython, in a session of its own), the AI's fork server, the
worker processes forked from that, and multiprocessing's resource tracker: a snapshot of every
descendant, taken once the AI has thought, must all be gone once `play` has ended, and the store
must keep the move made.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from host.store.games import read_games
from tests.conftest import ROOT
from tests.processes import Proc, alive, descendants, fork_server_workers, processes

WORKERS = 3  # this process and two workers, whatever the machine's cores
START_S = 60.0
GONE_S = 5.0  # the fork server and the resource tracker read the end of their pipes from the dead


def children_expected(below: list[Proc]) -> bool:
    """The firmware, the resource tracker, and the fork server with every worker."""
    server, workers = fork_server_workers(below)
    return (
        any("micropython" in p.command for p in below)
        and any("multiprocessing.resource_tracker" in p.command for p in below)
        and server is not None
        and len(workers) == WORKERS - 1
    )


def left_after(snapshot: list[Proc]) -> list[Proc]:
    """The processes of ``snapshot`` still there once those that end with their client have."""
    gone_by = time.monotonic() + GONE_S
    while alive(snapshot) and time.monotonic() < gone_by:
        time.sleep(0.05)
    return alive(snapshot)


def kill_what_is_left(proc: subprocess.Popen[str], below: list[Proc]) -> None:
    """Whatever the test found, nothing of it is left for the next test."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    for orphan in alive(below):
        os.kill(orphan.pid, signal.SIGKILL)


@pytest.mark.parametrize(
    "stop", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=["SIGTERM", "SIGINT", "SIGKILL"]
)
def test_a_stopped_play_leaves_no_process_and_keeps_the_game(tmp_path: Path, stop: signal.Signals) -> None:
    store = tmp_path / "games.sqlite3"
    script = tmp_path / "script.txt"
    script.write_text("lift a4\nplace a6\nwait 600000\n")
    errors = tmp_path / "stderr.txt"
    # stderr to a file: a process left behind holds it open, and reading a pipe would hang.
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "desdemona", "--script", str(script), "--journal",
         str(store), "--new", "--seconds", "0.5", "--workers", str(WORKERS)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=errors.open("w"), text=True, start_new_session=True,
    )  # fmt: skip
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout or ()], daemon=True).start()
    below: list[Proc] = []
    try:
        deadline = time.monotonic() + START_S
        thought = False
        while not thought:
            event = json.loads(lines.get(timeout=max(0.0, deadline - time.monotonic())))
            thought = event["event"] == "intent" and event["kind"] == "ai_move"
        while not children_expected(below := descendants(proc.pid)):
            assert time.monotonic() < deadline, f"not every child of play started: {below}"
            time.sleep(0.1)
        proc.send_signal(stop)
        proc.wait(timeout=START_S)
        left = left_after(below)
    finally:
        kill_what_is_left(proc, below)
    err = errors.read_text()
    # Stopped: SIGTERM's own status for a service manager, Ctrl-C's 130 for a shell.
    assert (
        proc.returncode == {signal.SIGTERM: -signal.SIGTERM, signal.SIGINT: 130, signal.SIGKILL: -9}[stop]
    ), err
    assert not left, left
    assert not [p for p in processes().values() if p.session == proc.pid]
    assert "Traceback" not in err
    assert [g.moves for g in read_games(store)] == [["a4-a6"]]


def test_a_play_that_quits_leaves_no_process(tmp_path: Path) -> None:
    """`play` on the terminal, told quit once the AI's fork server and workers are up."""
    errors = tmp_path / "stderr.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "desdemona", "--terminal", "--journal",
         str(tmp_path / "games.sqlite3"), "--new", "--seconds", "0.5", "--workers", str(WORKERS)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=errors.open("w"), text=True,
        start_new_session=True,
    )  # fmt: skip
    below: list[Proc] = []
    try:
        deadline = time.monotonic() + START_S
        while len(fork_server_workers(below := descendants(proc.pid))[1]) < WORKERS - 1:
            assert time.monotonic() < deadline, f"the AI's workers did not start: {below}"
            time.sleep(0.1)
        assert proc.stdin is not None
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=START_S)
        left = left_after(below)
    finally:
        kill_what_is_left(proc, below)
    assert proc.returncode == 0, errors.read_text()
    assert not left, left
