"""The scans the firmware runs on the rp2 port (firmware/hotloops.py: viper on the RP2040's SIO,
ADC and TIMER registers) on the emulated Pico: they read what the plain Python references read,
a period of scanning allocates nothing, and every read waits settle_us after the select change
before it (the emulator stamps each select-line change and each read with its clock)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from host.hardware.firmware_config import firmware_config
from host.hardware.loading import load_board
from host.link import DeviceLink
from host.sim.emulated_pico import EmulatedPico
from host.sim.rig import EMULATED_SLOWDOWN, READY_S

READY = READY_S * EMULATED_SLOWDOWN
PROBE = Path(__file__).with_name("scan_probe.py")
# One register scan with settle_us 0, on the sensor the probe made.
NO_SETTLE_SCAN = "sensor.matrix.settle_us = 0\nfast(sensor.matrix, sensor.raw)"
# Columns on scattered GPIOs: the register scan gathers them bit by bit, not by one shift.
SCATTERED_COLUMNS = [7, 9, 13, 21, 27]


def hall_config() -> dict[str, Any]:
    return firmware_config(load_board("flipfour-hall"))


def reed_config() -> dict[str, Any]:
    return firmware_config(load_board("flipfour-reed"))


def scattered_reed_config() -> dict[str, Any]:
    return {**reed_config(), "col_pins": SCATTERED_COLUMNS}


def random_wiring(config: dict[str, Any], rng: random.Random) -> list[list[int]]:
    rows, cols = config["rows"], config["cols"]
    if config["sensor"] == "hall_analog":
        return [[rng.randint(0, 65535) for _ in range(cols)] for _ in range(rows)]
    return [[rng.randint(0, 1) for _ in range(cols)] for _ in range(rows)]


def wire(pico: EmulatedPico, frame: list[list[int]]) -> None:
    if pico.config["sensor"] == "hall_analog":
        pico.set_analog(frame)
    else:
        pico.set_digital([[bool(v) for v in row] for row in frame])


def expected_raw(config: dict[str, Any], frame: list[list[int]]) -> list[int]:
    """What the firmware reads, by hand: the ADC's 12 bits scaled as read_u16 scales them; a row's
    closed switches as a bit mask."""
    if config["sensor"] == "hall_analog":
        return [((v >> 4) << 4) | (v >> 12) for row in frame for v in row]
    return [sum(1 << c for c, on in enumerate(row) if on) for row in frame]


def run_code(pico: EmulatedPico, code: str, resume: bool = False) -> str:
    """Run code on the Pico's REPL; resume keeps what the code before left (no soft reset)."""
    session = ["resume"] if resume else []
    done = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", pico.port, *session, "exec", code],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr or done.stdout
    return done.stdout


def run_probe(pico: EmulatedPico) -> dict[str, Any]:
    return json.loads(run_code(pico, PROBE.read_text(encoding="utf-8")).strip().splitlines()[-1])


@contextmanager
def toggling(pico: EmulatedPico, frames: list[list[list[int]]], every_s: float) -> Iterator[None]:
    """Switches the wiring from frame to frame every every_s (wall) while the block runs."""
    stop = threading.Event()

    def run() -> None:
        i = 0
        while not stop.wait(every_s):
            i += 1
            wire(pico, frames[i % len(frames)])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize("make_config", [hall_config, reed_config, scattered_reed_config])
def test_the_register_scan_reads_what_the_reference_reads_and_allocates_nothing(make_config: Any) -> None:
    config = make_config()
    rng = random.Random(27)
    frame = random_wiring(config, rng)
    with EmulatedPico(config, boot_main=False) as pico:
        pico.wait_for("usb", READY)
        wire(pico, frame)
        time.sleep(0.1)  # the emulator takes wiring in between its 1 ms batches
        found = run_probe(pico)
        assert found["python"] == expected_raw(config, frame)
        assert found["viper"] == found["python"]
        assert found["bytes"] == 0, f"{found['bytes']} bytes allocated by 300 periods, nothing changing"
        # Sensors changing while it scans: debounce restarts, and settled changes reported.
        with toggling(pico, [frame, random_wiring(config, rng)], every_s=0.03):
            busy = run_probe(pico)
        assert busy["changes"] > 0
        assert busy["bytes"] == 0, f"{busy['bytes']} bytes allocated by 300 periods, sensors changing"
        # The emulator sees a scan without the settle wait read at once after a select change.
        pico.settle(READY)
        run_code(pico, NO_SETTLE_SCAN, resume=True)
        reads, least = pico.settle(READY)
        assert reads >= len(found["python"]) and least is not None and least < 3_000, (reads, least)


def settle_after_scanning(config: dict[str, Any], settle_us: int, reads: int) -> int:
    """The firmware's main loop with settle_us: the least ns from a select change to a read over
    at least that many reads (counted in emulated time: a busy host slows the emulator down)."""
    with (
        EmulatedPico({**config, "settle_us": settle_us}) as pico,
        DeviceLink(pico.port, silence_timeout=READY) as link,
    ):
        link.wait_ready(READY)  # the main loop is scanning
        pico.settle(READY)  # from here on: boot and Pin set-up are not scans
        seen, least = 0, None
        deadline = time.monotonic() + READY
        while seen < reads and time.monotonic() < deadline:
            time.sleep(0.5)
            more, gap = pico.settle(READY)
            seen += more
            if gap is not None and (least is None or gap < least):
                least = gap
        assert seen >= reads and least is not None, f"only {seen} reads"
        return least


@pytest.mark.parametrize("make_config", [hall_config, reed_config])
def test_every_read_waits_settle_us_after_a_select_change(make_config: Any) -> None:
    config = make_config()
    selects = config["rows"] * config["cols"] if config["sensor"] == "hall_analog" else config["rows"]
    least = settle_after_scanning(config, 25, 20 * selects)
    assert 25_000 <= least < 27_000, f"{least} ns from a select change to a read"
