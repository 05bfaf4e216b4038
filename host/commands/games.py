"""`magboard games`: the ids of the games that exist, one per line."""

from __future__ import annotations

import argparse

from engines import registry


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("games", help="list the game ids")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for game_id in registry.available():
        print(game_id)
    return 0
