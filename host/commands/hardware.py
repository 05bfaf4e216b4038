"""`magboard hardware ...`: list, check and document board builds; make the Pico's config; self-test.

    magboard hardware list                       the shipped boards
    magboard hardware check [BOARD ...]          validate board files (all shipped ones by default)
    magboard hardware docs [BOARD ...] [--check] regenerate (or check) the drawings, wiring and parts lists
    magboard hardware config BOARD [-o FILE] [--calibration FILE]
                                                 board_config.json for the Pico
    magboard hardware selftest [BOARD ...]       light every LED and read back every object, simulated

BOARD is a shipped board id (see `list`) or the path of a board file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from host.cli_error import CliError
from host.gamearg import board_argument
from host.hardware.calibration import CalibrationError, load_zeros
from host.hardware.docs import DOCS_DIR, INDEX, render_board_docs, render_index, stale_docs, write_docs
from host.hardware.firmware_config import config_text
from host.hardware.loading import BoardFileError, board_ids, display_path, load_board


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("hardware", help="board builds: check, document, configure, self-test")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    a = actions.add_parser("list", help="the shipped boards")
    a.set_defaults(run=run_list)

    a = actions.add_parser("check", help="validate board files")
    a.add_argument(
        "boards", nargs="*", metavar="BOARD", help="board ids or files (default: every shipped board)"
    )
    a.set_defaults(run=run_check)

    a = actions.add_parser("docs", help="regenerate the drawing, wiring table and bill of materials")
    a.add_argument(
        "boards", nargs="*", metavar="BOARD", help="board ids or files (default: every shipped board)"
    )
    a.add_argument("--check", action="store_true", help="only report documents that are out of date (exit 1)")
    a.add_argument(
        "--out", type=Path, default=DOCS_DIR, help="directory for the documents (default: %(default)s)"
    )
    a.set_defaults(run=run_docs)

    a = actions.add_parser("config", help="board_config.json for the Pico")
    a.add_argument("board", metavar="BOARD")
    a.add_argument("-o", "--output", type=Path, help="write to this file instead of standard output")
    a.add_argument(
        "--calibration", type=Path, help='JSON {"zero": [...]} measured on this board (Hall builds)'
    )
    a.set_defaults(run=run_config)

    a = actions.add_parser(
        "selftest", help="light every LED and read back every object, on simulated hardware"
    )
    a.add_argument(
        "boards", nargs="*", metavar="BOARD", help="board ids or files (default: every shipped board)"
    )
    a.add_argument("--seed", type=int, default=0, help="seed of the simulated sensor noise")
    a.set_defaults(run=run_selftest)


def run_list(args: argparse.Namespace) -> int:
    for board_id in board_ids():
        board = board_argument(board_id)
        print(
            f"{board_id:<18} {board.game:<12} {board.sensor.model:<14} "
            f"{len(board.cells):>3} cells  {board.name}"
        )
    return 0


def run_check(args: argparse.Namespace) -> int:
    failed = 0
    for name in args.boards or board_ids():
        try:
            board = load_board(name)
        except BoardFileError as exc:
            failed += 1
            print(exc, file=sys.stderr)
            continue
        print(f"{display_path(board.source)}: ok")
    return 1 if failed else 0


def run_docs(args: argparse.Namespace) -> int:
    boards = [board_argument(name) for name in args.boards or board_ids()]
    files: dict[str, str] = {}
    for board in boards:
        files.update(render_board_docs(board))
    if not args.boards:
        files[INDEX] = render_index(boards)
    if args.check:
        stale = stale_docs(files, args.out)
        for name in stale:
            print(
                f"{display_path(args.out / name)}: out of date (run `magboard hardware docs`)",
                file=sys.stderr,
            )
        return 1 if stale else 0
    for path in write_docs(files, args.out):
        print(f"wrote {display_path(path)}")
    return 0


def run_config(args: argparse.Namespace) -> int:
    board = board_argument(args.board)
    try:
        calibration = load_zeros(board, args.calibration) if args.calibration else None
    except CalibrationError as exc:
        raise CliError(str(exc)) from None
    text = config_text(board, calibration)
    if args.output is None:
        sys.stdout.write(text)
    else:
        try:
            args.output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CliError(f"{args.output}: cannot write: {exc.strerror}", 1) from None
    return 0


def run_selftest(args: argparse.Namespace) -> int:
    from host.sim.selftest import run_virtual

    failed = 0
    for name in args.boards or board_ids():
        board = board_argument(name)
        report = run_virtual(board, seed=args.seed)
        status = "ok" if report.ok else "FAILED"
        print(
            f"{board.id}: {status}: {report.leds_lit}/{report.leds} LEDs lit, "
            f"{report.probes - len(report.failures)}/{report.probes} objects read back"
        )
        for failure in report.failures:
            print(f"  {failure}")
        failed += not report.ok
    return 1 if failed else 0
