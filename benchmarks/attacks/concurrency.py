"""Concurrency: four games played at once in one store, beside readers, an importer and would-be owners.

A thread per game slot owns it and commits random moves as fast as the disk allows (a new game
when one ends).  Meanwhile other threads read the store as the page's Past games does (a read-only
connection: list, then load games), import records, and try to own the slots being played under
other names for the store - a symbolic link, a linked directory - and now and then a `magboard
play` process tries the same from outside.  Every would-be owner must be refused (GameTaken), every
reader must read, and at the end each slot's games must hold exactly the moves its owner committed,
in a store that passes integrity_check.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from attacks.common import GAMES, ROOT, Budget, Table
from engines import records, registry
from host.store.database import StoreError, opened
from host.store.games import list_games, load_game, read_games, reading
from host.store.imports import import_file
from host.store.owner import GameTaken
from host.store.recorder import GameRecorder

Trial = Callable[[], str | None]  # one thing done: why it broke the rules, or None


class Worker(threading.Thread):
    """A thread doing one kind of thing until told to stop, counting its trials and failures."""

    def __init__(self, kind: str, work: Trial) -> None:
        super().__init__(daemon=True)
        self.kind, self.work = kind, work
        self.stop = threading.Event()
        self.done = 0
        self.failures: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                failure = self.work()
            except Exception as exc:
                failure = f"{type(exc).__name__}: {str(exc)[:100]}"
            self.done += 1
            if failure is not None:
                self.failures.append(failure)


def _writer(store: Path, game_id: str, seed: int, played: dict[int, list[str]]) -> tuple[GameRecorder, Trial]:
    recorder = GameRecorder.open(store, registry.make(game_id), board=None, players=("Ann", "Bo"))
    rng = random.Random(seed)

    def commit() -> str | None:
        time.sleep(rng.uniform(0.01, 0.05))  # a hundred times faster than hands, not a tight loop
        if recorder.game.is_over(recorder.positions[-1]):
            recorder.new_game()
        recorder.move(rng.choice(recorder.game.legal_texts(recorder.positions[-1])))
        assert recorder.game_id is not None
        played[recorder.game_id] = recorder.moves
        return None if type(recorder.health).__name__ == "Saved" else str(recorder.health)

    return recorder, commit


def _contender(names: list[Path], rng: random.Random) -> Trial:
    def claim() -> str | None:
        name, game_id = rng.choice(names), rng.choice(GAMES)
        try:
            GameRecorder.open(name, registry.make(game_id), board=None, players=("?", "?")).close()
        except GameTaken:
            return None
        except StoreError as exc:  # refused all the same, in one line (the write lock busy past BUSY_MS)
            return None if "\n" not in str(exc) else "a message of more than one line"
        return f"{name.parent.name}/{name.name} owned {game_id} beside its owner"

    return claim


def _reader(store: Path, rng: random.Random) -> Trial:
    def read() -> str | None:
        with reading(store) as conn:
            games = list_games(conn)
            for stored, _count in rng.sample(games, min(3, len(games))):
                assert stored.id is not None
                load_game(conn, stored.id)
        return None

    return read


def _importer(store: Path, work: Path, rng: random.Random) -> Trial:
    count = [0]

    def add() -> str | None:
        count[0] += 1
        game = registry.make("desdemona")
        pos, moves = game.start(), []
        for _ in range(rng.randrange(1, 6)):
            move = rng.choice(game.legal_moves(pos))
            moves.append(game.format_move(pos, move))
            pos = game.play(pos, move)
        path = work / f"record-{count[0]}.txt"
        path.write_text(records.from_moves(game, moves, (f"Importer {count[0]}", "?")).to_text())
        with opened(store) as conn:
            report = import_file(conn, path)
        return None if report.ids or report.before else f"nothing imported: {report}"

    return add


def _outsider(alias: Path) -> str | None:
    """`magboard play` from another process, under the store's other name: refused in one line."""
    play = ["play", "desdemona", "--humans", "--terminal", "--journal", str(alias)]
    result = subprocess.run(
        [sys.executable, "-m", "host.cli", *play], input="quit\n", capture_output=True, text=True, cwd=ROOT,
        timeout=120,
    )  # fmt: skip
    lines = result.stderr.splitlines()
    if result.returncode == 2 and len(lines) == 1 and "desdemona is being played by pid " in lines[0]:
        return None
    return f"exit {result.returncode}: {result.stderr.strip()[:120]}"


def run(budget: Budget, work: Path) -> Table:
    table = Table("concurrency: four owners, readers, an importer and would-be owners under other names")
    rng = random.Random(budget.seed)
    (work / "real").mkdir()
    store = work / "real" / "games.sqlite3"
    (work / "alias.sqlite3").symlink_to(store)
    (work / "linked").symlink_to(work / "real")
    names = [store, work / "alias.sqlite3", work / "linked" / "games.sqlite3"]
    played: dict[str, dict[int, list[str]]] = {game_id: {} for game_id in GAMES}
    recorders, workers = [], []
    for index, game_id in enumerate(GAMES):
        recorder, commit = _writer(store, game_id, budget.seed + index, played[game_id])
        recorders.append(recorder)
        workers.append(Worker(f"owner of {game_id}", commit))
    workers += [Worker("would-be owner", _contender(names, random.Random(rng.random()))) for _ in range(2)]
    workers += [Worker("reader", _reader(store, random.Random(rng.random()))) for _ in range(2)]
    workers.append(Worker("importer", _importer(store, work, random.Random(rng.random()))))
    for worker in workers:
        worker.start()
    outsiders = 0
    for _ in budget.trials():
        table.tried("`magboard play` under another name", _outsider(rng.choice(names[1:])))
        outsiders += 1
        if budget.left() < 0:
            break
    while budget.left() > 0 and sum(w.done for w in workers) < budget.count:
        time.sleep(0.1)
    for worker in workers:
        worker.stop.set()
    for worker in workers:
        worker.join(timeout=60)
        for _ in range(worker.done - len(worker.failures)):
            table.tried(worker.kind)
        for failure in worker.failures:
            table.tried(worker.kind, failure)
    for recorder in recorders:
        recorder.close()
    stored = {g.id: (g.game, g.moves) for g in read_games(store)}
    for game_id, games in played.items():
        for number, moves in games.items():
            if stored.get(number) != (game_id, moves):
                table.tried(
                    "the store afterwards", f"{game_id} game {number} is not as its owner committed it"
                )
    with sqlite3.connect(store) as conn:
        sound = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    table.tried("the store afterwards", None if sound else "integrity_check failed")
    table.figures["commits"] = sum(w.done for w in workers if w.kind.startswith("owner"))
    table.figures["claims refused"] = sum(w.done for w in workers if w.kind == "would-be owner") + outsiders
    table.figures["games in the store"] = len(stored)
    return table
