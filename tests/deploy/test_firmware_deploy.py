"""`magboard firmware deploy`: the mpremote calls, their failure, and the check of what runs."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import firmware
from host.deploy import DeployError, verify
from host.hardware.firmware_config import firmware_config
from host.hardware.loading import load_board
from host.sim.firmware_process import FirmwareProcess
from tests.conftest import run_cli


def test_dry_run_copies_every_device_file_and_the_config_then_resets() -> None:
    result = run_cli("firmware", "deploy", "--board", "flipfour-reed", "--port", "/dev/ttyACM0", "--dry-run")
    assert result.returncode == 0, result.stderr
    copy, reset = result.stdout.strip().splitlines()
    assert copy.startswith("mpremote connect /dev/ttyACM0 cp ") and copy.endswith("board_config.json :")
    assert [Path(word).name for word in copy.split()[4:-2]] == list(firmware.DEVICE_FILES)
    # A hard reset with Ctrl-C off, so the host link's first frames cannot cancel it.
    assert reset.startswith("mpremote connect /dev/ttyACM0 exec --no-follow ")
    assert "kbd_intr(-1)" in reset and reset.endswith("machine.reset()'")


def test_a_failing_mpremote_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "mpremote"
    fake.write_text("#!/bin/sh\necho 'mpremote: no device found' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    result = run_cli("firmware", "deploy", "--board", "flipfour-reed")
    assert result.returncode == 2
    assert result.stderr.strip().endswith("failed: mpremote: no device found")


def test_the_check_accepts_the_pico_running_this_board() -> None:
    board = load_board("flipfour-hall")
    with FirmwareProcess(firmware_config(board)) as pico:
        hello = verify(board, pico.port)
    assert hello.board == "flipfour-hall" and hello.config_valid


def test_the_check_refuses_a_pico_configured_for_another_board() -> None:
    with (
        FirmwareProcess(firmware_config(load_board("flipfour-hall"))) as pico,
        pytest.raises(DeployError, match="did not come back as board flipfour-reed"),
    ):
        verify(load_board("flipfour-reed"), pico.port, timeout=2.0)
