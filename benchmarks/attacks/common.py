"""What the attack harnesses share: a budget, a table of what was tried and what failed, and judges.

A harness tries inputs until its budget (seconds and a count) is spent, records each trial under a
case name, and a failure with a short description when the program did what it must never do: a
traceback, a hang, a message of more than one line, a changed file it was not asked to change, a
lost or invented move.  The table prints the trials and failures per case, then the figures.
"""

from __future__ import annotations

import contextlib
import io
import random
import threading
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from engines import registry
from host.cli import main
from host.shown import is_unsafe
from host.store.recorder import GameRecorder

ROOT = Path(__file__).resolve().parents[2]
SHOWN_FAILURES = 5


@dataclass
class Budget:
    """How long a harness may run and how many trials it may make (at least one of each case)."""

    seconds: float
    count: int
    seed: int
    started: float = field(default_factory=time.monotonic)

    def left(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    def trials(self) -> Iterator[int]:
        """0, 1, 2 ... while time and count last; always the first."""
        number = 0
        while number == 0 or (number < self.count and self.left() > 0):
            yield number
            number += 1


@dataclass
class Table:
    """One harness's results: per case the trials and failures, the failures themselves, and figures."""

    title: str
    rows: dict[str, list[int]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    figures: dict[str, float | int | str] = field(default_factory=dict)
    seconds: float = 0.0

    def tried(self, case: str, failure: str | None = None) -> None:
        row = self.rows.setdefault(case, [0, 0])
        row[0] += 1
        if failure is not None:
            row[1] += 1
            self.failures.append(f"{case}: {failure}")

    @property
    def total(self) -> int:
        return sum(row[0] for row in self.rows.values())

    @property
    def failed(self) -> int:
        return sum(row[1] for row in self.rows.values())

    def print(self, out: TextIO) -> None:
        width = max([len("case"), *map(len, self.rows)])
        out.write(f"\n== {self.title} ({self.seconds:.1f} s)\n")
        out.write(f"{'case':<{width}}  {'tried':>7}  {'failed':>6}\n")
        for case, (tried, failed) in self.rows.items():
            out.write(f"{case:<{width}}  {tried:>7}  {failed:>6}\n")
        out.write(f"{'total':<{width}}  {self.total:>7}  {self.failed:>6}\n")
        for name, value in self.figures.items():
            out.write(f"  {name}: {value}\n")
        for failure in self.failures[:SHOWN_FAILURES]:
            out.write(f"  FAILED {failure}\n")
        if len(self.failures) > SHOWN_FAILURES:
            out.write(f"  ... and {len(self.failures) - SHOWN_FAILURES} more\n")


@dataclass
class Answer:
    """What a command did: its exit status and what it printed, or that it crashed or hung."""

    status: int
    out: str
    err: str
    crash: str | None = None  # the traceback of an exception that escaped main()


class Hang(Exception):
    """A command that did not return in time: the harness stops (its thread cannot be taken back)."""


def run_cli(*args: str, timeout: float = 30.0) -> Answer:
    """`magboard ARGS` in this process (no interpreter start-up per trial), with its output captured."""
    result: list[Answer] = []

    def work() -> None:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(args))
                crash = None
            except SystemExit as exc:  # argparse
                status, crash = int(exc.code or 0), None
            except BaseException:
                status, crash = -1, traceback.format_exc()
        result.append(Answer(status, out.getvalue(), err.getvalue(), crash))

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout)
    if not result:
        raise Hang(f"magboard {' '.join(args)[:80]} did not return within {timeout:g} s")
    return result[0]


def unsafe_output(text: str) -> str | None:
    """The first character of printed output a terminal would act on (newlines and tabs are fine)."""
    found = next((char for char in text if char not in "\n\t" and is_unsafe(char)), None)
    return None if found is None else f"printed {found!a} raw"


def judge(answer: Answer, statuses: tuple[int, ...] = (0, 2)) -> str | None:
    """Why an answer breaks the rules for a command line (None: it keeps them)."""
    if answer.crash is not None:
        return "traceback: " + answer.crash.strip().splitlines()[-1][:120]
    if "Traceback" in answer.err:
        return "a traceback on stderr"
    if answer.status not in statuses:
        return f"exit status {answer.status}"
    lines = answer.err.splitlines()
    argparse_error = len(lines) == 2 and lines[0].startswith("usage:") and ": error: " in lines[1]
    if answer.status != 0 and len(lines) != 1 and not argparse_error:
        return f"{len(lines)} lines on stderr, not one"
    return unsafe_output(answer.out + answer.err)


GAMES = ("flipfour", "desdemona", "spacetiles", "kingofrings")


def sample_store(path: Path, seed: int) -> dict[str, list[str]]:
    """A store with one unfinished game of each kind, a few moves in: game id -> its moves."""
    rng = random.Random(seed)
    played: dict[str, list[str]] = {}
    for game_id in GAMES:
        recorder = GameRecorder.open(path, registry.make(game_id), board=None, players=("Ann", "Bo"))
        for _ in range(rng.randrange(2, 8)):
            recorder.move(rng.choice(recorder.game.legal_texts(recorder.positions[-1])))
        played[game_id] = recorder.moves
        recorder.close()
    return played
