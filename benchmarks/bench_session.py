"""The session's host time per reading, against older revisions in the same run; and power cuts.

    .venv/bin/python benchmarks/bench_session.py [--game GAME ...] [--plies 40] [--games 3]
                                                 [--against 3d2d138 [--against main ...]] [--kills 0]

1. Latency (benchmarks/session_probe.py, run once on this tree and once on each ``--against`` revision,
   checked out from git into a temporary directory): random games of two people on each game's Hall
   board, readings made by hand one cell at a time with their times, no firmware.  The session's CPU time
   (other processes on a shared machine do not count), per game, p50 / p99 / max of
   - settled snapshot -> LED frame: every reading or tick that changed the lights;
   - commit -> next reading matchable: the commit, then what the session needs before it can judge the
     next reading (the old one lists every successor's reading; this one indexes moves by cell);
   - worst lifts -> LED frame: in the positions two plies in with the most legal moves, the first lift
     of the piece on each of the two cells most moves change (a Desdemona queen with 800 moves or more);
   - gc pause: every garbage collection meanwhile (the collector is on, set up as `magboard play` sets
     it up);
   and the ratio old p99 / new p99 for each older revision (a dash where that revision lacks the game).
   With ``--repeat N`` every tree runs N times, interleaved, and each figure is the median of the runs'
   (a shared machine's load comes and goes).  A Raspberry Pi 4 is 3-4 times slower than this machine:
   the Pi budget is 5 ms here.
2. Power cuts (``--kills N``): `magboard play --script` is killed (SIGKILL, the whole process group) at
   random moments while it plays random moves, until the store holds N moves; every move printed as
   committed before a kill must be in the store afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path

from stats import percentile  # benchmarks/stats.py: a script has its own folder on the path

from engines import registry
from host.reach.diff import hand_actions
from host.reach.script import format_action
from host.store.games import Status, read_games

ROOT = Path(__file__).resolve().parent.parent


def latency(root: Path, game_id: str, plies: int, seed: int, games: int) -> dict[str, list[float]]:
    """The probe's timings for the tree at ``root`` (its packages first on the path)."""
    probe = ROOT / "benchmarks" / "session_probe.py"
    # One hash seed, so that every run of a tree makes the same calls.
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, str(probe), game_id, str(plies), str(seed), str(games)],
        capture_output=True, text=True, env=env, cwd=root, check=True,
    )  # fmt: skip
    result: dict[str, list[float]] = json.loads(out.stdout)
    return result


def games_of(root: Path) -> set[str]:
    """The games the tree at ``root`` has (an older revision may lack some of this tree's)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    code = "import json; from engines import registry; print(json.dumps(list(registry.available())))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=root, check=True
    )
    return set(json.loads(out.stdout))


def checkout(revision: str, into: Path) -> Path:
    """The tree of ``revision`` (git archive), for measuring it beside this one.  A revision whose games
    are found through entry points gets its own distribution metadata in the tree (first on the path), so
    its games are found there rather than through this tree's install."""
    into.mkdir()
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    project = tomllib.loads((into / "pyproject.toml").read_text())["project"]
    groups = project.get("entry-points", {})
    if groups:
        info = into / f"magboard_{revision}-0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: magboard-{revision}\nVersion: 0\n")
        lines = [
            f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items())
            for group, entries in groups.items()
        ]
        (info / "entry_points.txt").write_text("\n".join(lines))
    return into


