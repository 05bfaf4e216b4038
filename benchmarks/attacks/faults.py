"""Fault injection: the disk says ENOSPC, EIO or EDQUOT to SQLite's writes, syncs and truncations.

benchmarks/attacks/faults.c, built here with the C compiler and preloaded into a process playing
through the store (tests/store/child.py ``hold``), makes a run of one libc call fail: calls FIRST
to FIRST+COUNT-1 of pwrite64, fdatasync or ftruncate64, with one errno.  The player commits a move
per line it is sent.  While the fault lasts each commit must still return and the store's health
say that moves are not being saved; once it passes, the next commit must save everything; at the
end the store must hold exactly the moves the player acknowledged and pass integrity_check.  A
fault while the store is opened must be one line (``refused``), leaving the store as it was.
"""

from __future__ import annotations

import errno
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from attacks.common import ROOT, Budget, Table
from host.store.games import read_games

SOURCE = Path(__file__).with_name("faults.c")
# Each call, with how many of them opening the store and MOVES commits make (measured):
# where a fault may start.
CALLS = {"pwrite64": 60, "fdatasync": 16, "ftruncate64": 2}
ERRORS = (errno.ENOSPC, errno.EIO, errno.EDQUOT)
MOVES = 12  # commits made during the fault window
MORE = 40  # commits allowed after it for the health to say saved again


class NoCompiler(Exception):
    pass


def build(work: Path) -> Path:
    """The fault library, compiled from faults.c; NoCompiler when there is no C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise NoCompiler("no C compiler (cc or gcc) to build benchmarks/attacks/faults.c")
    library = work / "faults.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(SOURCE), "-ldl"], check=True)
    return library


def _play(store: Path, library: Path, fault: str) -> tuple[list[str], str, int]:
    """Commit MOVES moves under the fault, then more until saved again: what the player said."""
    env = {**os.environ, "LD_PRELOAD": str(library), "MAGBOARD_FAULT": fault}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.store.child", str(store), "hold"], cwd=ROOT, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    lines = [child.stdout.readline().rstrip("\n")]
    if lines[0] == "ready":
        for number in range(MOVES + MORE):
            child.stdin.write("move\n")
            child.stdin.flush()
            lines.append(child.stdout.readline().rstrip("\n"))
            if number >= MOVES and lines[-1].endswith(" Saved"):
                break
    child.stdin.close()
    rest, err = child.stdout.read(), child.stderr.read()
    return lines + rest.splitlines(), err, child.wait(timeout=60)


def _verdict(lines: list[str], err: str, status: int, store: Path, before: list[list[str]]) -> str | None:
    if status != 0 or "Traceback" in err:
        return f"exit {status}: {(err.strip().splitlines() or ['?'])[-1][:100]}"
    games = [g.moves for g in read_games(store)]
    if lines[0].startswith("refused "):
        return None if games == before else "a refused open changed the store"
    acks = [line.split() for line in lines if line.startswith("ack ")]
    if not acks or acks[-1][-1] != "Saved":
        return "never saved again after the fault"
    if games != [*before[:-1], before[-1] + [ack[3] for ack in acks]]:
        return "the store does not hold the acknowledged moves"
    with sqlite3.connect(store) as conn:
        verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
    conn.close()
    return None if verdict == "ok" else f"integrity_check: {verdict}"


def run(budget: Budget, work: Path) -> Table:
    table = Table("fault injection: ENOSPC, EIO and EDQUOT from pwrite64, fdatasync and ftruncate64")
    try:
        library = build(work)
    except NoCompiler as exc:
        table.tried("build the fault library", str(exc))
        return table
    rng = random.Random(budget.seed)
    faults_hit = commits = refused = 0
    for trial in budget.trials():
        store = work / f"games-{trial}.sqlite3"
        first_move = [sys.executable, "-m", "tests.store.child", str(store), "hold"]  # made without faults
        subprocess.run(first_move, cwd=ROOT, input="move\n", capture_output=True, text=True, check=True)
        before = [g.moves for g in read_games(store)]
        call = rng.choices(list(CALLS), weights=(9, 9, 2))[0]
        code = rng.choice(ERRORS)
        fault = f"{call}:{code}:{rng.randrange(CALLS[call])}:{rng.choice((1, 2, 5, 20))}"
        lines, err, status = _play(store, library, fault)
        failure = _verdict(lines, err, status, store, before)
        table.tried(f"{call} {errno.errorcode[code]}", None if failure is None else f"{fault}: {failure}")
        faults_hit += any(line.endswith(" NotSaving") for line in lines)
        refused += lines[0].startswith("refused ")
        commits += sum(line.startswith("ack ") for line in lines)
        for suffix in ("", "-wal", "-shm"):
            store.with_name(store.name + suffix).unlink(missing_ok=True)
    table.figures["faults injected"] = table.total
    table.figures["games that went on unsaved, then saved everything"] = faults_hit
    table.figures["opens refused in one line"] = refused
    table.figures["commits"] = commits
    return table
