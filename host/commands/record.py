"""`magboard record check|replay FILE`: validate or replay a game record."""

from __future__ import annotations

import argparse
import json

from engines import records
from host.cli_error import CliError
from host.gamearg import state_json


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("record", help="check or replay a game record")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser("check", help="validate a record")
    check.add_argument("file")
    check.set_defaults(run=run_check)
    replay = actions.add_parser("replay", help="replay a record and print the final position as JSON")
    replay.add_argument("file")
    replay.set_defaults(run=run_replay)


def _load(path: str) -> records.Record:
    try:
        return records.load(path)
    except records.RecordError as exc:
        raise CliError(f"{path}:{exc.line}: {exc.reason}" if exc.line else f"{path}: {exc.reason}") from None
    except OSError as exc:
        raise CliError(f"{path}: {exc.strerror}") from None


def run_check(args: argparse.Namespace) -> int:
    record = _load(args.file)
    print(f"{args.file}: {record.game}, {len(record.moves)} moves, valid")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    record = _load(args.file)
    game, pos = record.replay()
    print(json.dumps(state_json(game, pos)))
    return 0
