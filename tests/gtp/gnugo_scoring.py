"""Finished Go 7x7 games with every dead stone taken off, and GnuGo's own count of their SGF.

GnuGo plays both sides through host/peers/gtp (each side its own process)
after a few random opening stones, which make the games differ; it is asked for
``kgs-genmove_cleanup``, so it takes every dead stone off before it passes.
Those are the games whose dead stones are settled on the board, where our area
count (Tromp-Taylor, engines/go7/rules.md) and a count that takes dead stones
off must agree.  ``gnugo_count`` loads our SGF into a fresh GnuGo with
``loadsgf`` and asks its ``final_score`` and the stones it holds dead.
"""

from __future__ import annotations

import random
from pathlib import Path

from engines.go7.board import PASS
from engines.go7.rules import Go7
from host.peers.gtp.engine import GtpEngine
from host.peers.gtp.game import GtpGame, Resigned

GNUGO = "gnugo --mode gtp --level 1 --chinese-rules"
OPENING = 6  # random stones before GnuGo plays


def cleaned_game(seed: int) -> list[str] | None:
    """A game GnuGo played out from a random opening, or None when it resigned or the game drew (a
    repeated board, OpenSpiel's rule, which no count decides)."""
    game = Go7()
    rng = random.Random(seed)
    pos = game.start()
    texts = []
    for _ in range(OPENING):
        move = rng.choice([m for m in game.legal_moves(pos) if m != PASS])
        texts.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    sides = [GtpGame(GtpEngine(GNUGO), game, 1.0) for _ in range(2)]
    try:
        while not game.is_over(pos):
            move = sides[game.to_move(pos)].choose(pos)
            texts.append(game.format_move(pos, move))
            pos = game.play(pos, move)
    except Resigned:
        return None
    finally:
        for side in sides:
            side.engine.close()
    outcome = game.outcome(pos)
    return None if outcome is None or outcome.winner is None else texts


def gnugo_count(sgf: Path) -> tuple[str, list[str]]:
    """GnuGo's ``final_score`` of the SGF file ("B+3.5") and the stones it holds dead."""
    engine = GtpEngine(GNUGO)
    try:
        engine.ask("loadsgf", str(sgf))
        score = engine.ask("final_score", timeout=60.0)
        dead = engine.ask("final_status_list", "dead", timeout=60.0).split()
    finally:
        engine.close()
    return score, dead
