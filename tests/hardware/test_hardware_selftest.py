"""The self-test: every LED lit on the virtual strip, every object read back on every virtual cell."""

from __future__ import annotations

import pytest

from engines.physical import Thing
from host.hardware.loading import board_ids, load_board
from host.sim.selftest import led_walk, probes, run_virtual
from host.sim.virtual_board import SensorPhysics


@pytest.mark.parametrize("board_id", board_ids())
def test_selftest_passes_on_every_board(board_id: str) -> None:
    board = load_board(board_id)
    report = run_virtual(board, seed=1)
    assert report.failures == []
    assert report.leds_lit == report.leds == board.leds.count
    assert report.probes == len(board.cells) * len(probes(board))
    assert report.ok


def test_led_walk_lights_each_led_alone_then_all() -> None:
    frames = led_walk(load_board("flipfour-reed"))
    assert len(frames) == 20
    for i, frame in enumerate(frames[:-1]):
        assert [j for j, rgb in enumerate(frame) if rgb != (0, 0, 0)] == [i]
    assert all(rgb != (0, 0, 0) for rgb in frames[-1])


def test_probes_include_a_piece_on_a_tile() -> None:
    found = probes(load_board("spacetiles-hall"))
    assert (Thing("tile"),) in found
    assert (Thing("tile"), Thing("piece", 1)) in found
    assert len(found) == 3 + 2  # tile, piece 0, piece 1; each piece on a tile


def test_selftest_reports_sensors_that_misread() -> None:
    # Noise of 3000 ADC units swamps the 1500 threshold: empty cells read magnets.
    report = run_virtual(load_board("flipfour-hall"), physics=SensorPhysics(noise=3000.0))
    assert not report.ok
    assert any("expected empty" in failure for failure in report.failures)
