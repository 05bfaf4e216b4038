"""Helpers shared by the reference implementations and the agreement test."""

from __future__ import annotations

import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

State = Any


def square_cells(files: str, ranks: int) -> list[str]:
    """The names of a rectangular board, rank by rank from a1."""
    return [f"{file}{rank}" for rank in range(1, ranks + 1) for file in files]


def square_step(cell: str, files: str, ranks: int, d_file: int, d_rank: int) -> str | None:
    """The cell d_file files and d_rank ranks away, or None off the board."""
    file_index = files.index(cell[0]) + d_file
    rank = int(cell[1:]) + d_rank
    if 0 <= file_index < len(files) and 1 <= rank <= ranks:
        return f"{files[file_index]}{rank}"
    return None


# The 8 directions of a square board (orthogonal and diagonal), as (d_file, d_rank).
EIGHT_DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def perft(ref: ModuleType, state: State, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves (a finished game has no moves)."""
    if depth == 0:
        return 1
    moves = ref.legal(state)
    if depth == 1:
        return len(moves)
    return sum(perft(ref, ref.play(state, move), depth - 1) for move in moves)  # legal: no need to check


def random_game(
    ref: ModuleType, options: frozenset[str], rng: random.Random, max_plies: int, prolong: bool = False
) -> list[str]:
    """The moves of one game of random legal moves, to the end or ``max_plies``.

    Uniform play ends most games early by the commonest rule; ``prolong`` reaches the rarer ones (repetition,
    an empty supply) by avoiding moves that end the game and preferring moving a piece (a move text with "-")
    to adding one.
    """
    state = ref.initial(options)
    moves: list[str] = []
    while len(moves) < max_plies:
        legal = ref.legal(state)
        if not legal:
            break
        move = prolonging_choice(ref, state, legal, rng) if prolong else rng.choice(legal)
        moves.append(move)
        state = ref.apply(state, move)
    return moves


def prolonging_choice(ref: ModuleType, state: State, legal: list[str], rng: random.Random) -> str:
    order = rng.sample(legal, len(legal))
    order.sort(key=lambda move: "-" not in move)
    for move in order:
        if ref.result(ref.play(state, move)) is None:
            return move
    return order[0]


def positions(ref: ModuleType, options: frozenset[str], moves: list[str]) -> Iterator[State]:
    """The start position and the position after each move."""
    state = ref.initial(options)
    yield state
    for move in moves:
        state = ref.apply(state, move)
        yield state


def summary(ref: ModuleType, state: State) -> dict[str, Any]:
    """What `magboard rules` prints for a position, as the reference sees it (without "game")."""
    outcome = ref.result(state)
    return {
        "to_move": ref.to_move(state),
        "legal": ref.legal(state),
        "over": outcome is not None,
        "winner": None if outcome is None else outcome[0],
        "score": ref.score(state),
    }
