"""GTP engine abuse: engines that fork and detach, die, hang, flood, never end an answer, answer twice,
answer 60 KB, name themselves on two lines, write terminal escapes, and an opponent that cheats.

Every engine is tests/gtp/fake_engine.py, misbehaving on purpose, with a marker in the command line
of every process of it (its keeper, the engine, a child in its group, a grandchild detached into a
session of its own).  A failure is anything left running once the engine is done with, a message of
more than one line, of unbounded length or with a raw escape, memory grown by more than MEMORY_MB
while an engine floods, a surplus answer not named as one, and an illegal move taken from any
opponent.  `play` killed with -9 against an engine that forks must leave nothing either.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attacks.common import ROOT, Budget, Table, unsafe_output
from engines import registry
from engines.go7.rules import Go7
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.peers.gtp.engine import GtpEngine
from host.peers.gtp.game import GtpGame
from host.peers.gtp.opponent import EngineOpponent
from host.peers.gtp.protocol import GtpError
from host.session.ai_opponent import AiOpponent
from host.session.session import Session, Settings

FAKE = ROOT / "tests" / "gtp" / "fake_engine.py"
GAME = Go7()
SECONDS, MARGIN_S = 0.2, 0.6  # a hung engine counts as hung after 1.2 s
LONG_S = 600.0  # so long that only a bound, never a deadline, ends an answer
GONE_S = 5.0
MEMORY_MB = 50
LONGEST = 400  # characters of any message about an engine


def _line(fault: str, mark: str, after: int = 1) -> str:
    return f"{sys.executable} {FAKE} {fault} {after} {mark}"


def _marked(mark: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if mark.encode() in command:
                found.append(int(entry))
    return found


def _left(mark: str) -> str | None:
    """What is left of the engine of ``mark`` after GONE_S (killed then, for the next trial)."""
    deadline = time.monotonic() + GONE_S
    while _marked(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _marked(mark)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return f"{len(left)} of its processes left running" if left else None


def _message(words: str) -> str | None:
    """Why a message about an engine breaks the rules (None: one bounded, printable line)."""
    if "\n" in words:
        return "a message of several lines"
    if len(words) > LONGEST:
        return f"a message of {len(words)} characters"
    return unsafe_output(words)


def _rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _asked(fault: str, mark: str, seconds: float = SECONDS) -> tuple[str | None, str]:
    """An engine started, asked its first move, and closed: what it said (GtpError's words, or '')."""
    table = GtpGame(GtpEngine(_line(fault, mark)), GAME, seconds, MARGIN_S)
    try:
        table.choose(GAME.play_texts(["g7"]))
        words = ""
    except GtpError as exc:
        words = str(exc)
    finally:
        table.engine.close()
    return _message(words), words


def quits(mark: str) -> str | None:
    failure, words = _asked("none", mark)
    return failure or (f"refused a sound engine: {words}" if words else None)


def faults(fault: str) -> Callable[[str], str | None]:
    def trial(mark: str) -> str | None:
        failure, words = _asked(fault, mark)
        return failure or (None if words else f"{fault}: not refused")

    return trial


def floods(mark: str) -> str | None:
    table = GtpGame(GtpEngine(_line("flood", mark)), GAME, SECONDS, MARGIN_S)
    try:
        before = _rss_mb()
        time.sleep(1.0)
        grown = _rss_mb() - before
        table.choose(GAME.play_texts(["g7"]))  # and the game goes on
    except GtpError as exc:
        return f"the game did not go on: {exc}"
    finally:
        table.engine.close()
    return f"memory grew by {grown:.0f} MB in 1 s of stderr" if grown > MEMORY_MB else None


def endless(mark: str) -> str | None:
    before, started = _rss_mb(), time.monotonic()
    failure, words = _asked("endless", mark, seconds=LONG_S)
    if "at once" not in words:
        return failure or f"an answer without end not refused at its bound: {words[:120]}"
    took, grown = time.monotonic() - started, _rss_mb() - before
    if took > 10 or grown > MEMORY_MB:
        return f"refused after {took:.1f} s and {grown:.0f} MB"
    return failure


def twice(mark: str) -> str | None:
    table = GtpGame(GtpEngine(_line("twice", mark)), GAME, SECONDS, MARGIN_S)
    try:
        table.choose(GAME.play_texts(["g7"]))
        time.sleep(0.2)
        table.choose(GAME.play_texts(["g7", "a1", "b2"]))
        return "a surplus answer was taken for the next one"
    except GtpError as exc:
        words = str(exc)
    finally:
        table.engine.close()
    return _message(words) or (None if "once more than it was asked" in words else f"not named: {words}")


def two_lines(mark: str) -> str | None:
    engine = EngineOpponent(_line("twolines", mark), SECONDS, AiOpponent(level=1, nodes=10), MARGIN_S)
    engine.start(GAME)
    try:
        return _message(engine.name or "")
    finally:
        engine.close()


def killed_play(mark: str, work: Path) -> str | None:
    """`play` against an engine that forks, killed with -9 once every process of the engine runs."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", "go7", "--engine", _line("none", mark), "--terminal",
         "--seconds", "0.2", "--nodes", "20", "--level", "1", "--new", "--journal", str(work / "k.sqlite3")],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while len(_marked(mark)) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    return _left(mark)


class _Cheater:
    """An opponent that answers a move of another position (legal there, not here)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def start(self, game: object) -> None:
        """Nothing to start."""

    def choose(self, game: Any, pos: Any) -> Any:
        legal = game.legal_moves(pos)
        return self.rng.choice([m for m in game.legal_moves(game.start()) if m not in legal])

    def hint(self, game: Any, pos: Any) -> list[Any]:
        return [game.legal_moves(pos)[0]]


def cheats(rng: random.Random) -> str | None:
    """On Desdemona's reed board, after the player's move, the opponent answers one of the first
    position's moves that is not legal now: nothing of it may be committed or waited for."""
    game, model = registry.make("desdemona"), SensorModel(load_board("desdemona-reed"))

    def reading(pos: Any) -> list[Any]:
        cells = game.cells(pos)
        return [model.reading_of(tuple(cells[name])) for name in game.geometry.names]

    settings = Settings(ai_side=1, think_in_background=False)
    session: Session[Any, Any] = Session(
        game, model.reading_of, Reading.EMPTY, opponent=_Cheater(rng), settings=settings
    )
    start = game.start()
    after = game.play(start, rng.choice(game.legal_moves(start)))
    session.on_reading(0, reading(start))
    session.on_tick(1000)
    session.on_reading(2000, reading(after))
    session.on_tick(3000)
    if len(session.moves) != 1:
        return f"the player's move was not committed: {session.moves}"
    if session.pending is not None or len(session.moves) != 1:
        return "an illegal move was taken"
    return None if session.view().notice_words else "the refusal was not said"


def run(budget: Budget, work: Path) -> Table:
    table = Table("GTP engine abuse: lifetime, bounded output, names, surplus answers, cheating")
    rng = random.Random(budget.seed)
    cases: dict[str, Callable[[str], str | None]] = {
        "quits (forks, detaches)": quits,
        "dies mid-game": faults("die"),
        "hangs": faults("hang"),
        "escapes on stderr": faults("escapes"),
        "a 60 KB answer": faults("huge"),
        "garbage": faults("garbage"),
        "stderr without newlines": floods,
        "an answer without end": endless,
        "answers twice": twice,
        "a name of two lines": two_lines,
        "play killed -9": lambda mark: killed_play(mark, work),
    }
    names = list(cases)
    for number in budget.trials():
        case = names[number % len(names)]
        mark = f"magboard-attack-{uuid.uuid4().hex}"
        try:
            failure = cases[case](mark)
        except Exception as exc:  # any escape is a failure of its own, said in its words
            failure = f"{type(exc).__name__}: {str(exc)[:120]}"
        table.tried(case, failure or _left(mark))
        table.tried("a cheating opponent", cheats(rng))
    table.figures["cases"] = len(names) + 1
    return table
