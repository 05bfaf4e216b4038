"""Calibrate a game's levels 1-9 (``Policy.handicaps``) to equal steps of strength.

    .venv/bin/python benchmarks/calibrate_levels.py play GAME RUNG ... [--games 20] [--seed 4000] > F.jsonl
        matches between rungs of a path from random play to level 10: every rung against the next
        one and the one after, at 0.25 s a move, from random openings; one JSON line per match
    .venv/bin/python benchmarks/calibrate_levels.py fit F.jsonl [G.jsonl ...]
        a Bradley-Terry fit of all those matches (rungs matched by name across files), the Elo of
        each rung, and the handicaps that put levels 2-9 at equal Elo steps from level 1 to level 10

A rung is ``BREADTH,NODES`` (a level that considers ceil(B ** BREADTH) of the B legal moves and
searches at most NODES nodes, with level 9's share of the time) or ``top`` (level 10).  List them
weakest first, from ``0,1`` (random play) to ``top``.  Strength grows unevenly along any such path
(flat where a few more nodes change nothing, steep where a search depth completes), so the levels
are placed by measured Elo, not by a formula; with 20 games a match a rung's Elo is known to about
+-60, and a second run with another seed sharpens the fit.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from dataclasses import dataclass

from bench_ai import OPENING_PLIES

from engines import registry
from engines.ai.levels import HIGHEST, LOWEST, Handicap
from engines.ai.match import AiPlayer, play_match
from engines.ai.policy import policy_for

TOP = "top"
ELO = math.log(10) / 400  # natural-log odds per Elo point


@dataclass(frozen=True)
class Rung:
    name: str
    handicap: Handicap | None  # None: level 10

    @classmethod
    def parse(cls, text: str) -> Rung:
        if text == TOP:
            return cls(TOP, None)
        try:
            breadth_text, nodes_text = text.split(",")
            breadth, nodes = float(breadth_text), int(nodes_text)
        except ValueError:
            raise SystemExit(f"rung {text!r}: expected BREADTH,NODES (like 0.5,30) or {TOP}") from None
        if not (0.0 <= breadth <= 1.0 and nodes >= 1):
            raise SystemExit(f"rung {text!r}: breadth must be 0..1 and nodes at least 1")
        return cls(text, (breadth, nodes))

    def order(self) -> tuple[float, float]:
        return (2.0, 0.0) if self.handicap is None else (self.handicap[0], float(self.handicap[1]))

    def player(self, game_id: str, seed: int) -> AiPlayer:
        game = registry.make(game_id)
        if self.handicap is None:
            return AiPlayer(game, HIGHEST, seed=seed)
        policy = policy_for(game)
        policy.handicaps = (*policy.handicaps[: HIGHEST - 2], self.handicap)
        return AiPlayer(game, HIGHEST - 1, seed=seed, policy=policy)


def play(game_id: str, rungs: list[Rung], games: int, seconds: float, seed: int) -> None:
    game = registry.make(game_id)
    for gap in (1, 2):
        for low in range(len(rungs) - gap):
            high = low + gap
            players = (rungs[high].player(game_id, seed + high), rungs[low].player(game_id, seed + 100 + low))
            tally = play_match(
                game, players, games, seconds, opening_plies=OPENING_PLIES, seed=seed + 31 * low + high
            )
            print(
                json.dumps(
                    {
                        "game": game_id,
                        "seconds": seconds,
                        "high": rungs[high].name,
                        "low": rungs[low].name,
                        "wins": tally.wins,
                        "draws": tally.draws,
                        "losses": tally.losses,
                    }
                ),
                flush=True,
            )


def read(paths: list[str]) -> dict[tuple[str, str], tuple[float, int]]:
    """(high, low) -> (points of high, games), over all files."""
    links: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    row = json.loads(line)
                    points = row["wins"] + row["draws"] / 2
                    played = row["wins"] + row["draws"] + row["losses"]
                    link = links[(row["high"], row["low"])]
                except (ValueError, KeyError, TypeError) as exc:
                    raise SystemExit(f"{path}:{number}: not a match line of this script ({exc})") from None
                link[0] += points
                link[1] += played
    return {k: (v[0], int(v[1])) for k, v in links.items()}


def fit_elo(names: list[str], links: dict[tuple[str, str], tuple[float, int]]) -> list[float]:
    """Bradley-Terry ratings, the first rung at 0; a virtual draw per link keeps a 20-0 finite.

    Hunter's MM iteration: it converges for any connected set of matches.
    """
    index = {name: i for i, name in enumerate(names)}
    points = [0.0] * len(names)
    pairs: list[tuple[int, int, int]] = []
    for (high, low), (won, played) in links.items():
        h, lo = index[high], index[low]
        points[h] += won + 0.5
        points[lo] += played - won + 0.5
        pairs.append((h, lo, played + 1))
    strength = [1.0] * len(names)
    for _ in range(5000):
        denominator = [0.0] * len(names)
        for h, lo, played in pairs:
            share = played / (strength[h] + strength[lo])
            denominator[h] += share
            denominator[lo] += share
        strength = [p / d for p, d in zip(points, denominator, strict=True)]
        strength = [s / strength[0] for s in strength]
    return [math.log(s) / ELO for s in strength]


def place_levels(rungs: list[Rung], ratings: list[float]) -> list[Handicap]:
    """Handicaps of levels 1-9 at equal Elo steps between the first rung and the last (level 10).

    Between two rungs, breadth is interpolated linearly and nodes geometrically, on the running
    maximum of the ratings (a dip is noise: the path only adds breadth and nodes).
    """
    curve = [max(ratings[: i + 1]) for i in range(len(ratings))]
    span = ratings[-1]
    table: list[Handicap] = []
    for number in range(LOWEST, HIGHEST):
        target = span * (number - LOWEST) / (HIGHEST - LOWEST)
        low = max(i for i in range(len(rungs) - 1) if curve[i] <= target)
        high = next((i for i in range(low + 1, len(rungs) - 1) if curve[i] > curve[low]), low)
        low_handicap = rungs[low].handicap
        high_handicap = rungs[high].handicap
        assert low_handicap is not None and high_handicap is not None
        share = 0.0 if high == low else min(1.0, (target - curve[low]) / (curve[high] - curve[low]))
        breadth = low_handicap[0] + share * (high_handicap[0] - low_handicap[0])
        nodes = low_handicap[1] * (high_handicap[1] / low_handicap[1]) ** share
        table.append((round(breadth, 2), max(1, round(nodes))))
    return table


def fit(paths: list[str]) -> None:
    links = read(paths)
    rungs = sorted({Rung.parse(name) for link in links for name in link}, key=Rung.order)
    if rungs[-1].handicap is not None:
        raise SystemExit(f"the rungs need {TOP} (level 10) as the strongest")
    ratings = fit_elo([r.name for r in rungs], links)
    print("rung        Elo   matches (against: points/games)")
    for rung, rating in zip(rungs, ratings, strict=True):
        against = "  ".join(f"{low}: {p:g}/{n}" for (high, low), (p, n) in links.items() if high == rung.name)
        print(f"{rung.name:<10} {rating:5.0f}   {against}")
    step = ratings[-1] / (HIGHEST - LOWEST)
    score = 1 / (1 + 10 ** (-step / 400))
    print(f"span {ratings[-1]:.0f} Elo: {step:.0f} a level, an expected score of {score:.3f}")
    print("handicaps =", place_levels(rungs, ratings))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("play")
    p.add_argument("game", choices=registry.available())
    p.add_argument("rungs", nargs="+")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seconds", type=float, default=0.25)
    p.add_argument("--seed", type=int, default=4000)
    p = sub.add_parser("fit")
    p.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.what == "play":
        rungs = [Rung.parse(text) for text in args.rungs]
        if len(rungs) < 2 or rungs[-1].handicap is not None:
            raise SystemExit(f"list at least two rungs, weakest first, ending with {TOP}")
        play(args.game, rungs, args.games, args.seconds, args.seed)
    else:
        fit(args.files)


if __name__ == "__main__":
    main()
