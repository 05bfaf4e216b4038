"""Move tracking in the simulated pipeline: host processing time and surviving power cuts.

    .venv/bin/python benchmarks/bench_session.py [--plies 40] [--kills 200] [--ai SECONDS]

1. Latency: two people (or, with --ai, a person and the AI) play random games on each game's
   simulated Hall board (virtual board, the real firmware under MicroPython, pty and pyserial,
   tracker, session, virtual LEDs).  For every snapshot or clock tick that made the session
   act (a commit, a new scene, a new LED frame), the host time until the LED frame is written:
   decode, tracking, commit, store, scene and frame.  p50 and p99.  Listing the next
   position's candidates (every successor and its expected reading) runs after the frame is
   written, while the player thinks: its time is reported on its own.  The AI thinks on its
   own thread, so its thinking time is not part of it either.
2. Power cuts: `magboard play --script` is killed (SIGKILL, the whole process group) at random
   moments while it plays random moves, again and again, until the store holds --kills moves;
   every move printed as committed before a kill must be in the store afterwards.
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
from pathlib import Path
from typing import Any

from engines import registry
from host.session.ai_opponent import AiOpponent
from host.session.diff import hand_actions
from host.session.script import format_action
from host.session.session import Settings
from host.session.setup import open_simulated
from host.store.games import Status, read_games
from host.tracking.candidates import Expectations

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pipeline.player import Person  # noqa: E402 - the test's person plays here too

BUILDS: list[float] = []
_build = Expectations.build


def _timed_build(self: Expectations[Any]) -> None:
    start = time.perf_counter()
    was_ready = self.ready
    _build(self)
    if not was_ready:
        BUILDS.append((time.perf_counter() - start) * 1000)


Expectations.build = _timed_build  # type: ignore[method-assign]


def latency(game_id: str, plies: int, seed: int, ai_seconds: float | None) -> list[float]:
    rng = random.Random(seed)
    times: list[float] = []
    opponent = AiOpponent(level=10, seconds=ai_seconds, seed=seed) if ai_seconds else None
    settings = Settings(ai_side=1 if opponent else None)
    with open_simulated(game_id, opponent=opponent, settings=settings, seed=seed) as table:
        play = table.play
        on_snapshot, tick = play.on_snapshot, play.tick

        def timed(step: object, t_ms: int, *args: object) -> None:
            events, frames, builds = len(table.session.events), play.last_frame, sum(BUILDS)
            start = time.perf_counter()
            step(t_ms, *args)  # type: ignore[operator]
            if len(table.session.events) != events or play.last_frame is not frames:
                # listing the next candidates happens after the frame, while the player thinks
                times.append((time.perf_counter() - start) * 1000 - (sum(BUILDS) - builds))

        play.on_snapshot = lambda t, values: timed(on_snapshot, t, values)  # type: ignore[method-assign]
        play.tick = lambda t: timed(tick, t)  # type: ignore[method-assign]
        person = Person(table, seed=seed)
        person.serve(0.3)
        session, game = table.session, table.game
        while not game.is_over(session.position) and len(session.moves) < plies:
            person.wait_for_ai()
            if session.pending is not None:
                person.carry_out_ai_move()
            else:
                person.make(rng.choice(game.legal_moves(session.position)))
    return times


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


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=40, help="plies per game for the latency run")
    parser.add_argument("--kills", type=int, default=200, help="moves to reach through power cuts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai", type=float, metavar="SECONDS", help="play the AI at this time per move")
    args = parser.parse_args()
    header = f"{'game':<12} {'actions':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
    print(header + "   candidate listing p50/p99 ms")
    for game_id in registry.available():
        BUILDS.clear()
        times = sorted(latency(game_id, args.plies, args.seed, args.ai))
        builds = sorted(BUILDS)
        print(
            f"{game_id:<12} {len(times):>7} {statistics.median(times):>8.2f} {percentile(times, 0.99):>8.2f} "
            f"{times[-1]:>8.2f}   {statistics.median(builds):.1f} / {percentile(builds, 0.99):.1f}"
        )
    if args.kills:
        kills, moves = power_cuts(args.kills, args.seed)
        print(f"power cuts: {kills} kills over {moves} committed moves, no committed move lost")


if __name__ == "__main__":
    main()
