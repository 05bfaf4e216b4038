"""The shipped board files: each loads, matches its game's geometry and is wired sensibly."""

from __future__ import annotations

import itertools

import pytest

from engines import registry
from engines.geometry import hex_hexagon, hex_parallelogram, square_grid
from host.hardware.loading import board_ids, load_board

GEOMETRY_OF_GAME = {
    "kingofrings": square_grid(7, 7),
    "desdemona": square_grid(10, 10),
    "spacetiles": hex_parallelogram(9, 5),
    "flipfour": hex_hexagon(2),
    "go7": square_grid(7, 7),
    "amazons": square_grid(10, 10),
}

BOARDS = board_ids()


def test_every_game_has_a_reed_build_and_a_hall_build() -> None:
    builds = {(load_board(b).game, load_board(b).sensor.model == "reed") for b in BOARDS}
    assert builds == {(game, reed) for game in GEOMETRY_OF_GAME for reed in (True, False)}


@pytest.mark.parametrize("board_id", BOARDS)
def test_board_loads_with_its_games_cells(board_id: str) -> None:
    board = load_board(board_id)
    assert board.id == board_id
    assert tuple(c.name for c in board.cells) == GEOMETRY_OF_GAME[board.game].names
    assert set(board.objects) == registry.make(board.game).table.kinds()
    assert {k: o.role for k, o in board.objects.items()} == {
        k.kind: k.role for k in registry.make(board.game).table.objects
    }


@pytest.mark.parametrize("board_id", BOARDS)
def test_every_cell_has_its_own_sensor_and_led(board_id: str) -> None:
    board = load_board(board_id)
    addresses = [board.address(c) for c in board.cells]
    assert len(set(addresses)) == len(addresses)
    assert all(0 <= a < board.sensor.addresses for a in addresses)
    assert sorted(c.led for c in board.cells) == list(range(len(board.cells)))


@pytest.mark.parametrize("board_id", BOARDS)
def test_led_chain_runs_between_neighbouring_cells(board_id: str) -> None:
    # Serpentine wiring: each LED's successor sits on a neighbouring cell, so no data wire
    # crosses the board.
    board = load_board(board_id)
    geometry = board.geometry
    chain = sorted(board.cells, key=lambda c: c.led)
    for a, b in itertools.pairwise(chain):
        assert geometry.index[b.name] in geometry.neighbours(geometry.index[a.name]), (a.name, b.name)


def test_serpentine_order_on_the_king_of_rings() -> None:
    # Rank 1 left to right, rank 2 right to left: a1 is LED 0, g1 LED 6, g2 LED 7, a2 LED 13, a3 LED 14.
    board = load_board("kingofrings-reed")
    assert [board.cell(n).led for n in ("a1", "g1", "g2", "a2", "a3", "g7")] == [0, 6, 7, 13, 14, 48]


def test_reed_matrix_rows_are_ranks_and_columns_files() -> None:
    board = load_board("spacetiles-reed")
    assert (board.cell("a1").row, board.cell("a1").col) == (0, 0)
    assert (board.cell("i5").row, board.cell("i5").col) == (4, 8)
    assert board.address(board.cell("b2")) == 1 * 9 + 1


def test_cell_positions_follow_the_geometry() -> None:
    # Space Tiles hexes 40 mm apart, each rank shifted half a hex: b2 sits 40 + 20 mm right of a1
    # and 40 * sqrt(3) / 2 = 34.6 mm above it.
    board = load_board("spacetiles-hall")
    a1, b2 = board.cell("a1"), board.cell("b2")
    assert b2.x_mm - a1.x_mm == pytest.approx(60.0)
    assert b2.y_mm - a1.y_mm == pytest.approx(34.6, abs=0.1)


def test_led_frame_lights_the_named_cells_only() -> None:
    board = load_board("flipfour-reed")
    frame = board.led_frame({"c3": (1, 2, 3)})
    assert frame[board.cell("c3").led] == (1, 2, 3)
    assert sum(1 for rgb in frame if rgb != (0, 0, 0)) == 1
    with pytest.raises(ValueError, match="no cell 'z9'"):
        board.led_frame({"z9": (1, 1, 1)})
