"""`magboard doctor --emulated` runs every check to the end against the emulated Pico: the link
and firmware version, every LED (on the Pico-LED build over the link to its data pin), every
sensor felt through the emulated GPIOs or ADC, and the buttons."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("board", ["flipfour-reed", "spacetiles-hall"])
def test_the_doctor_passes_every_check_on_the_emulated_pico(board: str) -> None:
    result = run_cli("doctor", "--board", board, "--emulated")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[:2] for line in lines[-5:-1]] == [
        ["PASS", "link"], ["PASS", "leds"], ["PASS", "sensors"], ["PASS", "buttons"]
    ], result.stdout  # fmt: skip
    assert lines[-1] == "4 checks: 4 passed, 0 failed, 0 skipped - all checks passed"
    assert f"the emulated Pico: board {board}" in result.stdout
