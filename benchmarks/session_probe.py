"""Times one revision's session on hand-made readings: run by bench_session.py with that revision first on
sys.path, so the same driver measures this tree and an older one (whose session has the same entry
points: Session, on_reading, on_tick, scene, moves, expect.build).

Times are the CPU time of this thread (``time.thread_time``), so that other work on a shared machine does not
count; what a reading costs on a quiet machine is that time.  Prints one JSON object: the milliseconds of
- ``frame``: a settled reading (or the tick that settles it) -> the LED frame, for every call that changed
  the lights;
- ``matchable``: the commit of a move -> the next reading matchable (the commit, then listing or indexing
  the next position's candidates, which the session does before it can judge a reading);
- ``lift``: the first lift of a piece -> the LED frame showing where it may go, in the positions two plies
  in that have the most legal moves (of a sample), for the two cells that most moves change: the worst
  case of a lifted Desdemona queen (800 moves and more from one square).
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any


def probe(game_id: str, plies: int, seed: int, games: int) -> dict[str, list[float]]:
    from engines import registry
    from host.hardware.loading import load_board
    from host.hardware.sensing import Reading, SensorModel
    from host.session.lights import frame
    from host.session.session import Session, Settings

    board = load_board(f"{game_id}-hall")
    model = SensorModel(board)
    game = registry.make(game_id)
    names = game.geometry.names
    rng = random.Random(seed)
    frames: list[float] = []
    matchable: list[float] = []
    for _ in range(games):
        session = Session(
            game, model.reading_of, Reading.EMPTY, settings=Settings(ai_side=None, think_in_background=False)
        )
        t = 0
        pos = game.start()
        session.on_reading(t, [model.reading_of(tuple(game.cells(pos)[n])) for n in names])
        session.expect.build()
        for _ply in range(plies):
            if game.is_over(pos):
                break
            after = game.play(pos, rng.choice(game.legal_moves(pos)))
            before_cells, after_cells = game.cells(pos), game.cells(after)
            changed = [n for n in names if tuple(before_cells[n]) != tuple(after_cells[n])]
            # Hands empty cells first, then fill: one cell a reading, 60 ms apart, as a person would.
            changed.sort(key=lambda n: len(after_cells[n]) - len(before_cells[n]))
            reading = {n: model.reading_of(tuple(before_cells[n])) for n in names}
            calls: list[tuple[int, dict[str, Any] | None]] = []
            for name in changed:
                t += 60
                reading[name] = model.reading_of(tuple(after_cells[name]))
                calls.append((t, dict(reading)))
            t += 400
            calls.append((t, None))  # the tick that settles the last reading
            for when, values in calls:
                plies_before, scene_before = len(session.moves), session.scene
                start = time.thread_time()
                if values is None:
                    session.on_tick(when)
                else:
                    session.on_reading(when, [values[n] for n in names])
                if session.scene != scene_before or len(session.moves) != plies_before:
                    board.led_frame(frame(session.scene, when))
                elapsed = time.thread_time() - start
                if len(session.moves) != plies_before:
                    session.expect.build()
                    matchable.append((time.thread_time() - start) * 1000)
                elif session.scene != scene_before:
                    frames.append(elapsed * 1000)
            if len(session.moves) <= _ply:  # not committed (a choice the sensors cannot make): stop here
                break
            pos = session.position
        session.close()
    return {"frame": frames, "matchable": matchable}


def lifts(game_id: str, seed: int, positions: int = 6, sample: int = 20) -> list[float]:
    """The ``lift`` times (module docstring)."""
    from engines import registry
    from host.hardware.loading import load_board
    from host.hardware.sensing import Reading, SensorModel
    from host.session.lights import frame
    from host.session.session import Session, Settings

    board = load_board(f"{game_id}-hall")
    model = SensorModel(board)
    game = registry.make(game_id)
    names = game.geometry.names
    rng = random.Random(seed)
    start = game.start()
    lines = []
    for first in rng.sample(game.legal_moves(start), min(sample, len(game.legal_moves(start)))):
        after = game.play(start, first)
        replies = game.legal_moves(after)
        for reply in rng.sample(replies, min(sample, len(replies))):
            pos = game.play(after, reply)
            texts = [game.format_move(start, first), game.format_move(after, reply)]
            lines.append((len(game.legal_moves(pos)), texts, [start, after, pos]))
    lines.sort(key=lambda line: -line[0])
    out: list[float] = []
    for _, texts, history in lines[:positions]:
        pos = history[-1]
        cells = game.cells(pos)
        counts: dict[int, int] = {}  # how many moves change each cell that holds objects
        for move in game.legal_moves(pos):
            after = game.cells(game.play(pos, move))
            for i, n in enumerate(names):
                if cells[n] and tuple(after[n]) != tuple(cells[n]):
                    counts[i] = counts.get(i, 0) + 1
        origins = sorted(counts, key=lambda c: -counts[c])[:2]
        for origin in origins:
            session = Session(
                game, model.reading_of, Reading.EMPTY, history=history, moves=texts,
                settings=Settings(ai_side=None, think_in_background=False),
            )  # fmt: skip
            reading = {n: model.reading_of(tuple(cells[n])) for n in names}
            session.on_reading(0, [reading[n] for n in names])
            session.expect.build()
            reading[names[origin]] = model.reading_of(tuple(cells[names[origin]])[:-1])
            start_t = time.thread_time()
            session.on_reading(100, [reading[n] for n in names])
            board.led_frame(frame(session.scene, 100))
            out.append((time.thread_time() - start_t) * 1000)
            session.close()
    return out


if __name__ == "__main__":
    game_id, plies, seed, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps({**probe(game_id, plies, seed, games), "lift": lifts(game_id, seed)}))
