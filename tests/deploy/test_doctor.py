"""`magboard doctor` on the simulated board: it passes a sound board and names each injected fault."""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from types import SimpleNamespace

import pytest

from host.cli import main
from host.doctor.bench import Bench, open_bench
from host.doctor.checks import BUTTONS, LEDS, LINK, SENSORS, check_link, run_checks
from host.doctor.firmware_version import shipped_version
from host.doctor.report import CheckResult, Report, Status
from host.doctor.tester import PersonTester, ReachingTester
from host.drivers.interfaces import RGB, LedStrip
from host.hardware.loading import load_board
from host.link.status import LinkError
from host.sim.reach import SimulatedReach
from host.wiring.hardware import Hardware, SimulatedHardware

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


class CrossedButtons(ReachingTester):
    """Hands whose press of ``asked`` closes the ``wired`` button instead (two wires swapped)."""

    def __init__(self, reach: SimulatedReach, *, asked: str, wired: str) -> None:
        super().__init__(reach, wait_s=1.0)
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
        reach = bench.hardware.reach
        assert isinstance(reach, SimulatedReach)
        rig = reach.rig
        # d1 (mux 0, channel 1) reads its own zero whatever is on it: dead. e1 (channel 2) reads
        # ADC 0, a field far beyond the 1500 threshold, with nothing on it: stuck.
        d1 = board.address(board.cell("d1"))
        with rig.lock:
            rig.virtual.force("d1", board.sensor.zero_nominal + rig.virtual.offsets[d1])
            rig.virtual.force("e1", 0)
        bench.hardware.make_strip = lambda _board: DeadLed(rig.leds, board.cell("e2").led)
        bench.tester = CrossedButtons(reach, asked="hint", wired="take_back")
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


class PacedLink:
    """A device that says HELLO ``hello_s`` after it is asked and its first STATE ``settle_s`` later
    (None: never), heard from all along unless ``silent``."""

    def __init__(self, hello_s: float | None, settle_s: float | None, *, silent: bool = False) -> None:
        self.hello_s, self.settle_s, self.silent = hello_s, settle_s, silent
        self.hello_at: float | None = None
        self.hello = SimpleNamespace(
            board=BOARD,
            rows=4,
            cols=5,
            sensor=SimpleNamespace(name="HALL_ANALOG"),
            firmware=shipped_version(),
        )

    def wait_ready(self, timeout: float) -> SimpleNamespace:
        if self.hello_s is None or self.hello_s > timeout:
            time.sleep(timeout)
            raise TimeoutError("no device answered")
        time.sleep(self.hello_s)
        self.hello_at = time.monotonic()
        return self.hello

    def _since_hello(self) -> float:
        return 0.0 if self.hello_at is None else time.monotonic() - self.hello_at

    @property
    def latest(self) -> object | None:
        settled = self.settle_s is not None and self._since_hello() >= self.settle_s
        return object() if settled else None

    @property
    def device(self) -> SimpleNamespace | None:
        return None if self.silent and self._since_hello() > 0.05 else self.hello

    def ping(self, timeout: float) -> float:
        """As the firmware: commands are served once the sensors have settled (its first STATE)."""
        if self.latest is None:
            time.sleep(timeout)
            raise LinkError(f"Ping: no answer within {timeout} s")
        return 0.002


def paced_bench(link: PacedLink) -> Bench:
    """A bench whose device is expected within 0.2 s (READY_S at a slowdown of 0.02)."""
    unused = lambda _board: pytest.fail("the link check opened the LEDs or the buttons")  # noqa: E731
    hardware = Hardware("the paced board", link, unused, unused, slowdown=0.02)  # type: ignore[arg-type]
    return Bench(hardware, ReachingTester.__new__(ReachingTester), load_board(BOARD))


def test_a_firmware_slow_to_boot_is_waited_for_until_its_sensors_settle() -> None:
    # HELLO after 0.15 s of the 0.2 s allowed, settled 1.5 s later (an emulated Pi's userland: HELLO
    # after 37-52 s of the 100 s allowed, settled 57-84 s later); pinged before, it would not answer.
    result = check_link(paced_bench(PacedLink(0.15, 1.5)))
    assert result.status is Status.PASS, result
    assert result.summary.startswith(
        f"the paced board: board {BOARD}, 4x5 hall_analog, firmware 0.1.0, ping 2.0 ms"
    )


@pytest.mark.parametrize(
    ("link", "says"),
    [
        (PacedLink(None, None), "no board answered on the paced board within 0.2 s: no device answered"),
        (PacedLink(0.01, 1.0, silent=True), f"board {BOARD} on the paced board said HELLO, then went silent"),
        (
            PacedLink(0.01, None),
            f"board {BOARD} on the paced board said HELLO, then sent no sensor state within 2 s",
        ),
    ],
    ids=["dead", "silent after its hello", "never settles"],
)
def test_a_firmware_that_does_not_answer_fails_the_link_with_a_clear_line(link: PacedLink, says: str) -> None:
    started = time.monotonic()
    result = check_link(paced_bench(link))
    assert result.status is Status.FAIL and result.summary.startswith(says), result
    assert time.monotonic() - started < 5.0
