"""AI benchmarks: search speed, time control and the level ladder.  Prints JSON lines.

    .venv/bin/python benchmarks/bench_ai.py speed [GAME ...]
        nodes per second of each search at a few positions of each game
    .venv/bin/python benchmarks/bench_ai.py revision GAME [--rev 3d2d138] [--seconds 1] [--plies 4,10]
                                                          [--nodes N] [--level L]
        this checkout's think() against revision REV's in the same run (each in its own process, one
        core, taking turns), at positions after PLIES random moves from the start: nodes per second,
        depth, and the ratio of nodes per second (REV's code comes from `git archive`); with
        --nodes N instead, whether both find the same move (an optimisation must not change it)
    .venv/bin/python benchmarks/bench_ai.py compiled [GAME ...] --site DIR [--seconds 1] [--plies 4,10]
                                                            [--nodes N] [--level L]
        the pure engines of this checkout against the compiled ones installed in DIR, as `revision`
        compares revisions (each game; the same positions, options and output).  Make DIR with
        `MAGBOARD_COMPILE=1 .venv/bin/pip install --no-deps --target DIR .` (about two minutes)
    .venv/bin/python benchmarks/bench_ai.py depth GAME --depth 2 [--plies 4,10] [--seeds 3]
        the processor time (this process only, so other load on the machine counts little) and the
        wall time alpha-beta takes to complete DEPTH turns, at the positions of `revision`
    .venv/bin/python benchmarks/bench_ai.py timing --seconds 5 --positions 4 [GAME ...]
        the longest and mean wall time of think(seconds=S) (all cores) over positions of each game, the
        workers started first, as a session starts them
    .venv/bin/python benchmarks/bench_ai.py ladder GAME --seconds 0.25 --games 4 [--seed S] [--levels 1-9]
        level L against level L - 1 for L = 2..10, colours alternating; levels 1-9 search node caps,
        so the same seed replays the same games (except level 10's, which is timed): use another
        seed for an independent sample.  --levels 1-9 leaves out level 10: at a long time per move
        the others answer at once (their caps bind), so their ladder at 5 s costs little
    .venv/bin/python benchmarks/bench_ai.py versus GAME --set NAME=VALUE ... --seconds 0.25 --games 10
        the game's policy with changed attributes (weights, algorithm settings) against the current one

    .venv/bin/python benchmarks/bench_ai.py odds GAME --ratio 10 --games 30 [--seconds 0.25] [--seed S]
        level 10 (one process) at SECONDS a move against OpenSpiel's MCTSBot at RATIO x SECONDS,
        colours alternating, a new peer seed each game; one JSON line a game (with its moves, to
        replay and analyse a loss), then W-D-L with a 95% Wilson interval of our score

Matches against the OpenSpiel baseline at equal time are `magboard match GAME --a ai --b openspiel`.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

from engines import registry
from engines.ai import start_workers, think, wait_for_workers
from engines.ai.alphabeta import AlphaBeta
from engines.ai.budget import Budget
from engines.ai.match import AiPlayer, Player, Tally, play_game, play_match
from engines.ai.policy import policy_for
from engines.game import Game

# Matches between our own players start from random openings of this many plies (one per pair of
# games, each side playing it once with each colour), or deterministic players repeat their games.
OPENING_PLIES = 2


def sample_positions(game: Game[Any, Any], count: int, seed: int) -> list[Any]:
    """Positions from a quick self-play game (level 10, tiny node budget), spread over the game."""
    rng = random.Random(seed)
    line = [game.start()]
    pos = line[0]
    while game.outcome(pos) is None and len(line) < 200:
        moves = game.legal_moves(pos)
        move = rng.choice(moves) if rng.random() < 0.3 else think(game, pos, nodes=200, seed=seed).best
        pos = game.play(pos, move)
        line.append(pos)
    playable = [p for p in line if game.outcome(p) is None]
    step = max(1, len(playable) // count)
    return playable[::step][:count]


def speed(games: list[str], seconds: float) -> None:
    for game_id in games:
        game = registry.make(game_id)
        for algorithm in ("alphabeta", "mcts"):
            nodes = spent = 0.0
            for pos in sample_positions(game, 3, 1):
                found = think(game, pos, seconds=seconds, workers=1, algorithm=algorithm)
                nodes += found.nodes
                spent += found.seconds
            print(
                json.dumps(
                    {"game": game_id, "algorithm": algorithm, "nodes_per_second": round(nodes / spent)}
                )
            )


# Run in a fresh interpreter whose working directory is a checkout: one search, one JSON line.
SEARCH_ONE = """
import json, sys
from engines import registry
from engines.ai import think
from engines.ai.alphabeta import AlphaBeta
from engines.ai.budget import Budget
game = registry.make(sys.argv[1])
pos = game.play_texts(json.loads(sys.argv[2]))
budget = json.loads(sys.argv[3])
found = think(game, pos, level=budget["level"], seconds=budget["seconds"], nodes=budget["nodes"], workers=1)
# Before Analysis.simulations, an MCTS search gave its simulations as its depth.
simulations = getattr(found, "simulations", found.depth if found.algorithm == "mcts" else 0)
print(json.dumps({"nodes": found.nodes, "seconds": found.seconds, "depth": found.depth,
                  "simulations": simulations, "algorithm": found.algorithm,
                  "best": game.format_move(pos, found.best)}))
