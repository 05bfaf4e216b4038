"""One factory, chosen once, builds the hardware: each flavour its own link, LEDs and buttons."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engines.physical import Thing
from host.cli import main
from host.drivers import gpio_buttons, neopixel_strip
from host.drivers.link_strip import LinkStrip
from host.hardware.loading import load_board
from host.sim.reach import SimulatedReach
from host.sim.rig import READY_S
from host.sim.virtual_buttons import VirtualButtons
from host.sim.virtual_leds import VirtualStrip
from host.wiring.hardware import RealHardware, SimulatedHardware, choose_hardware


@pytest.mark.parametrize(
    ("serial", "emulated", "seed", "chosen"),
    [
        (None, False, 0, SimulatedHardware(0, emulated=False)),
        (None, True, 7, SimulatedHardware(7, emulated=True)),
        ("auto", False, 7, RealHardware(None)),  # found by USB id
        ("/dev/ttyACM3", False, 0, RealHardware("/dev/ttyACM3")),
    ],
)
def test_the_command_line_chooses_the_flavour_once(
    serial: str | None, emulated: bool, seed: int, chosen: object
) -> None:
    assert choose_hardware(serial, emulated=emulated, seed=seed) == chosen


def test_a_real_port_and_an_emulated_pico_together_are_refused() -> None:
    with pytest.raises(ValueError, match="leave out --serial"):
        choose_hardware("auto", emulated=True)


def test_the_simulated_flavour_is_the_rig_set_up_as_the_player_left_it() -> None:
    board = load_board("flipfour-hall")
    standing = {"d4": (Thing("piece", 0),)}
    with SimulatedHardware(seed=1).open(board, standing=standing) as hardware:
        assert isinstance(hardware.reach, SimulatedReach)
        rig = hardware.reach.rig
        assert hardware.where == "the simulated board"
        assert (hardware.slowdown, hardware.ready_s) == (1.0, READY_S)
        assert hardware.link.wait_ready(hardware.ready_s).board == board.id
        assert isinstance(hardware.strip(board), VirtualStrip) and hardware.strip(board) is rig.leds
        assert isinstance(hardware.buttons(board), VirtualButtons) and hardware.buttons(board) is rig.buttons
        with rig.lock:
            assert rig.virtual.cells()["d4"] == standing["d4"]
        assert hardware.reach.standing()["d4"] == standing["d4"]
        hardware.reach.place("c1", Thing("piece", 1))
        assert hardware.reach.lift("d4") == Thing("piece", 0)
        with rig.lock:
            assert (rig.virtual.stack("c1"), rig.virtual.stack("d4")) == ((Thing("piece", 1),), ())
        hardware.reach.press("hint")
        assert [press.button for press in rig.buttons.poll()] == ["hint"]
        assert hardware.reach.hands is hardware.reach.hands  # one pair of hands: what they hold is shared


# Everything a real board's `magboard play` and `magboard doctor` load, the page included, and the
# real flavour opened with a Pico-driven chain over its link.
REAL_PATH = """
import sys
from host.cli import main
import host.commands.play, host.commands.doctor, host.doctor.checks, host.web.play_page, host.web.table_page
from host.hardware.loading import load_board
from host.wiring.hardware import choose_hardware
with choose_hardware("/nonexistent/tty").open(None) as hardware:
    hardware.strip(load_board("flipfour-reed"))
print(" ".join(sorted(name for name in sys.modules if name.split(".")[:2] == ["host", "sim"])))
"""


def test_a_real_board_loads_nothing_of_the_simulator() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", REAL_PATH], cwd=root, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == [], "the real path loaded the simulator's modules"


def test_the_simulated_flavour_needs_a_board_file() -> None:
    with pytest.raises(ValueError, match="needs a board file"), SimulatedHardware().open(None):
        pass


def test_the_real_flavour_drives_a_pico_chain_over_the_link_and_the_rest_on_this_pi(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(neopixel_strip, "open_strip", lambda board: opened.append(f"strip {board.id}"))
    monkeypatch.setattr(gpio_buttons, "open_buttons", lambda board: opened.append(f"buttons {board.id}"))
    pico_chain, pi_chain = load_board("flipfour-reed"), load_board("flipfour-hall")
    with RealHardware("/nonexistent/tty").open(None) as hardware:
        assert (hardware.where, hardware.reach, hardware.slowdown) == ("/nonexistent/tty", None, 1.0)
        assert isinstance(hardware.strip(pico_chain), LinkStrip)
        assert not opened  # nothing on this Pi opened until asked for
        hardware.buttons(pi_chain)
    with RealHardware("/nonexistent/tty").open(pi_chain) as hardware:
        hardware.strip(pi_chain)
    assert opened == ["buttons flipfour-hall", "strip flipfour-hall"]


@pytest.mark.parametrize("command", [["doctor"], ["play", "flipfour", "--terminal"]])
def test_doctor_and_play_refuse_a_real_port_with_an_emulated_pico(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--serial", "auto", "--emulated"]) != 0
    error = capsys.readouterr().err
    assert error.startswith(f"magboard {command[0]}: --emulated") and "leave out --serial" in error
