"""The firmware's tests again, under the real MicroPython interpreter.

CPython is more forgiving than MicroPython (and has more library); running the
same test modules under `micropython` proves the firmware, the simulated
RP2040 and the tests use only what a Pico has.
"""

import re
import subprocess
from pathlib import Path

import firmware
from host.sim.firmware_process import micropython_executable

HERE = Path(__file__).resolve().parent
MODULES = sorted(p.stem for p in HERE.glob("test_fw_*.py") if p.stem != "test_fw_micropython")


def test_the_firmware_tests_pass_under_micropython() -> None:
    assert len(MODULES) >= 7, MODULES
    result = subprocess.run(
        [micropython_executable(), "-X", "heapsize=4M", str(HERE / "mpy_runner.py"), *MODULES],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=HERE,
    )
    output = result.stdout + result.stderr
    summary = re.search(r"RESULT (\d+) (\d+)", output)
    assert summary is not None, output
    assert result.returncode == 0 and summary.group(2) == "0", output
    assert int(summary.group(1)) >= 40, output


def test_the_viper_loops_equal_their_python_references_under_micropython() -> None:
    result = subprocess.run(
        [micropython_executable(), "-X", "heapsize=4M", str(HERE / "mpy_runner.py"), "viper_reference"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=HERE,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0 and "RESULT 12 0" in output, output


def test_the_device_file_list_is_the_whole_firmware() -> None:
    """DEVICE_FILES is what gets copied to a Pico: it must name every firmware module, nothing else."""
    on_disk = {p.name for p in Path(firmware.__file__).parent.glob("*.py") if p.name != "__init__.py"}
    assert set(firmware.DEVICE_FILES) == on_disk
