"""History abuse: `magboard history` given every game number, export target and import file it should refuse.

Game numbers no one means (huge, negative, '²', '٣', '0x10'...), exports aimed at what is not a
regular file (a symbolic link, a dangling one, a FIFO, a directory, a device node made here, the
store itself, a copy of it) and imports of records whose names carry terminal escapes.  Every
answer is judged as a command line's (one line, no traceback, nothing raw a terminal acts on);
after each export the target must be what it was unless it was a regular file, and after the run
the store must hold exactly its games and pass integrity_check.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import stat
from pathlib import Path

from attacks.common import Budget, Table, judge, run_cli, sample_store
from attacks.mutations import NASTY_CHARS, NASTY_NUMBERS
from host.store.games import read_games

ESCAPES = ("\x1b]0;owned\x07", "\x1b[2J", "\x9b31m", "\u202e", "\x00", "\r", "\u2066", "\x85", "\x7f")


def _targets(work: Path, store: Path) -> dict[str, Path]:
    """Names an export must not replace, and one regular file it may."""
    kept = work / "kept.txt"
    kept.write_text("someone's file\n")
    made = {
        "a symbolic link": work / "link", "a dangling link": work / "dangling", "a FIFO": work / "fifo",
        "a directory": work / "dir", "the store": store, "a copy of the store": work / "copy.sqlite3",
    }  # fmt: skip
    made["a symbolic link"].symlink_to(kept)
    made["a dangling link"].symlink_to(work / "nowhere")
    os.mkfifo(made["a FIFO"])
    made["a directory"].mkdir()
    shutil.copy(store, made["a copy of the store"])
    with contextlib.suppress(PermissionError):
        os.mknod(work / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        made["a device node"] = work / "null"
    return made


def _identity(path: Path) -> tuple[int, int, bytes]:
    """What an export must not change: the kind of file, the file itself, and (but for the store,
    which imports change) its bytes."""
    info = path.lstat()
    data = path.read_bytes() if stat.S_ISREG(info.st_mode) and path.name != "games.sqlite3" else b""
    return info.st_mode, info.st_ino, data


def run(budget: Budget, work: Path) -> Table:
    table = Table("history abuse: game numbers, export targets, imports with escapes")
    rng = random.Random(budget.seed)
    store = work / "games.sqlite3"
    games = sample_store(store, budget.seed)
    targets = _targets(work, store)
    before = {name: _identity(path) for name, path in targets.items()}
    journal = ("history", "--journal", str(store))
    numbers = [*NASTY_NUMBERS, "1", "4", "5", str(2**63), str(2**63 - 1), "-" + "9" * 30, " 1", "1 "]
    imported = 0
    for trial in budget.trials():
        kind = trial % 4
        if kind == 0:
            number = rng.choice(numbers)
            table.tried(
                "show/export NUMBER", judge(run_cli(*journal, rng.choice(("show", "export")), number))
            )
        elif kind == 1:
            name = rng.choice(list(targets))
            answer = run_cli(*journal, "export", str(rng.randint(1, 4)), "-o", str(targets[name]))
            failure = judge(answer, statuses=(2,))
            if failure is None and _identity(targets[name]) != before[name]:
                failure = f"{name} was changed"
            table.tried("export -o a non-file", failure)
        elif kind == 2:
            names = "".join(
                rng.choice((*ESCAPES, *NASTY_CHARS, "é", "名", " ")) for _ in range(rng.randrange(1, 6))
            )
            record = work / f"record-{trial % 20}.txt"
            header = names.replace("\n", "").replace("\r", "") if rng.random() < 0.5 else names.split("\n")[0]
            record.write_text(
                f"game: desdemona\nplayer0: Eve{header}\nplayer1: {header}Bo\nboard: b{header}\n\na4-a6\n",
                encoding="utf-8", errors="surrogatepass",
            )  # fmt: skip
            answer = run_cli(*journal, "import", str(record))
            imported += answer.status == 0 and "imported, games" in answer.out
            table.tried("import names with escapes", judge(answer))
        else:
            action = rng.choice((("list",), ("show", str(rng.randint(1, 4 + imported)))))
            table.tried("list and show them", judge(run_cli(*journal, *action)))
    export = run_cli(*journal, "export", "1", "-o", str(work / "kept.txt"))
    table.tried("export -o a regular file", judge(export, statuses=(0,)))
    stored = read_games(store)
    if [g.moves for g in stored[: len(games)]] != list(games.values()) or len(stored) != len(
        games
    ) + imported:
        table.tried("the store afterwards", "its games changed")
    with sqlite3.connect(store) as conn:
        sound = conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    table.tried("the store afterwards", None if sound else "integrity_check failed")
    table.figures["commands run"] = table.total - 2
    table.figures["export targets"] = ", ".join(targets)
    return table
