"""Each game's fast ``changes`` / ``changed_cells`` (what the move tracker indexes moves by) agree with
the definition: the cells whose objects differ between the position and the one the move leads to."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.game import Game


@pytest.mark.parametrize("game_id", registry.available())
def test_the_cells_a_move_changes_are_those_whose_objects_differ(game_id: str) -> None:
    game = registry.make(game_id)
    rng = random.Random(11)
    checked = 0
    for _ in range(3):
        pos = game.start()
        for _ in range(60):
            moves = game.legal_moves(pos)
            if not moves:
                break
            for move in rng.sample(moves, min(40, len(moves))):
                before, after = game.cells(pos), game.cells(game.play(pos, move))
                names = game.geometry.names
                expected = {
                    i: tuple(after[n]) for i, n in enumerate(names) if tuple(before[n]) != tuple(after[n])
                }
                assert {i: tuple(s) for i, s in game.changes(pos, move).items()} == expected
                assert set(game.changed_cells(pos, move)) == set(expected)
                assert dict(Game.changes(game, pos, move)) == expected  # the generic default, for reference
                checked += 1
            pos = game.play(pos, rng.choice(moves))
    assert checked > 500
