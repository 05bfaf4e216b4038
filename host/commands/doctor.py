"""`magboard doctor`: check a board - link and firmware, every LED, sensor and button.

    magboard doctor [--board ID|FILE]                   the simulated board, simulated hands
    magboard doctor --serial PORT|auto [--board ID|FILE] a real board, you at it

On a real board the doctor asks you to watch the LEDs light in turn, put a
piece on each cell it lights green and press each button; without --board it
checks the board the Pico's config names.  One line per check, a summary, and
exit status 0 only when every check passed.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engines import registry
from host.cli_error import CliError
from host.doctor.bench import Bench, open_bench
from host.doctor.checks import run_checks
from host.doctor.report import Report
from host.drivers.interfaces import DriverError
from host.gamearg import board_argument
from host.session.setup import default_board
from host.wiring.hardware import choose_hardware


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help="check a board: link, firmware, LEDs, sensors and buttons")
    p.add_argument(
        "--board",
        metavar="ID|FILE",
        help="board id or file (default: the one the Pico names with --serial, "
        f"else {default_board(registry.DEFAULT)})",
    )
    p.add_argument("--serial", metavar="PORT", help="a real board on this serial port, or 'auto' to find it")
    p.add_argument("--seed", type=int, default=0, help="seed of the simulated sensor noise")
    p.add_argument(
        "--emulated", action="store_true", help="the simulated board's firmware on an emulated Pico"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        hardware = choose_hardware(args.serial, emulated=args.emulated, seed=args.seed)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        if args.serial is not None:
            board = board_argument(args.board) if args.board else None
        else:
            board = board_argument(args.board or default_board(registry.DEFAULT))
        with open_bench(hardware, board, sys.stdin, sys.stdout) as bench:
            report = examine(bench, sys.stdout)
    except DriverError as exc:  # what the factory could not open: a simulated board's firmware, say
        raise CliError(f"cannot start the board: {exc}", 1) from None
    return 0 if report.ok else 1


def examine(bench: Bench, out: TextIO) -> Report:
    """Run every check and print the report."""
    report = run_checks(bench)
    out.write("\n".join(report.lines()) + "\n")
    out.flush()
    return report
