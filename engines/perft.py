"""Counting move sequences: the standard check that move generation is right."""

from __future__ import annotations

from engines.game import Game, M, P


def perft(game: Game[P, M], pos: P, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves from ``pos``."""
    if depth == 0:
        return 1
    if depth == 1:
        return game.count_moves(pos)
    return sum(perft(game, game.play(pos, m), depth - 1) for m in game.legal_moves(pos))
