"""Attack harnesses: what a killed process, a damaged file, a failing disk, a crowd, a command line,
a neighbour on the LAN, a fuzzer or a bad file can do to a game - and that none of it loses one.

    .venv/bin/python benchmarks/attack.py [--seconds 20] [--count 100000] [--seed 1] [--only NAME ...]

Each harness (benchmarks/attacks/NAME.py) tries inputs for at most --seconds and --count trials and
prints a table: per case the trials and the failures, then its figures (kills, commits, frames,
requests...).  A failure is anything the program must never do: a traceback, a hang, a message of
more than one line, a move lost or invented, a file replaced that was not asked for, an owner
locked out.  The last line sums up; the exit status is 1 when anything failed.  Network traffic
goes to 127.0.0.0/8 only.  tests/test_attacks.py runs every harness for a second or two in CI.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from importlib import import_module
from pathlib import Path

from attacks.common import Budget, Hang, Table

HARNESSES = ("kill9", "damage", "faults", "concurrency", "history", "lan", "web", "files", "gtp")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="time for each harness (default 20)")
    parser.add_argument("--count", type=int, default=100_000, help="most trials of each harness")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="+", choices=HARNESSES, default=list(HARNESSES), metavar="NAME")
    args = parser.parse_args()
    started = time.monotonic()
    tables: list[Table] = []
    for name in args.only:
        with tempfile.TemporaryDirectory(prefix=f"magboard-attack-{name}-") as work:
            began = time.monotonic()
            budget = Budget(args.seconds, args.count, args.seed)
            try:
                table: Table = import_module(f"attacks.{name}").run(budget, Path(work))
            except Hang as exc:  # its thread cannot be taken back: the harness ends here, failed
                table = Table(name)
                table.tried("a command that never returned", str(exc))
            table.seconds = time.monotonic() - began
        table.print(sys.stdout)
        sys.stdout.flush()
        tables.append(table)
    failed = sum(table.failed for table in tables)
    print(
        f"\n{len(tables)} harnesses, {sum(table.total for table in tables)} trials, {failed} failures"
        f" in {time.monotonic() - started:.0f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
