"""Our SGF of finished Go 7x7 games, counted by GnuGo: ``loadsgf`` then ``final_score``, game by game.

    .venv/bin/python benchmarks/bench_gnugo_sgf.py [--games 50] [--seed 0]

The games are GnuGo's own from a random opening, every dead stone taken off
before the passes (tests/gtp/gnugo_scoring.py); games it resigned or that drew
by a repeated board are left out and counted.  Prints one JSON line, and exits 1
when GnuGo's count differs from ours on any game (printing the first).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' helpers

from engines.records import Record
from engines.sgf import dump
from tests.gtp.gnugo_scoring import cleaned_game, gnugo_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="finished games to count")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    start = time.monotonic()
    agreed = left_out = 0
    seed = args.seed
    with tempfile.TemporaryDirectory() as folder:
        while agreed < args.games:
            texts = cleaned_game(seed)
            if texts is None:
                left_out += 1
            else:
                sgf = Path(folder) / f"{seed}.sgf"
                sgf.write_bytes(dump(Record("go7", ("GNU Go", "GNU Go"), (), texts)))
                ours = sgf.read_text().split("RE[")[1].split("]")[0]
                theirs, dead = gnugo_count(sgf)
                if theirs != ours or dead:
                    print(
                        json.dumps(
                            {"seed": seed, "ours": ours, "gnugo": theirs, "dead": dead, "moves": texts}
                        )
                    )
                    sys.exit(1)
                agreed += 1
            seed += 1
    print(json.dumps({"games": agreed, "agreed": agreed, "left_out": left_out,
                      "seconds": round(time.monotonic() - start, 1)}))  # fmt: skip


if __name__ == "__main__":
    main()
