"""Sensor models: objects on a cell -> reading, and snapshot -> per-cell readings."""

from __future__ import annotations

import pytest

from engines.physical import Thing
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel, SnapshotError

KNIGHT0, KNIGHT1 = Thing("knight", 0), Thing("knight", 1)
SILVER, BIGBLUE = Thing("ring_silver"), Thing("ring_bigblue")
TILE, PIECE0, PIECE1 = Thing("tile"), Thing("piece", 0), Thing("piece", 1)


def model(board_id: str) -> SensorModel:
    return SensorModel(load_board(board_id))


def test_reed_sees_a_knight_and_not_a_ring() -> None:
    reed = model("kingofrings-reed")
    assert reed.reading_of(()) == Reading.EMPTY
    assert reed.reading_of((SILVER,)) == Reading.EMPTY
    assert reed.reading_of((KNIGHT0,)) == Reading.MAGNET
    assert reed.reading_of((KNIGHT1,)) == Reading.MAGNET
    # A knight on its won rings: rings carry no magnet, the knight closes the switch.
    assert reed.reading_of((SILVER, BIGBLUE, KNIGHT1)) == Reading.MAGNET


def test_hall_polarity_tells_whose_knight() -> None:
    # Board file: player 0's knights north down, player 1's south down.
    hall = model("kingofrings-hall")
    assert hall.reading_of((SILVER, KNIGHT0)) == Reading.NORTH
    assert hall.reading_of((SILVER, KNIGHT1)) == Reading.SOUTH
    assert hall.reading_of((SILVER,)) == Reading.EMPTY


def test_hall_polarity_sees_which_side_of_a_stone_is_up() -> None:
    hall = model("desdemona-hall")
    assert hall.reading_of((Thing("stone", 0),)) == Reading.NORTH
    assert hall.reading_of((Thing("stone", 1),)) == Reading.SOUTH
    assert hall.reading_of((Thing("queen", 1),)) == Reading.SOUTH


def test_reed_cannot_see_which_side_of_a_stone_is_up() -> None:
    reed = model("desdemona-reed")
    assert reed.reading_of((Thing("stone", 0),)) == reed.reading_of((Thing("stone", 1),)) == Reading.MAGNET


def test_hall_levels_tell_a_tile_from_a_piece() -> None:
    # spacetiles-hall: tile weak 3000 north (-3000), pieces strong 14000; threshold 1200, strong 7000.
    levels = model("spacetiles-hall")
    assert levels.field((TILE,)) == -3000
    assert levels.reading_of((TILE,)) == Reading.WEAK  # 1200 <= 3000 < 7000
    assert levels.field((TILE, PIECE0)) == -17000
    assert levels.reading_of((TILE, PIECE0)) == Reading.NORTH
    # An opposed tile weakens the piece to 14000 - 3000 = 11000, still above 7000: south.
    assert levels.field((TILE, PIECE1)) == 11000
    assert levels.reading_of((TILE, PIECE1)) == Reading.SOUTH


def test_reed_space_tiles_sees_pieces_only() -> None:
    reed = model("spacetiles-reed")
    assert reed.reading_of((TILE,)) == Reading.EMPTY
    assert reed.reading_of((TILE, PIECE1)) == Reading.MAGNET


@pytest.mark.parametrize(
    ("delta", "expected"),
    [
        (0, Reading.EMPTY),
        (1199, Reading.EMPTY),
        (-1199, Reading.EMPTY),
        (1200, Reading.WEAK),
        (-6999, Reading.WEAK),
        (7000, Reading.SOUTH),
        (-7000, Reading.NORTH),
    ],
)
def test_levels_classification_at_the_thresholds(delta: int, expected: Reading) -> None:
    assert model("spacetiles-hall").classify(delta) == expected


def test_expected_readings_of_a_position() -> None:
    reed = model("flipfour-reed")
    cells: dict[str, tuple[Thing, ...]] = {name: () for name in reed.board.geometry.names}
    cells["c3"] = (Thing("piece", 1),)
    expected = reed.expected(cells)
    assert list(expected) == list(reed.board.geometry.names)
    assert [n for n, r in expected.items() if r != Reading.EMPTY] == ["c3"]
    del cells["a3"]
    with pytest.raises(ValueError, match="says nothing about cell a3"):
        reed.expected(cells)


def test_an_object_the_board_does_not_describe() -> None:
    with pytest.raises(ValueError, match=r"objects\.queen is not described"):
        model("flipfour-hall").reading_of((Thing("queen", 0),))


def test_decode_maps_addresses_to_cells() -> None:
    # kingofrings-hall: cells in rank order on 4 multiplexers of 16, so b1 is mux 0 channel 1 and
    # a3 (the 15th cell) mux 0 channel 14; d4 is cell 24: mux 1 channel 8, snapshot index 24.
    hall = model("kingofrings-hall")
    values = [0] * 64
    values[1], values[14], values[24] = 1, 2, 1
    readings = hall.decode(values)
    assert {n: r for n, r in readings.items() if r != Reading.EMPTY} == {
        "b1": Reading.NORTH,
        "a3": Reading.SOUTH,
        "d4": Reading.NORTH,
    }
    assert hall.encode(readings) == values


def test_decode_rejects_what_the_board_cannot_send() -> None:
    hall = model("kingofrings-hall")
    with pytest.raises(SnapshotError, match="snapshot has 49 values, expected 64"):
        hall.decode([0] * 49)
    with pytest.raises(SnapshotError, match="cell a1 \\(address 0\\) has code 3"):
        hall.decode([3] + [0] * 63)  # weak exists only on a levels board
    assert model("spacetiles-hall").decode([3] + [0] * 47)["a1"] == Reading.WEAK
    with pytest.raises(SnapshotError, match="has code 2"):
        model("kingofrings-reed").decode([2] + [0] * 48)


def test_stray_signals_on_unwired_addresses() -> None:
    hall = model("flipfour-hall")  # 19 cells on 32 addresses: 19..31 are unwired
    values = [0] * 32
    values[3], values[20] = 1, 2
    assert hall.stray(values) == [20]


def test_readings_each_board_can_give() -> None:
    assert model("desdemona-reed").readings == (Reading.EMPTY, Reading.MAGNET)
    assert model("desdemona-hall").readings == (Reading.EMPTY, Reading.NORTH, Reading.SOUTH)
    assert Reading.WEAK in model("spacetiles-hall").readings
