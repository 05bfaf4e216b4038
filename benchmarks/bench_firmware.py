"""Firmware benchmark: cost of a scan, memory allocated per scan, end-to-end latency.

    .venv/bin/python benchmarks/bench_firmware.py [--samples N]

1. Register/pin/ADC operations per scan of a 10x10 matrix, and heap bytes
   allocated per loop period, measured under the real MicroPython interpreter
   (firmware/sim/measure_scan.py: the real Device.step() on the simulated
   RP2040, gc.mem_free() around runs of 100 and 300 periods).
2. Latency from a cell change on the simulated matrix to the host link handing
   on the snapshot: the real firmware under MicroPython on a pseudo-terminal,
   the real DeviceLink through pyserial. Reported with and without the 5 ms
   debounce the firmware must wait by design.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import threading
import time
from pathlib import Path

from stats import percentile  # benchmarks/stats.py: a script has its own folder on the path

from host.link import DeviceLink, Snapshot
from host.sim.firmware_process import FIRMWARE_DIR, FirmwareProcess, micropython_executable

ROWS = COLS = 10
DEBOUNCE_MS = 5
CONFIG = {
    "version": 1,
    "board": "bench-reed",
    "sensor": "reed",
    "rows": ROWS,
    "cols": COLS,
    "row_pins": list(range(ROWS)),
    "col_pins": list(range(10, 10 + COLS)),
    "debounce_ms": DEBOUNCE_MS,
    "scan_period_us": 1000,
    "heartbeat_ms": 1000,
}


def scan_costs() -> list[dict]:
    probe = Path(FIRMWARE_DIR) / "sim" / "measure_scan.py"
    # stdin: an open pipe with nothing in it, like an idle USB port.
    with subprocess.Popen(
        [micropython_executable(), str(probe), str(FIRMWARE_DIR)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        out, err = proc.communicate(timeout=300)
    if proc.returncode:
        raise SystemExit(f"measure_scan.py failed:\n{err}")
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def latency(samples: int) -> list[float]:
    arrived = threading.Event()
    received: list[tuple[float, Snapshot]] = []

    def on_snapshot(snapshot: Snapshot) -> None:
        received.append((time.monotonic(), snapshot))
        arrived.set()

    rng = random.Random(7)
    closed = [[False] * COLS for _ in range(ROWS)]
    out: list[float] = []
    with FirmwareProcess(CONFIG) as firmware, DeviceLink(firmware.port, on_snapshot=on_snapshot) as link:
        link.wait_ready(10)
        link.next_snapshot(10)
        for _ in range(samples):
            r, c = rng.randrange(ROWS), rng.randrange(COLS)
            closed[r][c] = not closed[r][c]
            expected = tuple(int(v) for row in closed for v in row)
            arrived.clear()
            start = time.monotonic()
            firmware.set_digital(closed)
            while True:
                if not arrived.wait(2.0):
                    raise SystemExit("a change never arrived")
                arrived.clear()
                if received[-1][1].values == expected:
                    break
            out.append(received[-1][0] - start)
            time.sleep(rng.uniform(0.01, 0.03))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--samples", type=int, default=300, help="cell changes timed end to end (default 300)"
    )
    args = parser.parse_args()

    print("Scan cost under MicroPython (simulated RP2040, 10x10):")
    for row in scan_costs():
        ops = row["ops_per_scan"]
        reads, writes = ops["register_reads"], ops["register_writes"]
        idle, bouncing = row["bytes_idle_100_300"], row["bytes_bouncing_100_300"]
        print(f"  {row['build']}")
        print(
            f"    per scan: {reads:g} register reads, {writes:g} register writes, "
            f"{ops['pin_calls']:g} Pin calls, {ops['adc_reads']:g} ADC reads"
        )
        print(
            f"    heap bytes per period: {row['bytes_per_scan_idle']:g} idle {tuple(idle)}, "
            f"{row['bytes_per_scan_bouncing']:g} with a bouncing contact {tuple(bouncing)} "
            "(runs of 100 and 300 periods)"
        )
        print(
            f"    heap bytes per STATE frame sent: {row['bytes_per_state_frame']:.0f}; "
            f"host CPU per period: {row['host_us_per_period']:.0f} us (this machine, not a Pico)"
        )

    print(f"\nEnd-to-end latency, {args.samples} cell changes (MicroPython firmware <-> pty <-> DeviceLink):")
    values = latency(args.samples)
    ms = [v * 1000 for v in values]
    beyond = [v - DEBOUNCE_MS for v in ms]
    print(
        f"  change -> snapshot:            p50 {percentile(ms, 0.5):.2f} ms, "
        f"p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms"
    )
    print(
        f"  beyond the {DEBOUNCE_MS} ms debounce wait: p50 {percentile(beyond, 0.5):.2f} ms, "
        f"p99 {percentile(beyond, 0.99):.2f} ms, mean {statistics.fmean(beyond):.2f} ms"
    )


if __name__ == "__main__":
    main()
