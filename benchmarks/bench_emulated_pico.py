"""The firmware on the emulated Pico, measured in emulated time (125 MHz, rp2040js): what a real
Pico would take, whatever the host's speed.

    .venv/bin/python benchmarks/bench_emulated_pico.py [--boards ID,...] [--changes N]

For each board build:
1. sensor.update() per scan period (scan, classify, debounce) and the bare scan, in us and
   cycles, and heap bytes allocated per period, idle and with a contact toggling
   (firmware/sim/measure_on_pico.py run with mpremote on the emulated Pico).
2. Change -> STATE latency: a cell's sensor changes on the emulated GPIOs or ADC at a random
   moment; the time until the USB CDC transfer that completes the STATE frame saying so, both
   stamped by the emulator's clock. p50 and p99 over N changes (the firmware's debounce_ms is
   part of it by design).

Needs node, emulator/node_modules (npm ci --prefix emulator) and ../shared/rp2040.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import serial

from host.hardware.firmware_config import firmware_config
from host.hardware.loading import load_board
from host.hardware.spec import BoardSpec
from host.link.frames import decode_frame
from host.link.messages import State, parse_device_message
from host.sim.emulated_pico import FIRMWARE_DIR, EmulatedPico, missing
from host.sim.firmware_process import empty_board

CYCLES_PER_US = 125
PROBE = FIRMWARE_DIR / "sim" / "measure_on_pico.py"
DEFAULT_BOARDS = "desdemona-reed,desdemona-hall"


def mpremote_exec(port: str, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port, "exec", code],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    if done.returncode:
        raise SystemExit(f"mpremote exec failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def wiring(pico: EmulatedPico, board: BoardSpec, on: bool) -> None:
    """The empty board, with the first cell's sensor felt (a closed switch, a strong south pole)."""
    frame = empty_board(pico.config)
    cell = board.cells[0]
    row, col = divmod(board.address(cell), board.sensor.cols)
    if board.sensor.analog:
        if on:
            frame[row][col] = min(65535, frame[row][col] + 12000)
        pico.set_analog(frame)
    else:
        frame[row][col] = 1 if on else 0
        pico.set_digital([[bool(v) for v in line] for line in frame])


def scan_cost(board: BoardSpec) -> dict[str, Any]:
    config = firmware_config(board)
    code = PROBE.read_text(encoding="utf-8")
    with EmulatedPico(config, boot_main=False) as pico:
        pico.wait_for("usb", 120)
        idle = json.loads(mpremote_exec(pico.port, code).strip().splitlines()[-1])
        stop = threading.Event()

        def toggle() -> None:
            on = False
            while not stop.is_set():
                on = not on
                wiring(pico, board, on)
                time.sleep(0.002)

        thread = threading.Thread(target=toggle, daemon=True)
        thread.start()
        try:
            busy = json.loads(mpremote_exec(pico.port, code).strip().splitlines()[-1])
        finally:
            stop.set()
            thread.join()
    return {
        "board": board.id,
        "sensors": idle["sensors"],
        "scan_period_us": idle["scan_period_us"],
        "us_per_update": idle["us_per_update"],
        "cycles_per_update": round(idle["us_per_update"] * CYCLES_PER_US),
        "us_per_bare_scan": idle["us_per_bare_scan"],
        "bytes_per_update_idle": idle["bytes_per_update"],
        "bytes_per_update_toggling": busy["bytes_per_update"],
        "us_per_update_toggling": busy["us_per_update"],
    }


class StateTimes:
    """The STATE frames the Pico sent, each stamped with the emulated time of the USB transfer
    that completed it, and the value they give the first cell."""

    def __init__(self, pico: EmulatedPico, port: serial.Serial, board: BoardSpec) -> None:
        self.pico = pico
        self.port = port
        self.address = board.address(board.cells[0])
        self.pending = bytearray()
        self.received = 0  # bytes read from the port, all of them traced as USB transfers
        self.states: list[tuple[int, int]] = []  # (emulated ns, value of the first cell)

    def poll(self) -> None:
        data = self.port.read(max(1, self.port.in_waiting))
        if not data:
            return
        # The emulator reports each USB transfer on its control socket, which may lag the bytes.
        wanted = self.received + len(data)
        deadline = time.monotonic() + 10
        while (ends := self._transfer_ends())[-1:] and ends[-1][0] < wanted and time.monotonic() < deadline:
            time.sleep(0.001)
        for byte in data:
            self.received += 1
            if byte:
                self.pending.append(byte)
                continue
            chunk = bytes(self.pending)
            self.pending.clear()
            stamp = next((t for end, t in ends if end >= self.received), None)
            if not chunk or stamp is None:
                continue
            try:
                message = parse_device_message(decode_frame(chunk))
            except ValueError:
                continue
            if isinstance(message, State):
                self.states.append((stamp, message.values[self.address]))

    def _transfer_ends(self) -> list[tuple[int, int]]:
        """(bytes sent so far, emulated ns) at the end of every USB transfer to the host."""
        ends = []
        total = 0
        for event in self.pico.events("tx"):
            total += int(event["n"])
            ends.append((total, int(event["t"])))
        return ends


def latency(board: BoardSpec, changes: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    config = firmware_config(board)
    with EmulatedPico(config) as pico:
        pico.trace(True)
        with serial.Serial(pico.port, timeout=0.05) as port:
            times = StateTimes(pico, port, board)
            deadline = time.monotonic() + 300
            while not times.states and time.monotonic() < deadline:
                times.poll()
            samples = []
            on = False
            for _ in range(changes):
                pause = time.monotonic() + rng.uniform(0.05, 0.25)
                while time.monotonic() < pause:
                    times.poll()
                on = not on
                mark = pico.event_count
                wiring(pico, board, on)
                wired = int(pico.wait_for("wired", 60, mark)["t"])
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    times.poll()
                    done = [t for t, value in times.states if t >= wired and (value != 0) == on]
                    if done:
                        samples.append((done[0] - wired) / 1e6)
                        break
    samples.sort()
    return {
        "board": board.id,
        "debounce_ms": config.get("debounce_ms"),
        "scan_period_us": config.get("scan_period_us"),
        "changes": len(samples),
        "p50_ms": round(statistics.median(samples), 2),
        "p99_ms": round(samples[min(len(samples) - 1, int(len(samples) * 0.99))], 2),
        "max_ms": round(samples[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--boards", default=DEFAULT_BOARDS, help="comma-separated board ids")
    parser.add_argument("--changes", type=int, default=40, help="cell changes timed per board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    reason = missing()
    if reason is not None:
        raise SystemExit(f"cannot emulate a Pico: {reason}")
    for board_id in args.boards.split(","):
        board = load_board(board_id)
        print(json.dumps(scan_cost(board)), flush=True)
        print(json.dumps(latency(board, args.changes, args.seed)), flush=True)


if __name__ == "__main__":
    main()
