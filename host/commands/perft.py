"""`magboard perft GAME DEPTH [MOVE ...]`: the number of move sequences of DEPTH moves."""

from __future__ import annotations

import argparse

from engines.perft import perft
from host.cli_error import CliError
from host.gamearg import make_game, play_moves


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("perft", help="count move sequences of a given depth")
    p.add_argument("game", help="game id")
    p.add_argument("depth", type=int)
    p.add_argument("moves", nargs="*", metavar="MOVE")
    p.add_argument("--option", action="append", default=[], metavar="NAME")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise CliError("DEPTH must be 0 or more")
    game = make_game(args)
    pos = play_moves(game, args.moves)[-1]
    print(perft(game, pos, args.depth))
    return 0
