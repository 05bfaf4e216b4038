"""The store against other processes and the kernel: kill -9, a second owner, a disk that fills up.

The children are tests/store/child.py (the recorder alone, committing as fast
as the disk allows) and `magboard play` itself.
"""

from __future__ import annotations

import json
import os
import random
import resource
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from host.store.games import read_games
from tests.conftest import ROOT

PLAY = [sys.executable, "-m", "host.cli", "play"]
KILL_COMMITS = int(os.environ.get("MAGBOARD_KILL_COMMITS", "200"))


def child(store: Path, *args: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.store.child", str(store), *args], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs,  # type: ignore[call-overload]
    )  # fmt: skip


def read_lines(stream: IO[str], into: list[str]) -> threading.Thread:
    """Collect a child's lines on a thread (joined by the caller once the child is gone)."""

    def work() -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    thread = threading.Thread(target=work)
    thread.start()
    return thread


def test_kill_9_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    rng = random.Random(11)
    acked: dict[int, list[str]] = {}
    kills = acks = 0
    while acks < KILL_COMMITS or kills < 20:
        assert kills < 50 * 20, f"{acks} acknowledged commits in {kills} kills: the children never commit"
        proc = child(store, "commit", str(kills))
        assert proc.stdout is not None
        lines: list[str] = []
        reader = read_lines(proc.stdout, lines)
        # The moment of the power cut: every other kill counted from the child's start (start-up, opening
        # the store), the others from its first line (mid-commit), so a slow start on a loaded machine
        # still leaves commits to cut.
        if kills % 2:
            started = time.monotonic()
            while not lines and proc.poll() is None and time.monotonic() - started < 60:
                time.sleep(0.01)
        time.sleep(rng.uniform(0.05, 0.6))
        proc.kill()
        proc.wait()
        reader.join()
        kills += 1
        assert proc.stderr is not None and proc.stderr.read() == ""
        for line in lines:
            word, game_id, *rest = line.split()
            moves = acked.setdefault(int(game_id), [])
            if word == "game":  # resumed with exactly the moves in the store
                assert rest == moves, line
            else:
                assert len(moves) == int(rest[0]) - 1, line
                moves.append(rest[1])
                acks += 1
        stored = {g.id: g.moves for g in read_games(store)}
        for game_id, moves in acked.items():
            assert stored[game_id][: len(moves)] == moves, f"after kill {kills}: game {game_id} lost a move"
        extra = sum(len(stored[g]) - len(acked.get(g, [])) for g in stored if g is not None)
        assert extra <= 1  # at most the commit in flight at the kill: on the disk, not yet acknowledged
        acked = {g: moves for g, moves in stored.items() if g is not None}  # what the next child resumes
        with sqlite3.connect(store) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert kills >= 20 and acks >= KILL_COMMITS
    assert len(acked) > 1  # games ended and new ones began under the kills too


def test_a_second_process_on_the_same_game_is_refused_and_the_first_plays_on(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    first = child(store, "hold", stdin=subprocess.PIPE)
    assert first.stdout is not None and first.stdin is not None
    assert first.stdout.readline() == "ready\n"
    first.stdin.write("move\n")
    first.stdin.flush()
    assert first.stdout.readline().endswith(" Saved\n")
    second = subprocess.run(
        [*PLAY, "desdemona", "--humans", "--terminal", "--journal", str(store)],
        input="a4-a6\nquit\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert second.returncode == 2 and second.stdout == ""
    assert second.stderr == (
        f"magboard play: {store}: desdemona is being played by pid {first.pid} "
        f"({sys.executable} -m tests.store.child {store} hold): "
        "quit that game first, or play with another --journal\n"
    )
    first.stdin.write("move\n")
    first.stdin.flush()
    assert first.stdout.readline().endswith(" Saved\n")
    first.stdin.close()
    assert first.wait(timeout=60) == 0
    (stored,) = read_games(store)
    assert len(stored.moves) == 2  # the first process's two moves, nothing of the second's
    # A holder killed outright leaves no claim behind: the next process takes the game over.
    third = child(store, "hold", stdin=subprocess.PIPE)
    assert third.stdout is not None
    assert third.stdout.readline() == "ready\n"
    third.kill()
    third.wait()
    fourth = child(store, "hold", stdin=subprocess.DEVNULL)
    out, err = fourth.communicate(timeout=60)
    assert (fourth.returncode, out, err) == (0, "ready\n", "")


def test_other_games_in_the_same_store_are_not_blocked(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    first = child(store, "hold", stdin=subprocess.PIPE)
    assert first.stdout is not None and first.stdin is not None
    assert first.stdout.readline() == "ready\n"
    other = subprocess.run(
        [*PLAY, "flipfour", "--humans", "--terminal", "--journal", str(store)],
        input="d1\nquit\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert other.returncode == 0, other.stderr
    first.stdin.close()
    assert first.wait(timeout=60) == 0
    assert [(g.game, g.moves) for g in read_games(store)] == [("desdemona", []), ("flipfour", ["d1"])]


def test_a_full_disk_mid_game_is_said_and_everything_saved_once_there_is_room(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    proc = child(store, "fill")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    lines = out.splitlines()
    assert len(lines) == 8
    saved = f"moves are saved in {store}"
    assert [line.split(" | ")[1] == saved for line in lines] == [True] * 3 + [False] * 4 + [True]
    assert all(f"moves are not being saved: {store}: " in line for line in lines[3:7])
    unsaved = [line.split(" (")[-1].removesuffix(" unsaved, retrying)") for line in lines[3:7]]
    assert unsaved == ["1 move", "2 moves", "3 moves", "2 moves"]
    logged = err.splitlines()
    assert (
        logged[0].startswith(f"moves are not being saved: {store}: ")
        and logged[-1] == f"moves are saved again in {store}"
    )
    final = lines[-1].split(" | ")[0].split()
    (stored,) = read_games(store)
    assert [str(len(stored.moves)), *stored.moves] == final and len(stored.moves) == 6


def test_magboard_play_survives_a_full_disk_and_saves_the_moves_after(tmp_path: Path) -> None:
    """The file size limit of the running `magboard play` drops to a byte after its first move."""
    store = tmp_path / "games.sqlite3"
    script = tmp_path / "script.txt"
    script.write_text(
        "lift a4\nplace a6\nwait 2500\nlift a7\nplace a8\nplace a7 stone:0\nwait 2500\n"
        "lift a6\nplace a5\nplace a6 stone:1\nwait 1000\n"
    )
    proc = subprocess.Popen(
        [*PLAY, "desdemona", "--humans", "--script", str(script), "--journal", str(store)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    commits = []
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    for line in proc.stdout:
        event = json.loads(line)
        if event["event"] == "commit":
            commits.append(event["move"])
            if len(commits) == 1:
                resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (1, limit[1]))
            elif len(commits) == 2:
                assert [g.moves for g in read_games(store)] == [["a4-a6"]]  # the second is not saved
                resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, limit)
        if event["event"] == "end":
            break
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert commits == ["a4-a6", "a7-a8/a7", "a6-a5/a6"]
    assert [g.moves for g in read_games(store)] == [commits]
    assert "Traceback" not in err
    assert err.splitlines()[0].startswith(f"moves are not being saved: {store}: ")
    assert err.splitlines()[-1] == f"moves are saved again in {store}"
