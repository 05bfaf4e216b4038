"""`magboard rules GAME [MOVE ...]`: what the rules say about a position, as JSON."""

from __future__ import annotations

import argparse
import json

from host.gamearg import add_game_arguments, make_game, play_moves, state_json


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rules", help="legal moves and result after some moves, as JSON")
    add_game_arguments(p)
    p.add_argument("--each", action="store_true", help="one line for the start and one after every move")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = make_game(args)
    positions = play_moves(game, args.moves)
    for pos in positions if args.each else positions[-1:]:
        print(json.dumps(state_json(game, pos)))
    return 0
