"""The Amazons against OpenSpiel's `amazons`, move for move over many random games.  Prints JSON lines.

    .venv/bin/python benchmarks/bench_amazons_reference.py --games 300 [--seed 0]

One line a game (its plies, the winner OpenSpiel's returns give, the positions compared and any
differences), then a summary: games, positions, differences, and the processor time spent.  At every
position the whole turns (OpenSpiel's three actions composed), game over, the side to move and the returns
are compared (tests/reference/openspiel_amazons.py); tests/test_amazons_openspiel.py plays a few of these
games in CI.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' reference adapter

from engines import registry
from tests.reference.openspiel_amazons import replay_random_game


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0, help="game i plays seed + i")
    args = parser.parse_args()
    game = registry.make("amazons")
    started = time.process_time()
    positions = differences = 0
    for index in range(args.games):
        replay = replay_random_game(game, args.seed + index)
        positions += replay.positions
        differences += len(replay.differences)
        winner = replay.returns.index(1.0) if 1.0 in replay.returns else None
        line = {"game": index, "plies": len(replay.moves), "winner": winner, "positions": replay.positions}
        line["differences"] = replay.differences
        print(json.dumps(line), flush=True)
    summary = {"games": args.games, "positions": positions, "differences": differences}
    summary["cpu_seconds"] = round(time.process_time() - started, 1)
    print(json.dumps({"summary": summary}), flush=True)


if __name__ == "__main__":
    main()
