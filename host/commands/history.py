"""`magboard history list | show ID | export ID | import FILE | repair`: the games kept in the store.

Every game played is kept (host/store); this lists them, shows one move by
move with its times and final position, exports one as a text record that
`magboard record check` accepts or as SGF (Go and the Amazons: docs/go.md),
imports a record, an SGF file or an old journal file, and
repairs a store whose indexes were damaged.  Names and moves came from records
anyone may write, so every line printed goes through host/shown.py.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engines import sgf
from engines.game import MoveError
from engines.records import Record
from host.cli_error import CliError
from host.commands.play import import_journals, journal_path
from host.files import write_text
from host.numbers import LARGEST_ID, argument
from host.shown import shown
from host.store.database import SQLITE_MAGIC, StoreError, open_store, reason_of, repair
from host.store.games import DamagedGame, StoredGame, list_games, load_game, positions_of, result_text, stamp
from host.store.imports import import_file

GAME_ID = argument(1, LARGEST_ID, "a game number")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("history", help="list, show, export and import the games kept in the store")
    p.add_argument(
        "--journal", type=Path, metavar="PATH",
        help="the game store, a SQLite file (default: ~/.local/share/magboard/games.sqlite3)",
    )  # fmt: skip
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="every game kept, oldest first").set_defaults(run=run_list)
    show = actions.add_parser("show", help="one game: players, times, moves, final position")
    show.add_argument("id", type=GAME_ID)
    show.set_defaults(run=run_show)
    export = actions.add_parser(
        "export", help="one game as a text record (`magboard record check` reads it) or as SGF"
    )
    export.add_argument("id", type=GAME_ID)
    export.add_argument(
        "--format", choices=("text", "sgf"), default="text",
        help="text: magboard's record (default); sgf: the Smart Game Format Go programs read (Go, Amazons)",
    )  # fmt: skip
    export.add_argument(
        "--output", "-o", type=Path,
        help="write the record to this regular file (replaced whole, exactly as stored) instead of stdout "
        "(where a terminal might act on characters in its names, so they are written as escapes); "
        "'-' is stdout",
    )  # fmt: skip
    export.set_defaults(run=run_export)
    imp = actions.add_parser(
        "import", help="add a text record, an SGF file or an old journal file to the store"
    )
    imp.add_argument("file", type=Path)
    imp.set_defaults(run=run_import)
    actions.add_parser(
        "repair", help="rebuild a damaged store's indexes (a copy of it is kept first)"
    ).set_defaults(run=run_repair)


def say(line: str) -> None:
    """Print one line that may hold text from a record or the store."""
    print(shown(line))


@contextmanager
def store(args: argparse.Namespace) -> Iterator[sqlite3.Connection]:
    """The store the command works on; every failure to use it is one line naming it."""
    path = journal_path(args)
    import_journals(args, path)
    try:
        conn = open_store(path)
    except StoreError as exc:
        raise CliError(str(exc)) from None
    try:
        yield conn
    except sqlite3.Error as exc:
        raise CliError(f"{path}: {reason_of(exc)}") from None
    finally:
        conn.close()


def _game(conn: sqlite3.Connection, args: argparse.Namespace) -> StoredGame:
    try:
        stored = load_game(conn, args.id)
    except DamagedGame as exc:
        raise CliError(f"{journal_path(args)}: {exc}: it was changed outside magboard") from None
    if stored is None:
        raise CliError(f"{journal_path(args)}: no game {args.id} (see `magboard history list`)")
    return stored


def _state(stored: StoredGame) -> str:
    if stored.outcome is not None:
        return result_text(stored.outcome)
    return stored.status.value


def run_list(args: argparse.Namespace) -> int:
    damaged: list[DamagedGame] = []
    with store(args) as conn:
        games = list_games(conn, damaged)
    if not games and not damaged:
        say(f"no games in {journal_path(args)} yet")
    for stored, count in games:
        started = stamp(stored.started_at) if stored.started_at is not None else "?"
        options = f" ({' '.join(stored.options)})" if stored.options else ""
        moves = "1 move" if count == 1 else f"{count} moves"
        say(
            f"{stored.id:>5}  {started:19}  {stored.game}{options}  {moves}  {_state(stored)}  "
            f"{stored.players[0]} - {stored.players[1]}"
        )
    for exc in damaged:
        say(f"damaged: {exc} (it was changed outside magboard)")
    return 0


def run_show(args: argparse.Namespace) -> int:
    with store(args) as conn:
        stored = _game(conn, args)
    say(f"game {stored.id}: {stored.game}" + (f" ({' '.join(stored.options)})" if stored.options else ""))
    say(f"players: {stored.players[0]} - {stored.players[1]}")
    say(f"board: {stored.board or '?'}  from: {stored.source}")
    started = stamp(stored.started_at) if stored.started_at is not None else "?"
    ended = stamp(stored.ended_at) if stored.ended_at is not None else "-"
    say(f"started: {started}  ended: {ended}  {_state(stored)}")
    for ply, (text, at) in enumerate(zip(stored.moves, stored.times, strict=True), start=1):
        say(f"{ply:>4}. {text:24} {stamp(at) if at is not None else ''}".rstrip())
    try:
        game = stored.make_game()
        print(game.render(positions_of(game, stored.moves)[-1]))
    except (ValueError, MoveError) as exc:
        raise CliError(f"game {stored.id} cannot be replayed: {exc}") from None
    return 0


def _refuse_a_store(path: Path) -> None:
    """A record is never written over a database (the store itself, or a copy of it)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return  # write_text refuses it, saying what it is
        with open(path, "rb") as existing:
            head = existing.read(len(SQLITE_MAGIC))
    except OSError:
        return  # nothing there, or unreadable: write_text says so if it matters
    if head == SQLITE_MAGIC:
        raise CliError(f"{path}: cannot write: it is an SQLite database (a game store?): nothing was written")


def _exported(record: Record, form: str, game_id: int) -> str:
    """The record in the form asked for; a game SGF has no form for is refused in one line."""
    if form == "text":
        return record.to_text()
    try:
        return sgf.dump(record).decode("utf-8") + "\n"
    except sgf.SgfError as exc:
        raise CliError(f"game {game_id}: {exc}") from None
    except (ValueError, MoveError) as exc:
        raise CliError(f"game {game_id} cannot be replayed: {exc}") from None


def run_export(args: argparse.Namespace) -> int:
    with store(args) as conn:
        record = _game(conn, args).record()
    text = _exported(record, args.format, args.id)
    if args.output is None or str(args.output) == "-":
        for line in text.removesuffix("\n").split("\n"):
            say(line)
        return 0
    _refuse_a_store(args.output)
    try:
        write_text(args.output, text)
    except OSError as exc:
        raise CliError(f"{args.output}: cannot write: {reason_of(exc)}") from None
    say(f"{args.output}: game {args.id}, {len(record.moves)} moves")
    return 0


def run_import(args: argparse.Namespace) -> int:
    with store(args) as conn:
        try:
            say(str(import_file(conn, args.file)))
        except StoreError as exc:
            raise CliError(str(exc)) from None
    return 0


def run_repair(args: argparse.Namespace) -> int:
    try:
        say(repair(journal_path(args)))
    except StoreError as exc:
        raise CliError(str(exc)) from None
    return 0
