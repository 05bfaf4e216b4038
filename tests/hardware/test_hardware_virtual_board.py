"""The simulated board: objects on cells produce raw frames with bounce, ramps, offsets and noise."""

from __future__ import annotations

import statistics

import pytest

from engines.physical import Thing
from host.hardware import calibration
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.sim.virtual_board import SensorPhysics, SimClock, VirtualBoard

KNIGHT = Thing("knight", 0)
STONE_BLACK, STONE_WHITE = Thing("stone", 0), Thing("stone", 1)


def test_reed_frame_after_bounce_shows_the_magnet() -> None:
    board = load_board("kingofrings-reed")
    clock = SimClock()
    vb = VirtualBoard(board, clock, seed=1)
    vb.place("c2", KNIGHT)
    clock.advance(vb.physics.bounce_us)
    frame = vb.frame()
    assert len(frame) == 7 and all(len(row) == 7 for row in frame)
    # c2 is rank 2, file c: matrix row 1, column 2.
    assert [(r, c) for r in range(7) for c in range(7) if frame[r][c]] == [(1, 2)]
    assert vb.flat_frame()[1 * 7 + 2] == 1


def test_reed_contact_bounces_then_settles() -> None:
    board = load_board("kingofrings-reed")
    clock = SimClock()
    vb = VirtualBoard(board, clock, seed=7, physics=SensorPhysics(bounce_us=3000))
    vb.place("a1", KNIGHT)
    during = []
    for _ in range(15):  # every 200 us through the 3 ms of bounce
        during.append(vb.flat_frame()[0])
        clock.advance(200)
    assert set(during) == {0, 1}
    after = []
    for _ in range(20):
        after.append(vb.flat_frame()[0])
        clock.advance(200)
    assert set(after) == {1}


def test_frames_repeat_exactly_for_the_same_seed_and_times() -> None:
    board = load_board("desdemona-hall")

    def run(seed: int) -> list[list[int]]:
        clock = SimClock()
        vb = VirtualBoard(board, clock, seed=seed)
        frames = []
        vb.place("e5", STONE_WHITE)
        for _ in range(5):
            clock.advance(1000)
            frames.append(vb.flat_frame())
        return frames

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_hall_field_ramps_while_a_stone_comes_down() -> None:
    # desdemona-hall: a white stone puts its south pole down, +12000 ADC units once down.
    board = load_board("desdemona-hall")
    clock = SimClock()
    quiet = SensorPhysics(noise=0.0, offset_spread=0.0, ramp_us=20_000)
    vb = VirtualBoard(board, clock, physics=quiet)
    address = board.address(board.cell("e5"))
    assert vb.flat_frame()[address] == 32768
    vb.place("e5", STONE_WHITE)
    clock.advance(10_000)
    assert vb.flat_frame()[address] == 32768 + 6000
    clock.advance(10_000)
    assert vb.flat_frame()[address] == 32768 + 12000
    vb.lift("e5")
    vb.place("e5", STONE_BLACK)  # turned over in one go: the field swings from +12000 to -12000
    clock.advance(5_000)
    assert vb.flat_frame()[address] == 32768 + 12000 - 6000
    clock.advance(15_000)
    assert vb.flat_frame()[address] == 32768 - 12000


def test_noise_and_offsets_have_the_configured_spread() -> None:
    board = load_board("desdemona-hall")
    clock = SimClock()
    vb = VirtualBoard(board, clock, seed=5, physics=SensorPhysics(noise=100.0, offset_spread=600.0))
    samples = []
    for _ in range(400):
        samples.append(vb.flat_frame()[0])
        clock.advance(1000)
    assert statistics.mean(samples) == pytest.approx(32768 + vb.offsets[0], abs=20)
    assert statistics.pstdev(samples) == pytest.approx(100, rel=0.15)
    assert statistics.pstdev(vb.offsets) == pytest.approx(600, rel=0.25)


def test_calibrated_readings_of_a_whole_position() -> None:
    board = load_board("spacetiles-hall")
    clock = SimClock()
    vb = VirtualBoard(board, clock, seed=11)
    zeros = calibration.from_frames(board, [vb.flat_frame() for _ in range(3)])
    vb.set_position(
        {"d3": (Thing("tile"),), "e3": (Thing("tile"), Thing("piece", 1)), "f3": (Thing("tile"),)}
    )
    clock.advance(vb.physics.settle_us)
    readings = SensorModel(board).decode(calibration.codes(zeros, vb.flat_frame()))
    assert {n: r for n, r in readings.items() if r != Reading.EMPTY} == {
        "d3": Reading.WEAK,
        "e3": Reading.SOUTH,
        "f3": Reading.WEAK,
    }


def test_place_lift_and_their_errors() -> None:
    vb = VirtualBoard(load_board("kingofrings-reed"), SimClock())
    vb.place("d4", Thing("ring_bigblue"))
    vb.place("d4", KNIGHT)
    assert vb.stack("d4") == (Thing("ring_bigblue"), KNIGHT)
    assert vb.lift("d4") == KNIGHT
    with pytest.raises(ValueError, match="no cell 'h8'"):
        vb.place("h8", KNIGHT)
    with pytest.raises(ValueError, match="no objects of kind 'stone'"):
        vb.place("a1", Thing("stone", 0))
    with pytest.raises(ValueError, match="cell a1 is empty"):
        vb.lift("a1")
    with pytest.raises(ValueError, match="no cell 'z1'"):
        vb.set_position({"z1": ()})


def test_a_forced_sensor_reads_the_fault() -> None:
    clock = SimClock()
    vb = VirtualBoard(load_board("flipfour-reed"), clock)
    vb.force("c3", 1)
    assert vb.flat_frame()[2 * 5 + 2] == 1
    vb.force("c3", None)
    assert vb.flat_frame()[2 * 5 + 2] == 0


def test_unwired_addresses() -> None:
    # flipfour-reed uses 19 of 25 matrix positions; a5's row 4 column 0 is wired, row 0 column 0 is not.
    board = load_board("flipfour-reed")
    vb = VirtualBoard(board, SimClock())
    assert vb.frame()[0][0] == 0
    hall = VirtualBoard(
        load_board("flipfour-hall"), SimClock(), physics=SensorPhysics(noise=0, offset_spread=0)
    )
    assert hall.flat_frame()[31] == 32768  # an idle channel still reads mid-scale


def test_sim_clock_only_goes_forward() -> None:
    clock = SimClock(5)
    assert clock.advance(10) == 15 == clock()
    with pytest.raises(ValueError):
        clock.advance(-1)
