"""A whole Go 7x7 game against a GTP engine on the simulated board (or its emulated Pico), by hand.

    .venv/bin/python benchmarks/gtp_board_game.py [--engine "gnugo --mode gtp --level 10"] [--emulated]

The engine plays White through the session's opponent, as ``magboard play go7
--engine`` has it: its moves lit and carried out by hand; Black's moves are our
AI's (level 3, a small node budget), made by hand too.  Every move is checked
committed and stored; prints one JSON line per move and one at the end (the
result, the engine's trouble if any: none expected).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' person at the board

from host.peers.gtp.opponent import EngineOpponent
from host.session.ai_opponent import AiOpponent
from host.session.session import Settings
from host.store.games import read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.pipeline.player import Person


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", default="gnugo --mode gtp --level 10")
    parser.add_argument("--seconds", type=float, default=1.0, help="the engine's time a move")
    parser.add_argument("--board", default="go7-hall")
    parser.add_argument("--emulated", action="store_true", help="the firmware on an emulated Pico")
    parser.add_argument("--max-plies", type=int, default=200)
    args = parser.parse_args()
    black = AiOpponent(level=3, nodes=40, seed=1)
    engine = EngineOpponent(args.engine, args.seconds, AiOpponent(level=10, seconds=args.seconds, workers=1))
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "games.sqlite3"
        hardware = SimulatedHardware(emulated=args.emulated)
        with open_table(
            "go7",
            hardware,
            board_id=args.board,
            opponent=engine,
            settings=Settings(ai_side=1),
            journal_path=journal,
        ) as table:
            person = Person(table, seed=3)
            session, game = table.session, table.game
            person.serve(0.5)
            while not game.is_over(session.position) and len(session.moves) < args.max_plies:
                plies = len(session.moves)
                # The engine's pass needs no hands: it may have ended the game already.
                if not person.carry_out_ai_move_if_any() and not game.is_over(session.position):
                    person.make(black.choose(game, session.position))
                for ply in range(plies, len(session.moves)):
                    print(json.dumps({"ply": ply + 1, "move": session.moves[ply]}), flush=True)
            moves = list(session.moves)
            outcome = game.outcome(session.position)
            end = {
                "engine": engine.name or args.engine,
                "board": args.board,
                "emulated": args.emulated,
                "plies": len(moves),
                "over": outcome is not None,
                "winner": None
                if outcome is None
                else game.table.side(outcome.winner)
                if outcome.winner is not None
                else "draw",
                "score": None if outcome is None else outcome.score,
                "trouble": engine.trouble,
                "bad_snapshots": table.play.bad_snapshots,
                "wall_seconds": round(time.monotonic() - started, 1),
            }
        (stored,) = read_games(journal)
        end["stored"] = stored.moves == moves
    print(json.dumps({"end": end}), flush=True)


if __name__ == "__main__":
    main()