def power_cuts(target: int, seed: int) -> tuple[int, int]:
    """(kills, moves committed in all); raises if a committed move was lost."""
    rng = random.Random(seed)
    game = registry.make("desdemona")
    kills = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "games.sqlite3"
        script = Path(tmp) / "script.txt"
        command = [sys.executable, "-m", "host", "play", "desdemona", "--humans", "--journal", str(store)]
        while True:
            games = read_games(store) if store.exists() else []
            # A finished game is marked so with its last move: the next run starts another.
            done = sum(len(g.moves) for g in games if g.status is Status.FINISHED)
            moves = games[-1].moves if games and games[-1].status is Status.PLAYING else []
            if done + len(moves) >= target:
                return kills, done + len(moves)
            pos = game.play_texts(moves)
            lines = ["step 20"]
            for _ in range(8):
                if game.is_over(pos):
                    break
                after = game.play(pos, rng.choice(game.legal_moves(pos)))
                lines += [
                    format_action(a) for a in hand_actions(game, game.cells(pos), game.cells(after), rng)
                ]
                lines.append("wait 150")
                pos = after
            script.write_text("\n".join(lines) + "\n")
            proc = subprocess.Popen(
                [*command, "--script", str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                start_new_session=True,
            )  # fmt: skip
            assert proc.stdout is not None
            lines_out: list[str] = []
            reader = threading.Thread(target=lines_out.extend, args=(proc.stdout,), daemon=True)
            reader.start()
            time.sleep(rng.uniform(0.5, 3.0))
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            reader.join(timeout=5)
            kills += 1
            printed: list[str] = []
            for line in lines_out:
                try:
                    event = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the last line, cut by the kill
                if event["event"] == "commit":
                    printed.append(event["move"])
            games = read_games(store)
            after_kill = games[-1].moves if games else []  # killed before the store was made
            if after_kill[: len(moves)] != moves or after_kill[len(moves) :][: len(printed)] != printed:
                raise SystemExit(f"LOST: before {moves}, printed {printed}, store now {after_kill}")


def figures(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values) or [float("nan")]
    return statistics.median(ordered), percentile(ordered, 0.99), ordered[-1]


def medians(runs: list[dict[str, list[float]]], key: str) -> tuple[int, float, float, float]:
    """The samples a run, and the median over the runs of each run's p50, p99 and max."""
    each = [figures(run[key]) for run in runs]
    p50, p99, most = (statistics.median(f[i] for f in each) for i in range(3))
    return len(runs[0][key]), p50, p99, most


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=registry.available(), help="game (repeatable)")
    parser.add_argument("--plies", type=int, default=40, help="plies per game")
    parser.add_argument("--games", type=int, default=3, help="random games per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--against",
        action="append",
        help="an older revision to measure beside this tree (repeatable; 3d2d138)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs of each tree, interleaved: each figure is the median run's",
    )
    parser.add_argument("--kills", type=int, default=0, help="moves to reach through power cuts (0: none)")
    args = parser.parse_args()
    against = args.against or ["3d2d138"]
    print(
        f"{'game':<12} {'measure':<22} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
        + "".join(f"   {rev + ' p50/p99/max ms':<28} {'p99 ratio':>9}" for rev in against)
    )
    with tempfile.TemporaryDirectory() as tmp:
        roots = [ROOT] + [checkout(rev, Path(tmp) / str(i)) for i, rev in enumerate(against)]
        has = [games_of(root) for root in roots]
        for game_id in args.game or registry.available():
            runs: list[list[dict[str, list[float]]]] = [[] for _ in roots]
            for _ in range(args.repeat):
                for root, kept, games in zip(roots, runs, has, strict=True):
                    if game_id in games:
                        kept.append(latency(root, game_id, args.plies, args.seed, args.games))
            measures = (
                ("frame", "snapshot -> LED frame"),
                ("matchable", "commit -> matchable"),
                ("lift", "worst lifts -> LED frame"),
                ("gc", "gc pause"),
            )
            for key, label in measures:
                n, n50, n99, nmax = medians(runs[0], key)
                line = f"{game_id:<12} {label:<22} {n:>5} {n50:>8.2f} {n99:>8.2f} {nmax:>8.2f}"
                for old in runs[1:]:
                    if not old:  # the older revision has no such game
                        line += f"   {'-':>8} {'-':>8} {'-':>8}   {'-':>9}"
                        continue
                    _, o50, o99, omax = medians(old, key)
                    line += f"   {o50:>8.2f} {o99:>8.2f} {omax:>8.2f}   {o99 / n99:>8.1f}x"
                print(line)
    if args.kills:
        kills, moves = power_cuts(args.kills, args.seed)
        print(f"power cuts: {kills} kills over {moves} committed moves, no committed move lost")


if __name__ == "__main__":
    main()
