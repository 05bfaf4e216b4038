"""A GTP engine for the tests, misbehaving on purpose: ``python fake_engine.py FAULT [AFTER]``.

It keeps the game with our own Go 7x7 rules and answers ``genmove`` with its
first legal point, until its AFTER-th genmove (default 1), which it answers by
FAULT: ``none`` (play on), ``die`` (exit 3, saying why on stderr), ``illegal``
(an occupied point), ``garbage`` (a line that is not GTP), ``hang`` (no answer,
ever), ``resign``.  It knows the commands GnuGo's GTP knows for a game, and like Pachi it forgets
its time settings at ``clear_board`` (and dies at a ``time_left`` then).
"""

from __future__ import annotations

import sys
import time

from engines.go7.rules import Go7, Position

KNOWN = ("protocol_version", "name", "version", "list_commands", "boardsize", "clear_board", "komi", "play",
         "genmove", "time_settings", "time_left", "quit")  # fmt: skip


def main() -> None:
    fault = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    game = Go7()
    pos = game.start()
    genmoves = 0
    timed = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        name, args = words[0], words[1:]
        answer = ""
        if name == "list_commands":
            answer = "\n".join(KNOWN)
        elif name == "name":
            answer = "Fake"
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
                print("? illegal move\n", flush=True)
                continue
        elif name == "genmove":
            genmoves += 1
            if genmoves >= after and fault != "none":
                if fault == "die":
                    print("fake engine: out of memory", file=sys.stderr, flush=True)
                    sys.exit(3)
                if fault == "hang":
                    time.sleep(3600)
                if fault == "garbage":
                    print("I am not a Go engine", flush=True)
                    continue
                answer = "resign" if fault == "resign" else _occupied(game, pos)
            else:
                move = game.legal_moves(pos)[0]
                answer = game.format_move(pos, move).upper()
                pos = game.play(pos, move)
        elif name == "quit":
            print("=\n", flush=True)
            return
        elif name not in KNOWN:
            print("? unknown command\n", flush=True)
            continue
        print(f"= {answer}\n", flush=True)


def _occupied(game: Go7, pos: Position) -> str:
    """An occupied point (an illegal move), or a vertex off the board while there is none."""
    stones = pos.black | pos.white
    return game.format_move(pos, (stones & -stones).bit_length() - 1).upper() if stones else "Z9"


if __name__ == "__main__":
    main()
