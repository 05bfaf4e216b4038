"""Go 7x7 against OpenSpiel's own ``go`` (board_size 7), move for move over many random games.

    .venv/bin/python benchmarks/bench_go7_reference.py [--games 300] [--prolonged 30] [--seed 0]

Uniform random games are compared with OpenSpiel's move cap lifted (whole games) and, the same games, with
its default game up to its cap of 98 moves; prolonged games pass rarely, run to thousands of moves and end
mostly by a repeated board. At every position the legal moves, the end and the board are compared, and at
the end the returns (tests/reference/openspiel_go7.py). Prints one JSON line per set and exits 1 on any
difference, printing the first.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' reference module

import pyspiel

from tests.reference.openspiel_go7 import DEFAULT, UNCAPPED, replay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="uniform random games")
    parser.add_argument("--prolonged", type=int, default=30, help="games that pass only now and then")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    uncapped, default = pyspiel.load_game("go", UNCAPPED), pyspiel.load_game("go", DEFAULT)
    cap = default.max_game_length() - 1
    sets = (
        ("uniform, cap lifted", uncapped, False, None, args.games, args.seed),
        ("uniform, default game up to its cap", default, False, cap, args.games, args.seed),
        ("prolonged, cap lifted", uncapped, True, None, args.prolonged, args.seed + 10**6),
    )
    failed = False
    for name, reference, prolong, max_plies, games, first in sets:
        started = time.process_time()
        found = [replay(reference, first + i, prolong, max_plies) for i in range(games)]
        differences = [f.difference for f in found if f.difference is not None]
        line = {
            "set": name,
            "games": games,
            "differences": len(differences),
            "plies": sum(f.plies for f in found),
            "longest": max((f.plies for f in found), default=0),
            "cpu_seconds": round(time.process_time() - started, 2),
        }
        print(json.dumps(line), flush=True)
        if differences:
            print(differences[0], flush=True)
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
