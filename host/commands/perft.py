"""`magboard perft GAME DEPTH [MOVE ...]`: the number of move sequences of DEPTH moves."""

from __future__ import annotations

import argparse

from engines.perft import perft
from host.gamearg import make_game, play_moves
from host.numbers import argument

MAX_DEPTH = 100  # perft recurses once a move: far deeper than any count finishes, well within Python's stack


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("perft", help="count move sequences of a given depth")
    p.add_argument("game", help="game id")
    p.add_argument("depth", type=argument(0, MAX_DEPTH, "a depth"))
    p.add_argument("moves", nargs="*", metavar="MOVE")
    p.add_argument("--option", action="append", default=[], metavar="NAME")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = make_game(args)
    pos = play_moves(game, args.moves)[-1]
    print(perft(game, pos, args.depth))
    return 0
