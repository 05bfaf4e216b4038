"""The Amazons agree with OpenSpiel's `amazons`, move for move: whole turns, game over, side to move, returns.

OpenSpiel's three actions a turn are composed into whole turns from OpenSpiel alone
(tests/reference/openspiel_amazons.py). CI plays a few random games; benchmarks/bench_amazons_reference.py
plays hundreds (MAGBOARD_XCHECK_GAMES=50 plays more here).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engines.amazons.board import reach
from engines.amazons.rules import Amazons, Position, decode
from tests.conftest import ROOT
from tests.reference.openspiel_amazons import load, replay_random_game, square, whole_turns

GAMES = int(os.environ.get("MAGBOARD_XCHECK_GAMES", "4"))
GAME = Amazons()


@pytest.mark.parametrize("seed", range(GAMES))
def test_a_random_game_agrees_with_openspiel_at_every_position(seed: int) -> None:
    replay = replay_random_game(GAME, 1000 + seed)
    assert replay.differences == []
    assert replay.returns in ([1.0, -1.0], [-1.0, 1.0])  # played to OpenSpiel's end: someone is walled in
    assert GAME.is_over(GAME.play_texts(replay.moves))


def test_the_start_agrees_square_for_square_and_has_2176_turns() -> None:
    state = load().new_initial_state()
    # OpenSpiel's picture of the board: row 0 is rank 10, X is its player 0.
    drawn = {
        f"{'abcdefghij'[col]}{10 - row}": ch
        for row, line in enumerate(str(state).splitlines())
        for col, ch in enumerate(line)
        if ch != "."
    }
    ours = {name: stack[0].colour for name, stack in GAME.cells(GAME.start()).items() if stack}
    assert drawn == {name: "XO"[colour] for name, colour in ours.items()}
    assert state.current_player() == GAME.to_move(GAME.start()) == 0
    assert len(whole_turns(state)) == 2176 == len(GAME.legal_moves(GAME.start()))


def test_magboard_perft_counts_2176_first_turns() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "host.cli", "perft", "amazons", "1"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "2176"


class NoShotBack(Amazons):
    """A plausible mistake: the square the amazon left still blocks its arrow."""

    def legal_moves(self, pos: Position) -> list[int]:
        return [
            move
            for move in super().legal_moves(pos)
            if decode(move)[2] in reach(decode(move)[1], pos.occupied | 1 << decode(move)[1])
        ]


def test_the_comparison_finds_a_rule_that_differs() -> None:
    replay = replay_random_game(NoShotBack(), 1000)
    assert replay.differences and "legal turns differ" in replay.differences[0]
    assert replay.positions == 1  # found at the start already


def test_openspiel_squares_are_named_from_the_top_row() -> None:
    assert (square(0), square(9), square(90), square(99)) == ("a10", "j10", "a1", "j1")
