"""`magboard doctor` on the simulated board: it passes a sound board and names each injected fault."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest

from host.cli import main
from host.doctor.bench import open_bench
from host.doctor.checks import BUTTONS, LEDS, LINK, SENSORS, run_checks
from host.doctor.report import CheckResult, Report, Status
from host.doctor.tester import PersonTester, SimulatedTester
from host.drivers.interfaces import RGB, LedStrip
from host.hardware.loading import load_board
from host.sim.rig import Rig
from host.wiring.hardware import SimulatedHardware

BOARD = "flipfour-hall"  # 19 cells: the quickest Hall board


class DeadLed:
    """A strip whose LED ``index`` never lights, whatever it is shown (a broken pixel)."""

    def __init__(self, strip: LedStrip, index: int) -> None:
        self.strip = strip
        self.index = index

    @property
    def count(self) -> int:
        return self.strip.count

    def show(self, frame: Sequence[RGB]) -> None:
        colours = list(frame)
        colours[self.index] = (0, 0, 0)
        self.strip.show(colours)

    def close(self) -> None:
        self.strip.close()


class CrossedButtons(SimulatedTester):
    """Hands whose press of ``asked`` closes the ``wired`` button instead (two wires swapped)."""

    def __init__(self, rig: Rig, *, asked: str, wired: str) -> None:
        super().__init__(rig, wait_s=1.0)
        self.asked, self.wired = asked, wired

    def press(self, button: str) -> None:
        super().press(self.wired if button == self.asked else button)


def test_doctor_passes_a_sound_simulated_board(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["doctor", "--board", BOARD])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert [line.split()[:2] for line in lines[:4]] == [
        ["PASS", LINK], ["PASS", LEDS], ["PASS", SENSORS], ["PASS", BUTTONS],
    ]  # fmt: skip
    assert "firmware 0.1.0" in lines[0]
    assert "all 19 LEDs lit" in lines[1]
    assert "all 19 sensors" in lines[2]
    assert lines[-1] == "4 checks: 4 passed, 0 failed, 0 skipped - all checks passed"


def test_doctor_names_a_dead_sensor_a_stuck_sensor_a_dark_led_and_crossed_buttons() -> None:
    board = load_board(BOARD)
    with open_bench(SimulatedHardware(seed=3), board, io.StringIO(), io.StringIO()) as bench:
        rig = bench.rig
        assert rig is not None
        # d1 (mux 0, channel 1) reads its own zero whatever is on it: dead. e1 (channel 2) reads
        # ADC 0, a field far beyond the 1500 threshold, with nothing on it: stuck.
        d1 = board.address(board.cell("d1"))
        with rig.lock:
            rig.virtual.force("d1", board.sensor.zero_nominal + rig.virtual.offsets[d1])
            rig.virtual.force("e1", 0)
        bench.hardware.make_strip = lambda _board: DeadLed(rig.leds, board.cell("e2").led)
        bench.tester = CrossedButtons(rig, asked="hint", wired="take_back")
        report = run_checks(bench)

    assert report.result(LINK).status is Status.PASS
    leds = report.result(LEDS)
    assert leds.status is Status.FAIL
    assert leds.details == ["e2: LED 3 stayed dark"]
    sensors = report.result(SENSORS)
    assert sensors.status is Status.FAIL
    assert sensors.summary == "2 of 19 sensors failed"
    assert sensors.details == [
        "e1: reads north with nothing on it",
        "d1: read empty with a piece on it, expected north",
    ]
    buttons = report.result(BUTTONS)
    assert buttons.status is Status.FAIL
    assert buttons.details == ["hint (GPIO 13): the take_back button answered (wires swapped?)"]
    assert not report.ok
    assert report.lines()[-1] == "4 checks: 1 passed, 3 failed, 0 skipped - the board needs attention"


def test_a_skipped_check_is_not_a_pass() -> None:
    report = Report([CheckResult(LINK, Status.PASS, "fine"), CheckResult(SENSORS, Status.SKIP, "no link")])
    assert not report.ok
    assert report.lines()[1] == "SKIP  sensors  no link"


def test_a_person_names_the_dark_leds_and_is_asked_again_for_an_unknown_cell() -> None:
    out = io.StringIO()
    person = PersonTester(io.StringIO("z9\nc1, d1\n"), out, led_s=0)
    assert person.dark_cells(["c1", "d1", "e1"]) == ["c1", "d1"]
    assert "no cell z9 on this board" in out.getvalue()
    assert PersonTester(io.StringIO("\n"), out, led_s=0).dark_cells(["c1"]) == []
    assert PersonTester(io.StringIO(""), out, led_s=0).dark_cells(["c1"]) is None
