"""Rules-engine speed: legal-move generations per second at the start position and
complete random games per second, for every game present.

    .venv/bin/python benchmarks/bench_engines.py [--seconds 2] [GAME ...]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engines import registry
from engines.game import Game


def rate(fn: Any, seconds: float) -> tuple[float, int]:
    """Calls per second of ``fn`` over about ``seconds`` of wall time, and the number of calls."""
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or calls == 0:
        fn()
        calls += 1
    return calls / elapsed, calls


def random_game(game: Game[Any, Any], rng: random.Random) -> int:
    pos, plies = game.start(), 0
    while moves := game.legal_moves(pos):
        pos = game.play(pos, rng.choice(moves))
        plies += 1
    return plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=registry.available())
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    print(f"{'game':<12} {'movegen/s':>12} {'moves@start':>12} {'games/s':>10} {'plies/game':>11}")
    for game_id in args.games:
        game = registry.make(game_id)
        start = game.start()
        gen_rate, _ = rate(lambda g=game, s=start: g.legal_moves(s), args.seconds)
        rng = random.Random(1)
        plies: list[int] = []
        games_rate, _ = rate(lambda g=game, r=rng, p=plies: p.append(random_game(g, r)), args.seconds)
        print(
            f"{game_id:<12} {gen_rate:>12,.0f} {len(game.legal_moves(start)):>12} "
            f"{games_rate:>10,.1f} {sum(plies) / len(plies):>11.1f}"
        )


if __name__ == "__main__":
    main()