"""
REPO = Path(__file__).resolve().parent.parent


def random_line(game: Game[Any, Any], plies: int, seed: int) -> list[str]:
    """The texts of ``plies`` random moves from the start (fewer if the game would end)."""
    rng = random.Random(seed)
    pos, texts = game.start(), []
    for _ in range(plies):
        moves = game.legal_moves(pos)
        move = rng.choice(moves)
        if game.outcome(game.play(pos, move)) is not None:
            break
        texts.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    return texts


def search_in(
    checkout: Path, game_id: str, texts: list[str], seconds: float | None, nodes: int | None, level: int
) -> dict[str, Any]:
    budget = json.dumps({"seconds": seconds, "nodes": nodes, "level": level})
    done = subprocess.run(
        [sys.executable, "-c", SEARCH_ONE, game_id, json.dumps(texts), budget],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def compare(
    game_id: str,
    checkouts: dict[str, Path],
    seconds: float | None,
    nodes: int | None,
    level: int,
    plies: list[int],
    seeds: int,
    about: dict[str, Any],
) -> None:
    """The same searches in two checkouts (the first is the base), taking turns: one JSON line each."""
    game = registry.make(game_id)
    (base, _), (other, _) = checkouts.items()
    totals = {name: [0.0, 0.0] for name in checkouts}
    for seed in range(seeds):
        for count in plies:
            texts = random_line(game, count, seed)
            pos = game.play_texts(texts)
            row: dict[str, Any] = {"game": game_id, "seed": seed, "plies": len(texts)}
            row["legal_moves"] = game.count_moves(pos)
            for name, checkout in checkouts.items():
                found = search_in(checkout, game_id, texts, seconds, nodes, level)
                totals[name][0] += found["nodes"]
                totals[name][1] += found["seconds"]
                row[name] = {
                    "depth": found["depth"],
                    "simulations": found["simulations"],
                    "nodes_per_second": round(found["nodes"] / found["seconds"]),
                    "best": found["best"],
                }
            row["ratio"] = round(row[other]["nodes_per_second"] / row[base]["nodes_per_second"], 2)
            row["same_best"] = row[other]["best"] == row[base]["best"]
            print(json.dumps(row), flush=True)
    base_rate, other_rate = (totals[k][0] / totals[k][1] for k in (base, other))
    summary = {"game": game_id, **about, "level": level, "seconds": seconds, "nodes": nodes}
    summary["ratio"] = round(other_rate / base_rate, 2)
    print(json.dumps({"summary": summary}), flush=True)


def revision(
    game_id: str, rev: str, seconds: float | None, nodes: int | None, level: int, plies: list[int], seeds: int
) -> None:
    archive = subprocess.run(["git", "archive", rev, "engines"], cwd=REPO, capture_output=True, check=True)
    with tempfile.TemporaryDirectory() as old:
        with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
            tar.extractall(old, filter="data")
        checkouts = {"old": Path(old), "new": REPO}
        compare(game_id, checkouts, seconds, nodes, level, plies, seeds, {"rev": rev})


def compiled(
    games: list[str],
    site: Path,
    seconds: float | None,
    nodes: int | None,
    level: int,
    plies: list[int],
    seeds: int,
) -> None:
    for checkout, suffix in ((REPO, ".py"), (site, ".so")):
        probe = [sys.executable, "-c", "import engines.game; print(engines.game.__file__)"]
        found = subprocess.run(probe, cwd=checkout, capture_output=True, text=True, check=True).stdout.strip()
        if not found.endswith(suffix):
            raise SystemExit(f"expected the engines in {checkout} to be {suffix} files, not {found}")
    for game_id in games:
        compare(game_id, {"pure": REPO, "compiled": site}, seconds, nodes, level, plies, seeds, {})


def depth_time(game_id: str, depth: int, plies: list[int], seeds: int) -> None:
    game = registry.make(game_id)
    for seed in range(seeds):
        for count in plies:
            pos = game.play_texts(random_line(game, count, seed))
            policy = policy_for(game)
            split = policy.split_turns(pos)
            rng = random.Random(0)
            started, cpu = time.perf_counter(), time.process_time()
            if split is None:
                found = AlphaBeta(game, policy, Budget(), rng, max_depth=depth).search(pos)
            else:
                search = AlphaBeta(
                    split.rules,
                    split.policy,
                    Budget(),
                    rng,
                    max_depth=depth * split.parts,
                    depth_step=split.parts,
                )
                found = split.whole(search.search(split.root))
            row = {"game": game_id, "seed": seed, "plies": count, "legal_moves": game.count_moves(pos)}
            row |= {"depth": found.depth, "nodes": found.nodes, "best": game.format_move(pos, found.best)}
            row |= {"cpu_seconds": round(time.process_time() - cpu, 3)}
            row |= {"wall_seconds": round(time.perf_counter() - started, 3)}
            print(json.dumps(row), flush=True)


def timing(games: list[str], seconds: float, positions: int) -> None:
    for game_id in games:
        game = registry.make(game_id)
        start_workers(game)
        wait_for_workers()
        times = []
        for pos in sample_positions(game, positions, 2):
            started = time.perf_counter()
            think(game, pos, seconds=seconds)
            times.append(time.perf_counter() - started)
        print(
            json.dumps(
                {
                    "game": game_id,
                    "seconds": seconds,
                    "moves": len(times),
                    "max": round(max(times), 3),
                    "mean": round(sum(times) / len(times), 3),
                    "over_limit": sum(t > seconds * 1.1 for t in times),
                }
            ),
            flush=True,
        )


def ladder(game_id: str, seconds: float, games: int, seed: int, levels: tuple[int, int]) -> None:
    game = registry.make(game_id)
    for level in range(max(2, levels[0] + 1), levels[1] + 1):
        players = (
            AiPlayer(game, level, seed=seed + level),
            AiPlayer(game, level - 1, seed=seed + 100 + level),
        )
        tally = play_match(game, players, games, seconds, opening_plies=OPENING_PLIES, seed=seed + level)
        low, high = tally.interval()
        print(
            json.dumps(
                {
                    "game": game_id,
                    "a": f"level {level}",
                    "b": f"level {level - 1}",
                    "seconds": seconds,
                    "wins": tally.wins,
                    "draws": tally.draws,
                    "losses": tally.losses,
                    "score": round(tally.score(), 3),
                    "wilson95": [round(low, 3), round(high, 3)],
                }
            ),
            flush=True,
        )


def setting_value(current: Any, text: str) -> Any:
    """``text`` as a value of the type of the policy setting it replaces (a bool from true/false)."""
    if isinstance(current, bool):
        if text.lower() not in ("true", "false"):
            raise SystemExit(f"expected true or false, not {text!r}")
        return text.lower() == "true"
    return type(current)(text)


def versus(game_id: str, settings: list[str], seconds: float, games: int) -> None:
    game = registry.make(game_id)
    variant = policy_for(game)
    for setting in settings:
        name, _, value = setting.partition("=")
        if not hasattr(variant, name):
            raise SystemExit(f"{game_id} policy has no setting {name!r}")
        setattr(variant, name, setting_value(getattr(variant, name), value))
    players = (AiPlayer(game, policy=variant, seed=1), AiPlayer(game, seed=2))
    tally = play_match(game, players, games, seconds, opening_plies=OPENING_PLIES)
    low, high = tally.interval()
    print(
        json.dumps(
            {
                "game": game_id,
                "a": " ".join(settings),
                "b": "current",
                "seconds": seconds,
                "wins": tally.wins,
                "draws": tally.draws,
                "losses": tally.losses,
                "score": round(tally.score(), 3),
                "wilson95": [round(low, 3), round(high, 3)],
            }
        ),
        flush=True,
    )


class TimeOdds:
    """A player given ``ratio`` times the time per move of the match."""

    def __init__(self, player: Player, ratio: float) -> None:
        self.player = player
        self.ratio = ratio
        self.name = f"{player.name} x{ratio:g} time"

    def choose_text(self, texts: list[str], seconds: float) -> str:
        return self.player.choose_text(texts, seconds * self.ratio)


def odds(game_id: str, ratio: float, games: int, seconds: float, seed: int) -> None:
    from host.commands.match import summary
    from host.peers.openspiel_bot import OpenSpielMctsPlayer

    game = registry.make(game_id)
    ours = AiPlayer(game, seed=seed)
    tally = Tally()
    for index in range(games):
        peer = TimeOdds(OpenSpielMctsPlayer(game_id, seed + 7919 * (index + 1)), ratio)
        result = play_game(game, (ours, peer), index % 2, seconds)
        tally.add(result)
        line = {
            "index": index,
            "ours_first": result.first == 0,
            "winner": None if result.winner is None else ("ours", "peer")[result.winner],
            "plies": len(result.texts),
            "score": result.score,
            "max_seconds": [round(t, 3) for t in result.max_seconds],
            "tally": [tally.wins, tally.draws, tally.losses],
            "moves": " ".join(result.texts),
        }
        print(json.dumps(line), flush=True)
    line = summary(game_id, (ours, peer), tally, seconds)
    line["ratio"] = ratio
    print(json.dumps({"summary": line}), flush=True)


def level_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        bounds = (int(low), int(high))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LOW-HIGH such as 1-9, not {text!r}") from None
    if not 1 <= bounds[0] < bounds[1] <= 10:
        raise argparse.ArgumentTypeError(f"levels must satisfy 1 <= LOW < HIGH <= 10, not {text!r}")
    return bounds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("speed")
    p.add_argument("games", nargs="*")
    p.add_argument("--seconds", type=float, default=1.0)
    p = sub.add_parser("revision")
    p.add_argument("game")
    p.add_argument("--rev", default="3d2d138", help="the revision to compare with (default 3d2d138)")
    p.add_argument("--seconds", type=float, default=None, help="time per search (default 1 s)")
    p.add_argument("--nodes", type=int, default=None, help="a node budget: both answers should agree")
    p.add_argument("--level", type=int, default=10)
    p.add_argument("--plies", type=lambda t: [int(x) for x in t.split(",")], default=[4, 10])
    p.add_argument("--seeds", type=int, default=3)
    p = sub.add_parser("compiled")
    p.add_argument("games", nargs="*")
    p.add_argument("--site", type=Path, required=True, help="a compiled install (pip install --target DIR)")
    p.add_argument("--seconds", type=float, default=None, help="time per search (default 1 s)")
    p.add_argument("--nodes", type=int, default=None, help="a node budget: both answers should agree")
    p.add_argument("--level", type=int, default=10)
    p.add_argument("--plies", type=lambda t: [int(x) for x in t.split(",")], default=[4, 10])
    p.add_argument("--seeds", type=int, default=3)
    p = sub.add_parser("odds")
    p.add_argument("game")
    p.add_argument("--ratio", type=float, default=10.0, help="the peer's time per move over ours")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seconds", type=float, default=0.25, help="our time per move")
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("depth")
    p.add_argument("game")
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--plies", type=lambda t: [int(x) for x in t.split(",")], default=[4, 10])
    p.add_argument("--seeds", type=int, default=3)
    p = sub.add_parser("timing")
    p.add_argument("games", nargs="*")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--positions", type=int, default=4)
    p = sub.add_parser("ladder")
    p.add_argument("game")
    p.add_argument("--seconds", type=float, default=0.25)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=0, help="another seed gives other openings and games")
    p.add_argument(
        "--levels",
        type=level_range,
        default=(1, 10),
        metavar="LOW-HIGH",
        help="only the steps between these levels (default 1-10)",
    )
    p = sub.add_parser("versus")
    p.add_argument("game")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--seconds", type=float, default=0.25)
    p.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    if args.what == "versus":
        versus(args.game, args.set, args.seconds, args.games)
        return
    if args.what == "odds":
        odds(args.game, args.ratio, args.games, args.seconds, args.seed)
        return
    if args.what == "depth":
        depth_time(args.game, args.depth, args.plies, args.seeds)
        return
    if args.what == "revision":
        seconds = 1.0 if args.seconds is None and args.nodes is None else args.seconds
        revision(args.game, args.rev, seconds, args.nodes, args.level, args.plies, args.seeds)
        return
    if args.what == "compiled":
        seconds = 1.0 if args.seconds is None and args.nodes is None else args.seconds
        compiled(
            args.games or registry.available(),
            args.site.resolve(),
            seconds,
            args.nodes,
            args.level,
            args.plies,
            args.seeds,
        )
        return
    if args.what == "ladder":
        ladder(args.game, args.seconds, args.games, args.seed, args.levels)
        return
    games = args.games or registry.available()
    if args.what == "speed":
        speed(games, args.seconds)
    else:
        timing(games, args.seconds, args.positions)


if __name__ == "__main__":
    main()
