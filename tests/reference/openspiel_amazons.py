"""OpenSpiel's `amazons` as the reference of engines/amazons, played move for move beside it.

OpenSpiel splits a turn into three actions by the same player (the amazon, its destination, the arrow's
square), each a square numbered row by row from the top (row 0 is rank 10). A turn here is every sequence of
actions that the player to move makes before the other player is to move, so the whole turns are composed
from the reference itself, not from what magboard believes a turn is.

Used by tests/test_amazons_openspiel.py (a few games) and benchmarks/bench_amazons_reference.py (hundreds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from engines.game import Game

FILES = "abcdefghij"


def load() -> Any:
    return pyspiel.load_game("amazons")


def square(action: int) -> str:
    """OpenSpiel's square ``action`` (row 0 at the top, rank 10) by its magboard name."""
    row, col = divmod(action, 10)
    return f"{FILES[col]}{10 - row}"


def whole_turns(state: Any) -> dict[str, tuple[int, ...]]:
    """Every whole turn of ``state``, by its magboard text, with the OpenSpiel actions that make it."""
    if state.is_terminal():
        return {}
    mover = state.current_player()
    out: dict[str, tuple[int, ...]] = {}

    def walk(s: Any, actions: tuple[int, ...]) -> None:
        if s.is_terminal() or s.current_player() != mover:
            squares = [square(a) for a in actions]
            if len(squares) != 3:
                raise AssertionError(f"an OpenSpiel turn of {len(squares)} actions: {squares}")
            out[f"{squares[0]}-{squares[1]}/{squares[2]}"] = actions
            return
        for action in s.legal_actions():
            walk(s.child(action), (*actions, action))

    walk(state, ())
    return out


def returns_of(game: Game[Any, Any], pos: Any) -> list[float]:
    """OpenSpiel's returns for magboard's result: +1 the winner, -1 the loser, 0 each while it goes on."""
    outcome = game.outcome(pos)
    if outcome is None or outcome.winner is None:
        return [0.0, 0.0]
    return [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]


@dataclass
class Replay:
    """One random game played in both: its moves, the positions compared, and every difference found."""

    moves: list[str] = field(default_factory=list)
    positions: int = 0
    differences: list[str] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)


def replay_random_game(game: Game[Any, Any], seed: int, max_plies: int = 200) -> Replay:
    """A game of uniformly random whole turns (drawn from OpenSpiel's), compared at every position.

    At each position: the set of whole turns, whether the game is over, who is to move and, at the end, the
    returns. The game stops at the first position that differs.
    """
    rng = random.Random(seed)
    state = load().new_initial_state()
    pos = game.start()
    replay = Replay()
    while True:
        ply = len(replay.moves)
        replay.positions += 1
        reference = whole_turns(state)
        ours = set(game.legal_texts(pos))
        if ours != set(reference):
            only_ref = sorted(set(reference) - ours)[:5]
            only_ours = sorted(ours - set(reference))[:5]
            replay.differences.append(
                f"ply {ply}: legal turns differ ({len(reference)} in OpenSpiel, {len(ours)} in magboard): "
                f"only in OpenSpiel {only_ref}, only in magboard {only_ours}"
            )
        if state.is_terminal() != game.is_over(pos):
            replay.differences.append(
                f"ply {ply}: OpenSpiel says over={state.is_terminal()}, magboard over={game.is_over(pos)}"
            )
        elif not state.is_terminal() and state.current_player() != game.to_move(pos):
            replay.differences.append(
                f"ply {ply}: to move: OpenSpiel {state.current_player()}, magboard {game.to_move(pos)}"
            )
        if list(state.returns()) != returns_of(game, pos):
            replay.differences.append(
                f"ply {ply}: returns: OpenSpiel {list(state.returns())}, magboard {returns_of(game, pos)}"
            )
        if replay.differences or state.is_terminal() or ply >= max_plies:
            replay.returns = list(state.returns())
            return replay
        text = rng.choice(sorted(reference))
        for action in reference[text]:
            state.apply_action(action)
        pos = game.play(pos, game.parse_move(pos, text))
        replay.moves.append(text)
