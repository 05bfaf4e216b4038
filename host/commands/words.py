"""`magboard words [GAME ...] [--write]`: every sentence the board says in a game, as a table to read.

Without --write the tables go to stdout; with it, to docs/words/<game>.md
(relative to the working directory: run it at the root of the repository),
which tests/words/test_phrasebook.py compares with what the code says now.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engines import registry
from host.cli_error import CliError
from host.words.phrasebook import phrasebook


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("words", help="every sentence the board says, as a table per game (docs/words/)")
    p.add_argument("games", nargs="*", metavar="GAME", help="game ids (default: every installed game)")
    p.add_argument("--write", action="store_true", help="write docs/words/<game>.md instead of printing")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    known = registry.available()
    unknown = [g for g in args.games if g not in known]
    if unknown:
        raise CliError(f"unknown game {unknown[0]!r} (known: {', '.join(known)})")
    for game_id in args.games or known:
        book = phrasebook(game_id)
        if not args.write:
            print(book.render(), end="")
            continue
        path = Path.cwd() / book.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(book.render(), encoding="utf-8")
        except OSError as exc:
            raise CliError(f"cannot write {book.path}: {exc.strerror}", 1) from None
        print(f"wrote {book.path}")
    return 0
