"""MicroPython's rp2 port on the emulated RP2040: the firmware deployed the way a user deploys
it, then the main loop answering over USB CDC like a Pico on /dev/ttyACM0."""

from __future__ import annotations

import os
import subprocess
import sys

import serial

from host.doctor.firmware_version import shipped_version
from host.hardware.firmware_config import firmware_config
from host.hardware.loading import load_board
from host.link import DeviceLink
from host.sim.emulated_pico import EmulatedPico
from host.sim.rig import EMULATED_SLOWDOWN, READY_S
from tests.conftest import ROOT

READY = READY_S * EMULATED_SLOWDOWN


def test_a_real_deploy_onto_an_empty_pico_boots_into_the_main_loop() -> None:
    board = load_board("flipfour-reed")
    # An erased Pico with MicroPython just flashed: the filesystem is empty (no main.py).
    with EmulatedPico({"board": "none"}, deployed=False) as pico:
        pico.wait_for("usb", READY)
        bin_dir = os.path.dirname(sys.executable)  # mpremote, as installed with magboard
        done = subprocess.run(
            [sys.executable, "-m", "host.cli", "firmware", "deploy", "--board", board.id,
             "--port", pico.port, "--wait", str(READY)],
            capture_output=True, text=True, cwd=ROOT, timeout=600,
            env={**os.environ, "PATH": bin_dir + os.pathsep + os.environ["PATH"]},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        version = ".".join(map(str, shipped_version() or ()))
        assert done.stdout.strip() == f"board flipfour-reed: firmware {version} running, 5x5 sensors"
        assert [event["reason"] for event in pico.events("boot")] == ["power", "watchdog"]  # mpremote's reset
        # The main loop runs without the REPL: Ctrl-C, Ctrl-D and Ctrl-A are data to it, not commands.
        with serial.Serial(pico.port) as port:
            port.write(b"\r\x03\x03\x04\x01\x00")
        with DeviceLink(pico.port, silence_timeout=READY) as link:
            hello = link.wait_ready(READY)
            assert hello.firmware == shipped_version() and hello.board == board.id
            assert link.ping(b"still here", timeout=READY) >= 0
            assert link.device is not None and link.device.boot_id == hello.boot_id  # no reboot


def test_the_deployed_image_answers_hello_with_its_version_and_board() -> None:
    board = load_board("desdemona-hall")
    with EmulatedPico(firmware_config(board)) as pico, DeviceLink(pico.port, silence_timeout=READY) as link:
        hello = link.wait_ready(READY)
        assert hello.firmware == shipped_version()
        assert (hello.board, hello.rows, hello.cols, hello.config_valid) == ("desdemona-hall", 7, 16, True)
