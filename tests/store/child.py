"""A process that plays random moves through the store, saying after each commit that it returned.

Run as ``python -m tests.store.child STORE MODE``, it is what the tests kill,
starve of disk space and race against:

- ``commit SEED``: resume the store's flipfour game and commit random moves
  until killed (a new game when one is over); prints ``game ID MOVE...`` with
  the moves it resumes or starts a game with, and ``ack ID PLY MOVE`` once each
  commit has returned.
- ``hold``: own desdemona and commit one random move per line read from stdin,
  printing ``ack ID PLY MOVE HEALTH``; closes the store at the end of input
  (``refused REASON`` instead when the store cannot be opened).
- ``fill``: commit three moves, limit the file size to one byte (writes fail
  as on a full disk), commit three more and take one back, lift the limit,
  commit one more; prints the store's health after each.
"""

from __future__ import annotations

import random
import resource
import signal
import sys
from pathlib import Path

from engines import registry
from host.store.database import StoreError
from host.store.health import Saved
from host.store.recorder import GameRecorder


def random_move(recorder: GameRecorder, rng: random.Random) -> str:
    pos = recorder.positions[-1]
    return rng.choice(recorder.game.legal_texts(pos))


def commit(store: Path, seed: int) -> None:
    recorder = GameRecorder.open(store, registry.make("flipfour"), board=None, players=("?", "?"))
    rng = random.Random(seed)
    print(f"game {recorder.game_id} {' '.join(recorder.moves)}", flush=True)
    while True:
        if recorder.game.is_over(recorder.positions[-1]):
            recorder.new_game()
            print(f"game {recorder.game_id}", flush=True)
        text = random_move(recorder, rng)
        recorder.move(text)
        assert isinstance(recorder.health, Saved), recorder.health
        print(f"ack {recorder.game_id} {len(recorder.moves)} {text}", flush=True)


def hold(store: Path) -> None:
    try:
        recorder = GameRecorder.open(store, registry.make("desdemona"), board=None, players=("?", "?"))
    except StoreError as exc:  # a fault injected at open (benchmarks/attacks/faults.py): said, not a crash
        print(f"refused {exc}", flush=True)
        return
    rng = random.Random(1)
    print("ready", flush=True)
    for _ in sys.stdin:
        text = random_move(recorder, rng)
        recorder.move(text)
        print(
            f"ack {recorder.game_id} {len(recorder.moves)} {text} {type(recorder.health).__name__}",
            flush=True,
        )
    recorder.close()


def fill(store: Path) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
    recorder = GameRecorder.open(store, registry.make("desdemona"), board=None, players=("?", "?"))
    rng = random.Random(2)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)

    def step(what: str) -> None:
        if what == "move":
            recorder.move(random_move(recorder, rng))
        else:
            recorder.takeback(1)
        print(f"{len(recorder.moves)} {' '.join(recorder.moves)} | {recorder.health}", flush=True)

    for _ in range(3):
        step("move")
    resource.setrlimit(resource.RLIMIT_FSIZE, (1, hard))
    for what in ("move", "move", "move", "takeback"):
        step(what)
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    step("move")
    recorder.close()


if __name__ == "__main__":
    path, mode = Path(sys.argv[1]), sys.argv[2]
    if mode == "commit":
        commit(path, int(sys.argv[3]))
    elif mode == "hold":
        hold(path)
    else:
        fill(path)
