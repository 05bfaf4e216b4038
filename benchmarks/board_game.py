"""A whole game by hand on the simulated board (or its emulated Pico), AI against AI, every move checked.

    .venv/bin/python benchmarks/board_game.py GAME [--board ID] [--emulated] [--level 10] [--seconds 1]
                                              [--hands-level 3] [--hands-nodes 40] [--step-ms 80]

The session's AI plays the second side (``--level`` at ``--seconds`` a move, one process): its
moves are lit and carried out by hand from the LEDs. The first side's moves are chosen by
another AI (``--hands-level``, a node budget) and made by hand too, in a random order of hands;
a question the board asks (which of two squares) is answered as a person would. Every move is
checked committed and, at the end, stored. Prints one JSON line per move and one at the end:
plies, the result, snapshots the board could not read, wall and emulated-Pico figures.
benchmarks/gtp_board_game.py plays the same way against a GTP engine.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' person at the board

from engines import registry
from host.session.ai_opponent import AiOpponent
from host.session.ai_worker import Opponent
from host.session.session import Settings
from host.sim.emulated_pico import EmulatedPico
from host.store.games import read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.pipeline.player import Person


def whole_game(
    game_id: str,
    board_id: str | None,
    opponent: Opponent,
    hands: AiOpponent,
    *,
    emulated: bool,
    max_plies: int,
    step_ms: int,
) -> dict[str, Any]:
    """Play the game to its end (or ``max_plies``) by hand, the opponent as the second side; the end's
    figures, ``stored`` saying whether the store holds exactly the moves committed."""
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "games.sqlite3"
        hardware = SimulatedHardware(emulated=emulated)
        with open_table(
            game_id, hardware, board_id=board_id, opponent=opponent, settings=Settings(ai_side=1),
            journal_path=journal,
        ) as table:  # fmt: skip
            person = Person(table, seed=3, step_ms=step_ms)
            session, game = table.session, table.game
            person.serve(0.5)
            while not game.is_over(session.position) and len(session.moves) < max_plies:
                plies = len(session.moves)
                # The opponent's pass needs no hands: it may have ended the game already.
                if not person.carry_out_ai_move_if_any() and not game.is_over(session.position):
                    person.make(hands.choose(game, session.position))
                for ply in range(plies, len(session.moves)):
                    print(json.dumps({"ply": ply + 1, "move": session.moves[ply]}), flush=True)
            moves = list(session.moves)
            outcome = game.outcome(session.position)
            end: dict[str, Any] = {
                "game": game_id,
                "board": table.board.id,
                "emulated": emulated,
                "plies": len(moves),
                "over": outcome is not None,
                "winner": None
                if outcome is None
                else game.table.side(outcome.winner)
                if outcome.winner is not None
                else "draw",
                "score": None if outcome is None else outcome.score,
                "bad_snapshots": table.play.bad_snapshots,
                "wall_seconds": round(time.monotonic() - started, 1),
            }
            firmware = None if table.reach is None else table.reach.rig.firmware
            if isinstance(firmware, EmulatedPico):
                end["emulated_seconds"] = round(firmware.now_ns(10.0) / 1e9, 1)
            if firmware is not None:
                end["boots"] = firmware.boots  # 1: the firmware never restarted
        (stored,) = read_games(journal)
        end["stored"] = stored.moves == moves
    return end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=registry.available())
    parser.add_argument("--board", help="a board file's id (default: the game's first)")
    parser.add_argument("--emulated", action="store_true", help="the firmware on an emulated Pico")
    parser.add_argument("--level", type=int, default=10, help="the session's AI, the second side")
    parser.add_argument("--seconds", type=float, default=1.0, help="the session's AI's time a move")
    parser.add_argument("--hands-level", type=int, default=3, help="the AI choosing the first side's moves")
    parser.add_argument("--hands-nodes", type=int, default=40, help="its node budget a move")
    parser.add_argument("--step-ms", type=int, default=80, help="a hand's time an action")
    parser.add_argument("--max-plies", type=int, default=400)
    args = parser.parse_args()
    opponent = AiOpponent(level=args.level, seconds=args.seconds, workers=1)
    hands = AiOpponent(level=args.hands_level, nodes=args.hands_nodes, seed=1)
    end = whole_game(
        args.game, args.board, opponent, hands, emulated=args.emulated, max_plies=args.max_plies,
        step_ms=args.step_ms,
    )  # fmt: skip
    print(json.dumps({"end": end}), flush=True)


if __name__ == "__main__":
    main()
