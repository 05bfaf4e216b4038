"""A whole Go 7x7 game against a GTP engine on the simulated board (or its emulated Pico), by hand.

    .venv/bin/python benchmarks/gtp_board_game.py [--engine "gnugo --mode gtp --level 10"] [--emulated]

The engine plays White through the session's opponent, as ``magboard play go7
--engine`` has it: its moves lit and carried out by hand; Black's moves are our
AI's (level 3, a small node budget), made by hand too: benchmarks/board_game.py's
whole game, with the engine as the opponent. Every move is checked committed and
stored; prints one JSON line per move and one at the end (the result, the
engine's trouble if any: none expected).
"""

from __future__ import annotations

import argparse
import json

from board_game import whole_game

from host.peers.gtp.opponent import EngineOpponent
from host.session.ai_opponent import AiOpponent


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
    end = whole_game(
        "go7", args.board, engine, black, emulated=args.emulated, max_plies=args.max_plies, step_ms=80
    )
    print(
        json.dumps({"end": {"engine": engine.name or args.engine, "trouble": engine.trouble, **end}}),
        flush=True,
    )


if __name__ == "__main__":
    main()
