"""Bad files: records, scripts, configurations, board files, calibrations and old journals, spoilt.

Each good file is spoilt (benchmarks/attacks/mutations.py) and handed to the command or reader
that takes it; and each reader is also given what is not a file of that kind at all: /dev/zero,
/dev/urandom, a FIFO nobody writes, a directory, a 50 MiB file, a dangling link.  The reader must
take it or say why in one line (a configuration or board file: one line per problem), within
SLOW_S - never a traceback, a hang, or a terminal escape in what it prints.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import host.files
from attacks.common import GAMES, Budget, Table, judge, run_cli
from attacks.mutations import mutate
from engines import records, registry
from host.hardware.calibration import CalibrationError, load_zeros
from host.hardware.loading import BOARDS_DIR, load_board
from host.reach.script import ScriptError, load_script
from host.service.config import ServiceConfig, render_config

SLOW_S = 5.0
Check = Callable[[Path], str | None]  # why the answer to a file broke the rules, or None
FIFO_WAIT_S = 0.2  # instead of READ_TIMEOUT_S, so a FIFO costs a fifth of a second a trial


def good_records(rng: random.Random) -> list[bytes]:
    texts = []
    for game_id in GAMES:
        game = registry.make(game_id)
        pos, moves = game.start(), list[str]()
        while len(moves) < 30 and not game.is_over(pos):
            move = rng.choice(game.legal_moves(pos))
            moves.append(game.format_move(pos, move))
            pos = game.play(pos, move)
        record = records.from_moves(game, moves, ("Ann", "Bo"))
        record.extra.update({"date": "2024-05-01 10:00:00", "event": "club night"})
        texts.append(record.to_text().encode())
    return texts


GOOD_SCRIPT = b"# hands\nlift a4\nplace a6\nwait 300\nslide a6 a5 a4\ntap c3\nstep 50\npress confirm\n"
GOOD_JOURNAL = (
    b"game: desdemona\noptions: \n---\nmove a4-a6\nmove a7-a8/a7\ntakeback 1\nnewgame\nmove a4-a5\n"
)


def _service_check(path: Path) -> str | None:
    answer = run_cli("service", "check", str(path))
    lines = answer.err.splitlines()
    if (
        answer.status == 2
        and lines
        and all(line.startswith(("magboard service: ", f"{path}: ")) for line in lines)
    ):
        answer.err = lines[0] + "\n"  # one line per problem is the configuration's way
    return judge(answer)


def _hardware_check(path: Path) -> str | None:
    answer = run_cli("hardware", "check", str(path))
    lines = answer.err.splitlines() + answer.out.splitlines()
    if answer.status == 1 and lines:
        answer.status, answer.err, answer.out = 2, lines[0] + "\n", ""  # one line per problem, exit 1
    return judge(answer)


def _reader(read: Callable[[Path], object], errors: tuple[type[BaseException], ...]) -> Check:
    """A reader called directly: None when it takes the file or refuses it in one line."""

    def check(path: Path) -> str | None:
        try:
            read(path)
        except errors as exc:
            text = str(exc)
            return f"a message of {text.count(chr(10)) + 1} lines" if "\n" in text else None
        except Exception as exc:
            return f"{type(exc).__name__}: {str(exc)[:100]}"
        return None

    return check


def run(budget: Budget, work: Path) -> Table:
    table = Table("bad files: records, scripts, configurations, board files, calibrations, journals")
    rng = random.Random(budget.seed)
    host.files.READ_TIMEOUT_S = FIFO_WAIT_S
    store = work / "games.sqlite3"
    hall = load_board("desdemona-hall")
    cells = set(registry.make("desdemona").geometry.names)
    calibration = json.dumps({"zero": [32768] * hall.sensor.addresses}).encode()
    kinds: dict[str, tuple[list[bytes], Check]] = {
        "record": (good_records(rng), lambda p: judge(run_cli("record", "check", str(p)))),
        "script": ([GOOD_SCRIPT], _reader(lambda p: load_script(p, cells), (ScriptError, OSError))),
        "configuration": ([render_config(ServiceConfig()).encode()], _service_check),
        "board file": (
            [path.read_bytes() for path in sorted(BOARDS_DIR.glob("*.toml"))[:3]],
            _hardware_check,
        ),
        "calibration": ([calibration], _reader(lambda p: load_zeros(hall, p), (CalibrationError, OSError))),
        "journal": (
            [GOOD_JOURNAL],
            lambda p: judge(run_cli("history", "--journal", str(store), "import", str(p))),
        ),
    }
    specials = _specials(work)
    slowest = (0.0, "")
    for trial in budget.trials():
        kind = rng.choice(list(kinds))
        goods, check = kinds[kind]
        path = work / f"input-{trial % 50}"
        if trial % 10 == 0:
            case, path = rng.choice(list(specials.items()))
        else:
            case, data = mutate(rng, rng.choice(goods))
            path.unlink(missing_ok=True)
            path.write_bytes(data)
        started = time.monotonic()
        failure = check(path)
        took = time.monotonic() - started
        if failure is None and took > SLOW_S:
            failure = f"took {took:.1f} s"
        table.tried(kind, None if failure is None else f"{case}: {failure}")
        slowest = max(slowest, (took, f"{kind}: {case}"))
    table.figures["inputs tried"] = table.total
    table.figures["slowest"] = f"{slowest[0]:.2f} s ({slowest[1]})"
    return table


def _specials(work: Path) -> dict[str, Path]:
    """Names that are no file of any kind, made here (never /dev's own nodes but to read)."""
    fifo, huge, dangling, directory = work / "fifo", work / "huge", work / "dangling", work / "dir"
    os.mkfifo(fifo)
    with open(huge, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    dangling.symlink_to(work / "nowhere")
    directory.mkdir()
    return {
        "/dev/zero": Path("/dev/zero"), "/dev/urandom": Path("/dev/urandom"), "a FIFO": fifo,
        "50 MiB": huge, "a dangling link": dangling, "a directory": directory,
    }  # fmt: skip
