"""The boards against the real game engines: positions from play are sensed as the board files say.

Skipped for a game whose engine is not installed yet.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import registry
from host.hardware import calibration
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import SensorModel
from host.sim.virtual_board import SimClock, VirtualBoard

PLIES = 40


def positions(game: Any, seed: int) -> list[Any]:
    """The positions of one random game, at most PLIES moves long."""
    rng = random.Random(seed)
    pos = game.start()
    out = [pos]
    for _ in range(PLIES):
        moves = game.legal_moves(pos)
        if not moves:
            break
        pos = game.play(pos, rng.choice(moves))
        out.append(pos)
    return out


@pytest.mark.parametrize("game_id", registry.available())
def test_each_game_names_a_default_board_that_is_installed_and_its_own(game_id: str) -> None:
    assert load_board(registry.game_class(game_id).default_board).game == game_id


@pytest.mark.parametrize("board_id", board_ids())
def test_positions_from_play_are_sensed_on_the_virtual_board(board_id: str) -> None:
    board = load_board(board_id)
    if board.game not in registry.available():
        pytest.skip(f"engine {board.game} not installed")
    game = registry.make(board.game)
    assert game.geometry.names == board.geometry.names
    model = SensorModel(board)
    clock = SimClock()
    vboard = VirtualBoard(board, clock, seed=3)
    zeros = calibration.from_frames(board, [vboard.flat_frame()]) if board.sensor.analog else None
    roles = {k.kind: k.role for k in game.table.objects}
    for seed in (1, 2):
        for ply, pos in enumerate(positions(game, seed)):
            cells = game.cells(pos)
            for stack in cells.values():
                for thing in stack:
                    assert thing.kind in roles, thing
                    assert thing.colour in roles[thing.kind].colours, thing
            expected = model.expected(cells)
            if ply % 5:
                continue
            vboard.set_position(cells)
            clock.advance(vboard.physics.settle_us)
            raw = vboard.flat_frame()
            got = model.decode(raw if zeros is None else calibration.codes(zeros, raw))
            assert got == expected, f"seed {seed} ply {ply}"
