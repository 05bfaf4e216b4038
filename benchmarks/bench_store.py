"""What a committed move costs in the game store, against the journal file it replaced.

    .venv/bin/python benchmarks/bench_store.py [--moves 300] [--dir DIR]

Each commit is on the path from a settled reading to the LEDs, so its time is
latency the player sees.  The store commits each move in one SQLite
transaction (WAL, synchronous=FULL: one fsync of the WAL); the journal of
earlier versions appended a line and fsynced the file.  Both run here on the
same disk (--dir, default a temporary directory: put it on the Pi's SD card
to measure there) with the same random Desdemona moves; p50 and p99 per
commit in milliseconds, and the store's ratio to the journal.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from stats import percentile  # benchmarks/stats.py: a script has its own folder on the path

from engines import registry
from host.store.recorder import GameRecorder


def random_moves(count: int, seed: int) -> list[str]:
    """Moves of random Desdemona games, a new game whenever one ends (the text is all a commit sees)."""
    game = registry.make("desdemona")
    rng = random.Random(seed)
    pos, moves = game.start(), []
    while len(moves) < count:
        if game.is_over(pos):
            pos = game.start()
        move = rng.choice(game.legal_moves(pos))
        moves.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    return moves


def journal_times(path: Path, moves: list[str]) -> list[float]:
    """The earlier journal's commit: append a line, flush, fsync."""
    times = []
    with open(path, "a", encoding="utf-8") as f:
        for text in moves:
            start = time.perf_counter()
            f.write(f"move {text}\n")
            f.flush()
            os.fsync(f.fileno())
            times.append(time.perf_counter() - start)
    return times


def store_times(path: Path, moves: list[str]) -> list[float]:
    recorder = GameRecorder.open(path, registry.make("desdemona"), board=None, players=("?", "?"))
    game, times = recorder.game, []
    for text in moves:
        if game.is_over(recorder.positions[-1]):
            recorder.new_game()
        start = time.perf_counter()
        recorder.move(text)
        times.append(time.perf_counter() - start)
    recorder.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--dir", type=Path, help="directory on the disk to measure (default: a temporary one)"
    )
    args = parser.parse_args()
    moves = random_moves(args.moves, args.seed)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        journal = journal_times(Path(tmp) / "game.journal", moves)
        store = store_times(Path(tmp) / "games.sqlite3", moves)
    for name, times in (("journal", journal), ("store", store)):
        p50, p99 = percentile(times, 0.5) * 1000, percentile(times, 0.99) * 1000
        mean = statistics.mean(times) * 1000
        print(f"{name:8} {len(times)} commits  p50 {p50:.2f} ms  p99 {p99:.2f} ms  mean {mean:.2f} ms")
    print(f"store / journal: p50 {percentile(store, 0.5) / percentile(journal, 0.5):.2f}x, "
          f"mean {statistics.mean(store) / statistics.mean(journal):.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
