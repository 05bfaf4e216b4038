"""kill -9 at random moments: a process committing moves, and one importing an old journal.

The writer is tests/store/child.py (``commit``: resume the store's game and commit random moves,
saying ``ack`` after each commit returned); it is killed between 0.05 s and a second after its
start - while starting, opening, or mid-commit.  Every acknowledged move must be in the store
afterwards, in order, with at most the one commit in flight beyond them, and the store must pass
integrity_check; the next writer resumes exactly what is stored.  The importer is `magboard history
import` of a journal of many games: after its kill the journal's games are in the store all or
not at all, and importing it again finishes the job.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from attacks.common import ROOT, Budget, Table
from engines import registry
from host.store.games import read_games

START_S = 60.0  # a writer that has not opened the store by then is killed anyway


def _writer(store: Path, seed: int, early: bool, after: float) -> list[str]:
    """Start a writer and kill it ``after`` seconds from its start (``early``) or from its first
    line (it has opened the store), and return what it said."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.store.child", str(store), "commit", str(seed)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout is not None
    lines: list[str] = []
    started = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.append(line.rstrip("\n"))
            started.set()
        started.set()

    reader = threading.Thread(target=read)
    reader.start()
    if not early:
        started.wait(START_S)
    time.sleep(after)
    child.kill()
    child.wait()
    reader.join()
    assert child.stderr is not None
    err = child.stderr.read()
    if "Traceback" in err:
        return [f"error {err.strip().splitlines()[-1]}"]
    return lines


def _check_writer(lines: list[str], before: dict[int, list[str]], store: Path) -> tuple[str | None, int]:
    """Whether the store kept every acknowledged move (and invented none); the number acknowledged."""
    acked = {game: list(moves) for game, moves in before.items()}
    count = 0
    for line in lines:
        word, *rest = line.split()
        if word == "error":
            return line, count
        if word == "game":
            number, resumed = int(rest[0]), rest[1:]
            known = acked.setdefault(number, [])
            if resumed != known:
                return f"game {number} resumed with {len(resumed)} moves, not the {len(known)} stored", count
        elif word == "ack":
            number, ply, text = int(rest[0]), int(rest[1]), rest[2]
            moves = acked.setdefault(number, [])
            if ply != len(moves) + 1:
                return f"game {number}: ply {ply} acknowledged after {len(moves)}", count
            moves.append(text)
            count += 1
    in_store = {g.id: g.moves for g in read_games(store) if g.id is not None}
    for game_id, moves in acked.items():
        kept = in_store.get(game_id, [])
        if kept[: len(moves)] != moves:
            return f"game {game_id}: an acknowledged move was lost", count
        if len(kept) > len(moves) + 1:
            return f"game {game_id}: {len(kept) - len(moves)} moves beyond those acknowledged", count
    return _integrity(store), count


def _integrity(store: Path) -> str | None:
    with sqlite3.connect(store) as conn:
        verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
    conn.close()
    return None if verdict == "ok" else f"integrity_check: {verdict}"


def _journal(path: Path, games: int, rng: random.Random) -> int:
    """An old journal of ``games`` short Flip Four games; the number of games with moves."""
    game = registry.make("flipfour")
    lines = ["game: flipfour", "options: ", "---"]
    for _ in range(games):
        pos = game.start()
        for _ in range(rng.randrange(1, 8)):
            move = rng.choice(game.legal_moves(pos))
            lines.append(f"move {game.format_move(pos, move)}")
            pos = game.play(pos, move)
        lines.append("newgame")
    path.write_text("\n".join(lines) + "\n")
    return games


def _importer(store: Path, journal: Path, after: float) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "history", "--journal", str(store), "import", str(journal)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    time.sleep(after)
    child.kill()
    child.wait()


def _check_import(store: Path, expected: int) -> str | None:
    games = [g for g in read_games(store) if g.source.startswith("journal ")]
    with sqlite3.connect(store) as conn:
        files = conn.execute("SELECT count(*) FROM imported_files").fetchone()[0]
    conn.close()
    if (len(games), files) not in ((0, 0), (expected, 1)):
        return f"half an import: {len(games)} of {expected} games, {files} files recorded"
    return _integrity(store)


def run(budget: Budget, work: Path) -> Table:
    table = Table("kill -9: a writer mid-commit, an importer mid-import")
    rng = random.Random(budget.seed)
    store = work / "games.sqlite3"
    journal = work / "old.journal"
    expected = _journal(journal, 400, rng)
    kills = acks = 0
    for trial in budget.trials():
        if trial % 4 == 3:
            imports = work / f"import-{trial}.sqlite3"
            _importer(imports, journal, rng.uniform(0.2, 2.0))
            kills += 1
            failure = _check_import(imports, expected)
            if failure is None:
                again = ["history", "--journal", str(imports), "import", str(journal)]
                subprocess.run(
                    [sys.executable, "-m", "host.cli", *again], cwd=ROOT, capture_output=True, timeout=120
                )
                failure = _check_import(imports, expected)
                if failure is None and len(read_games(imports)) != expected:
                    failure = "importing again did not finish the import"
            table.tried("an importer killed", failure)
            continue
        before = {g.id: g.moves for g in read_games(store) if g.id is not None} if store.exists() else {}
        early = trial % 5 == 0
        lines = _writer(store, trial, early, rng.uniform(0.05, 0.6) if early else rng.uniform(0, 0.3))
        kills += 1
        failure, count = _check_writer(lines, before, store)
        acks += count
        table.tried("a writer killed", failure)
    table.figures["kills"] = kills
    table.figures["commits acknowledged before a kill"] = acks
    table.figures["moves lost or invented"] = sum("lost" in f or "beyond" in f for f in table.failures)
    return table
