"""Putting the firmware and a board's configuration on a Pico, and checking what runs there.

mpremote (MicroPython's own tool) copies the files over the Pico's raw REPL;
then the host opens the serial link as it does for play and asks the device
who it is: the board id, the sensor shape and the firmware version must be the
ones just deployed, or the deploy failed whatever mpremote said.
"""

from __future__ import annotations

import shutil
import sys
import time
from importlib.util import find_spec
from pathlib import Path

import firmware
from host.doctor.firmware_version import shipped_version, version_text
from host.hardware.spec import BoardSpec
from host.link.device_link import DeviceLink
from host.link.expectation import Expectation
from host.link.messages import Hello

FIRMWARE_DIR = Path(firmware.__file__).resolve().parent
READY_S = 10.0
# mpremote's own `reset` sleeps 100 ms first (so its answer leaves the USB): a Ctrl-C in that time,
# which any frame the host link sends may hold, would cancel it. Ctrl-C goes off first, and the
# link opens only once the reset code has surely got that far (RESET_S).
RESET = (
    "import micropython; micropython.kbd_intr(-1); import time, machine; time.sleep_ms(100); machine.reset()"
)
RESET_S = 1.0


class DeployError(RuntimeError):
    """What went wrong, in one line for the command line."""


def mpremote() -> list[str]:
    """The command that runs mpremote here."""
    found = shutil.which("mpremote")
    if found is not None:
        return [found]
    if find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    raise DeployError("mpremote is not installed: pip install 'magboard[pi]' (or pip install mpremote)")


def commands(tool: list[str], port: str | None, config: Path) -> list[list[str]]:
    """The mpremote calls that copy every device file and the config to the Pico, then reset it."""
    connect = [*tool, "connect", port or "auto"]
    files = [str(FIRMWARE_DIR / name) for name in firmware.DEVICE_FILES]
    return [[*connect, "cp", *files, str(config), ":"], [*connect, "exec", "--no-follow", RESET]]


def verify(board: BoardSpec, port: str | None, timeout: float = READY_S) -> Hello:
    """The device's HELLO once it runs the shipped firmware with this board's configuration."""
    expect = Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)
    time.sleep(RESET_S)
    with DeviceLink(port, expect=expect) as link:
        try:
            hello = link.wait_ready(timeout)
        except TimeoutError as exc:
            raise DeployError(f"the Pico did not come back as board {board.id}: {exc}") from None
    shipped = shipped_version()
    if shipped is not None and hello.firmware != shipped:
        raise DeployError(
            f"the Pico runs firmware {version_text(hello.firmware)}, this host ships {version_text(shipped)}"
        )
    if not hello.config_valid:
        raise DeployError(f"the Pico refused its board_config.json (board {hello.board})")
    return hello
