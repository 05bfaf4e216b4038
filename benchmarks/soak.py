"""A service's weeks in an hour: game after game on the simulated board, and what the process holds.

    .venv/bin/python benchmarks/soak.py --moves 20000 [--games desdemona go7 ...] [--warmup 1000]
                                        [--step-ms 20] [--settle-ms 150] [--max-plies 120] [--no-gnugo]

Each game in turn (the six, then again) is played by hand on the simulated board, AI against AI: the
session's AI (level 1, a node budget: fast) plays the second side, its moves lit and carried out by
hand, and another AI chooses the first side's moves (benchmarks/board_game.py's person at the board).
A game GTP engines play (Go 7x7) is played against GnuGo every other time it comes round (when it is
installed).  Every game goes to the one store, as a service's do.  After each game the process is
measured: its resident memory (RSS), open file descriptors, threads, child processes, and the store's
size on disk.

Prints one JSON line per game, then a summary: the growth per 1,000 moves after the first ``--warmup``
moves (least squares over the samples after it) for RSS and the store, and the range of descriptors,
threads and children after it (constant: the same low and high).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' person at the board

from engines import registry
from engines.gtp import gtp_facts
from host.peers.gtp.opponent import EngineOpponent
from host.session.ai_opponent import AiOpponent
from host.session.ai_worker import Opponent, stoppable
from host.session.session import Settings
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.pipeline.player import Person

GNUGO = "gnugo --mode gtp --level 1"
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_bytes() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * PAGE


def children() -> int:
    """Every process this one started that is still there (their children included)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    below, frontier = 0, [os.getpid()]
    while frontier:
        parent = frontier.pop()
        kids = [pid for pid, up in parents.items() if up == parent]
        below += len(kids)
        frontier += kids
    return below


def os_threads() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return threading.active_count()


def store_bytes(journal: Path) -> int:
    return sum(p.stat().st_size for p in journal.parent.glob(journal.name + "*"))


def sample(moves: int, journal: Path) -> dict[str, int]:
    gc.collect()
    return {
        "moves": moves,
        "rss": rss_bytes(),
        "fds": len(os.listdir("/proc/self/fd")),
        "threads": os_threads(),
        "children": children(),
        "store": store_bytes(journal),
    }


def one_game(
    game_id: str, opponent: Opponent, journal: Path, args: argparse.Namespace, seed: int
) -> tuple[int, str | None]:
    """Play one game by hand to its end (or ``--max-plies``); the moves committed, and what went wrong if
    anything did (the opponent's trouble, or a move the hands could not get committed: at fast settings
    on a loaded machine a slide may be read half way, and the soak goes on with the next game)."""
    hands = AiOpponent(level=1, nodes=20, seed=seed)
    settings = Settings(ai_side=1, settle_ms=args.settle_ms)
    with open_table(
        game_id, SimulatedHardware(), opponent=opponent, settings=settings, journal_path=journal, new=True
    ) as table:  # fmt: skip
        person = Person(table, seed=seed, step_ms=args.step_ms)
        session, game = table.session, table.game
        person.serve(0.3)
        failed = None
        try:
            while not game.is_over(session.position) and len(session.moves) < args.max_plies:
                if not person.carry_out_ai_move_if_any() and not game.is_over(session.position):
                    person.make(hands.choose(game, session.position))
        except AssertionError as exc:
            failed = str(exc)
        played = len(session.moves)
    engine = stoppable(opponent)
    return played, (engine.trouble if engine is not None else None) or failed


def slope(points: list[tuple[int, int]]) -> float:
    """Least squares: growth per move."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return 0.0 if var == 0 else sum((x - mx) * (y - my) for x, y in points) / var


def summary(samples: list[dict[str, int]], warmup: int) -> dict[str, Any]:
    after = [s for s in samples if s["moves"] >= warmup]
    result: dict[str, Any] = {
        "moves": samples[-1]["moves"] if samples else 0,
        "samples_after_warmup": len(after),
    }
    for key in ("rss", "store"):
        per_move = slope([(s["moves"], s[key]) for s in after])
        result[f"{key}_bytes_per_1000_moves"] = round(per_move * 1000)
    for key in ("fds", "threads", "children"):
        values = [s[key] for s in after]
        result[key] = [min(values), max(values)] if values else None
    if after:
        result["rss_mb"] = [round(after[0]["rss"] / 2**20, 1), round(after[-1]["rss"] / 2**20, 1)]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20_000, help="stop after this many moves in all")
    parser.add_argument(
        "--games", nargs="+", choices=registry.available(), default=list(registry.available())
    )
    parser.add_argument("--warmup", type=int, default=1000, help="moves before growth is counted")
    parser.add_argument("--step-ms", type=int, default=20, help="a hand's time an action")
    parser.add_argument("--settle-ms", type=int, default=150, help="the session's settle time")
    parser.add_argument("--max-plies", type=int, default=120, help="a game ends here if not before")
    parser.add_argument("--no-gnugo", action="store_true", help="Go against the built-in AI only")
    args = parser.parse_args()
    gnugo = not args.no_gnugo and shutil.which(
        "gnugo", path=os.pathsep.join([os.environ["PATH"], "/usr/games"])
    )
    samples: list[dict[str, int]] = []
    moves, rounds, troubles = 0, 0, 0
    with tempfile.TemporaryDirectory(prefix="magboard-soak-") as tmp:
        journal = Path(tmp) / "games.sqlite3"
        started = time.monotonic()
        while moves < args.moves:
            for game_id in args.games:
                fallback = AiOpponent(level=1, nodes=20, seed=rounds)
                opponent: Opponent = fallback
                if gnugo and gtp_facts(registry.make(game_id)) is not None and rounds % 2 == 1:
                    opponent = EngineOpponent(GNUGO, 0.2, fallback)
                played, trouble = one_game(game_id, opponent, journal, args, seed=rounds)
                moves += played
                now = sample(moves, journal)
                samples.append(now)
                against = "gnugo" if opponent is not fallback else "ai"
                seconds = round(time.monotonic() - started, 1)
                line = {
                    "game": game_id,
                    "against": against,
                    "plies": played,
                    "trouble": trouble,
                    "seconds": seconds,
                }
                print(json.dumps(line | now), flush=True)
                if moves >= args.moves:
                    break
            rounds += 1
    print(json.dumps({"summary": summary(samples, args.warmup) | {"games_in_trouble": troubles}}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
