"""`magboard games`: the ids of the games that exist, one per line; ``--long``: each game's facts.

The facts are what the game's package declares (engines/game.py): its name, the board it is best
played on and the boards for it that are installed, and its rule options with their type, default
and help, as OpenSpiel lists a game's parameters.  The plain list stays one id per line, for scripts.
"""

from __future__ import annotations

import argparse
import sys

from engines import registry
from host.hardware.loading import BoardFileError, board_ids, load_board


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("games", help="list the game ids (--long: boards and options too)")
    p.add_argument("--long", action="store_true", help="each game's name, boards and rule options")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games = registry.available()
    if not args.long:
        for game_id in games:
            print(game_id)
        return 0
    boards: dict[str, list[str]] = {}
    for board_id in board_ids():
        try:
            boards.setdefault(load_board(board_id).game, []).append(board_id)
        except BoardFileError as exc:  # a broken board file leaves the others listed
            print(f"magboard: {exc}".splitlines()[0], file=sys.stderr)
    for game_id in games:
        game = registry.game_class(game_id)
        print(f"{game_id}: {game.name}")
        print(f"  default board: {game.default_board}")
        print(f"  boards: {', '.join(boards.get(game_id, [])) or 'none installed'}")
        for option in game.options:
            print(f"  --option {option.name} ({option.kind}): {option.help}")
    return 0
