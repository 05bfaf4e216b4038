"""The `magboard` command line.

Each subcommand lives in its own module under ``host.commands`` and registers
itself; this module only finds them, parses arguments and turns expected
failures into one line on stderr and an exit status, never a traceback.
"""

from __future__ import annotations

import argparse
import pkgutil
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import NoReturn

import host.commands
from host.cli_error import CliError
from host.shown import shown


class Parser(argparse.ArgumentParser):
    """argparse's parser, but its errors quote the arguments through ``shown``: an argument is whatever
    the caller typed (`history show $'\\x1b[2J'`), and argparse echoes it raw.  Its subcommands' parsers
    are of this class too (argparse makes them of their parent's)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {shown(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="magboard", description="Play abstract board games on a sensing board, real or simulated."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(host.commands.__path__), key=lambda m: m.name):
        module = import_module(f"host.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # argparse gives a '*' positional nothing once an option has come between it and the
    # command name (`rules GAME --each MOVE ...`): such leftovers are the moves.
    if extra and isinstance(getattr(args, "moves", None), list) and not any(a.startswith("-") for a in extra):
        args.moves.extend(extra)
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        status: int = args.run(args)
    except CliError as exc:  # it may quote a file name, a record or the store: shown() keeps escapes inert
        lines = f"magboard {args.command}: {exc}".split("\n")
        print("\n".join(shown(line) for line in lines), file=sys.stderr)
        return exc.status
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
