"""A GTP engine for the tests, misbehaving on purpose: ``python fake_engine.py FAULT [AFTER]``.

It keeps the game with our own Go 7x7 rules and answers ``genmove`` with its first legal point,
until its AFTER-th genmove (default 1), which it answers by FAULT: ``none`` (play on), ``die``
(exit 3, saying why on stderr), ``illegal`` (an occupied point), ``garbage`` (a line that is not
GTP), ``hang`` (no answer, ever), ``resign``, ``twice`` (the answer, then the same answer again),
``endless`` (an answer of lines without end), ``huge`` (a vertex of 60,000 characters),
``escapes`` (like ``die``, its message full of terminal escapes).  At ``mute`` it never answers at
all, not even its first command; at ``flood`` it writes stderr without a newline and without end,
while it plays on; at ``twolines`` its name is two lines.

``python fake_engine.py FAULT AFTER MARKER`` first starts a child
(in its process group) that starts a grandchild detached into a session of its own, both sleeping
with MARKER in their command lines, for a test to find what is left of them.

It knows the commands GnuGo's GTP knows for a game, and like Pachi it forgets its time settings at
``clear_board`` (and dies at a ``time_left`` then).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time

from engines.go7.rules import Go7, Position

KNOWN = ("protocol_version", "name", "version", "list_commands", "boardsize", "clear_board", "komi", "play",
         "genmove", "time_settings", "time_left", "quit")  # fmt: skip


# The child: it starts the grandchild in a session of its own, then both sleep (MARKER is their argv[1]).
CHILD = (
    "import subprocess, sys, time; "
    "sleeping = [sys.executable, '-c', 'import time; time.sleep(600)', sys.argv[1]]; "
    "subprocess.Popen(sleeping, start_new_session=True); "
    "time.sleep(600)"
)


def main() -> None:
    fault = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if len(sys.argv) > 3:
        subprocess.Popen([sys.executable, "-c", CHILD, sys.argv[3]])
    if fault == "mute":
        time.sleep(3600)
    if fault == "flood":
        threading.Thread(target=_flood, daemon=True).start()
    game = Go7()
    pos = game.start()
    genmoves = 0
    timed = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        number = words.pop(0) if words[0].isdigit() else ""  # the command's id, echoed in its answer
        if not words:
            continue
        name, args = words[0], words[1:]
        answer = ""
        if name == "list_commands":
            answer = "\n".join(KNOWN)
        elif name == "name":
            answer = "Fake\nsecond line" if fault == "twolines" else "Fake"
        elif name == "version":
            answer = fault
        elif name == "clear_board":
            pos, timed = game.start(), False
        elif name == "time_settings":
            timed = True
        elif name == "time_left" and not timed:  # as Pachi does: clear_board forgets the time settings
            print("fake engine: time_left without time_settings", file=sys.stderr, flush=True)
            sys.exit(6)
        elif name == "play":
            try:
                pos = game.play(pos, game.parse_move(pos, args[1]))
            except Exception:
                print(f"?{number} illegal move\n", flush=True)
                continue
        elif name == "genmove":
            genmoves += 1
            if genmoves >= after and fault not in ("none", "flood", "twolines"):
                if fault == "escapes":
                    print("\x1b[2J\x1b]0;owned\x07fake engine: gone", file=sys.stderr, flush=True)
                    sys.exit(3)
                if fault == "huge":
                    print(f"={number} {'A' * 60_000}\n", flush=True)
                    continue
                if fault == "endless":
                    print(f"={number} A1", flush=True)
                    while True:
                        print("x" * 1000, flush=True)
                if fault == "die":
                    print("fake engine: out of memory", file=sys.stderr, flush=True)
                    sys.exit(3)
                if fault == "hang":
                    time.sleep(3600)
                if fault == "garbage":
                    print("I am not a Go engine", flush=True)
                    continue
                if fault == "twice":
                    move = game.legal_moves(pos)[0]
                    answer = game.format_move(pos, move).upper()
                    pos = game.play(pos, move)
                    print(f"={number} {answer}\n", flush=True)  # and again below
                else:
                    answer = "resign" if fault == "resign" else _occupied(game, pos)
            else:
                move = game.legal_moves(pos)[0]
                answer = game.format_move(pos, move).upper()
                pos = game.play(pos, move)
        elif name == "quit":
            print(f"={number}\n", flush=True)
            return
        elif name not in KNOWN:
            print(f"?{number} unknown command\n", flush=True)
            continue
        print(f"={number} {answer}\n", flush=True)


def _flood() -> None:
    while True:
        sys.stderr.buffer.write(b"x" * 65536)
        sys.stderr.buffer.flush()


def _occupied(game: Go7, pos: Position) -> str:
    """An occupied point (an illegal move), or a vertex off the board while there is none."""
    stones = pos.black | pos.white
    return game.format_move(pos, (stones & -stones).bit_length() - 1).upper() if stones else "Z9"


if __name__ == "__main__":
    main()
