"""How often the board takes the move meant: a generated corpus of human hands (benchmarks/corpus.py).

    python benchmarks/hands.py --game G [--board B] --moves N --seed S [--write-failures DIR]

Prints one JSON line per board build (every build of the game unless --board names one):
``{"board", "moves", "intended", "asked", "wrong", "stalled", "unknowable", "extra_steps", ...}`` with the
share of knowable moves taken as meant, the reasons of the unknowable ones and the verdicts by kind of
hand.  ``--write-failures DIR`` writes each wrong, stalled or over-guided move as a ``magboard play
--script`` file with the journal of the game before it, grouped by verdict and kinds of hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import Corpus, replay, write_failures
from engines import registry
from engines.game import MoveError
from host.hardware.loading import board_ids, load_board
from host.sim.human import KINDS, Habits
from host.sim.script import ScriptError, load_script


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", required=True, choices=registry.available())
    p.add_argument("--board", help="one build (default: every build of the game in hardware/boards)")
    p.add_argument("--moves", type=int, default=300, help="moves per build")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", choices=KINDS, help="every move with this kind of hand, no other")
    p.add_argument("--habit", action="append", default=[], metavar="KIND=P", help="a kind's chance (0..1)")
    p.add_argument("--no-ai", action="store_true", help="two humans (default: some games against the AI)")
    p.add_argument("--write-failures", type=Path, metavar="DIR")
    p.add_argument("--replay", type=Path, metavar="SCRIPT", help="replay a script written so")
    p.add_argument("--side", type=int, choices=(0, 1), help="with --replay: the player's side against the AI")
    p.add_argument("--ai-move", metavar="MOVE", help="with --replay: the AI's move to make by hand")
    args = p.parse_args(argv)
    if args.replay is not None:
        return replay_file(p, args)
    boards = [args.board] if args.board else [b for b in board_ids() if load_board(b).game == args.game]
    if not boards:
        p.error(f"no board build for {args.game} in hardware/boards")
    habits = Habits().only(args.only) if args.only else Habits()
    for given in args.habit:
        kind, _, chance = given.partition("=")
        try:
            value = float(chance)
        except ValueError:
            value = -1.0
        if kind not in KINDS or not 0 <= value <= 1:
            p.error(f"--habit {given!r}: expected KIND=P, P a chance in 0..1, KIND one of {', '.join(KINDS)}")
        habits = replace(habits, **{kind: value})
    for board_id in boards:
        board = load_board(board_id)
        if board.game != args.game:
            p.error(f"board {board_id} is a {board.game} board, not {args.game}")
        game = registry.make(args.game)
        corpus = Corpus(game, board, args.seed, habits, ai=not args.no_ai)
        tally = corpus.run(args.moves)
        if args.write_failures is not None:
            write_failures(tally, game, board, args.seed, args.write_failures)
        print(json.dumps(tally.summary()), flush=True)
    return 0


def replay_file(p: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Print what the session does with a written script, as JSON lines (its scenes left out)."""
    if args.board is None:
        p.error("--replay needs --board")
    board = load_board(args.board)
    game = registry.make(args.game)
    journal = args.replay.with_suffix(".journal")
    try:
        lines = journal.read_text().splitlines() if journal.exists() else []
        texts = [line.removeprefix("move ") for line in lines if line.startswith("move ")]
        actions = load_script(args.replay, set(game.geometry.names))
        events = replay(game, board, texts, actions, args.side, args.ai_move)
    except (OSError, ScriptError, MoveError) as exc:
        p.error(f"{args.replay}: {exc}")
    for event in events:
        if event.kind.value != "scene":
            print(json.dumps({"t": event.t_ms, "event": event.kind.value, **event.data}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
