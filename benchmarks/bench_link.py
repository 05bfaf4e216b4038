"""Link benchmarks on the simulated Pico (real firmware under MicroPython, pyserial on a pty).  JSON lines.

.venv/bin/python benchmarks/bench_link.py leds [--frames 200]
    time the caller waits per LED frame: the blocking send (send_leds, an ACK per 256 LEDs, what
    the session thread used to wait for) against LedSender.show, and their ratio
.venv/bin/python benchmarks/bench_link.py faults [--bursts 15] [--board flipfour-reed]
    noise bursts both ways, then a firmware restart and an unplug, with an LED frame waiting each
    time: frames sent again, snapshots of boards that were not there, bad frames, time to recover
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time

from host.hardware.firmware_config import firmware_config
from host.hardware.loading import load_board
from host.link import DeviceLink, Expectation, LedSender, LinkStatus, Snapshot
from host.sim.firmware_process import FirmwareProcess, Rgb


class Strip:
    def __init__(self) -> None:
        self.shown: list[Rgb] | None = None
        self.changed = threading.Condition()

    def __call__(self, colours: list[Rgb]) -> None:
        with self.changed:
            self.shown = colours
            self.changed.notify_all()

    def wait_for(self, colours: list[Rgb], timeout: float = 15.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.shown == colours, timeout)


def _frames(count: int, leds: int) -> list[list[Rgb]]:
    rng = random.Random(1)
    return [
        [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(leds)]
        for _ in range(count)
    ]


def leds(frames: int, board_id: str) -> None:
    board = load_board(board_id)
    strip = Strip()
    with FirmwareProcess(firmware_config(board, None), on_leds=strip) as pico, DeviceLink(pico.port) as link:
        device = link.wait_ready(10)
        wanted = _frames(frames, device.led_count)
        start = time.perf_counter()
        for frame in wanted:
            link.send_leds(frame)
        blocking = (time.perf_counter() - start) / frames
        sender = LedSender(link)
        try:
            start = time.perf_counter()
            for frame in wanted:
                sender.show(frame)
            queued = (time.perf_counter() - start) / frames
            assert strip.wait_for(wanted[-1])
        finally:
            sender.close()
    print(json.dumps({
        "bench": "leds", "board": board_id, "leds": device.led_count, "frames": frames,
        "blocking_send_us": round(blocking * 1e6, 1), "sender_show_us": round(queued * 1e6, 1),
        "ratio": round(blocking / queued, 1),
    }))  # fmt: skip


def _recover(link: DeviceLink, accepted: int, strip: Strip, frame: list[Rgb]) -> float:
    start = time.perf_counter()
    if not strip.wait_for(frame):
        raise AssertionError(f"not back: {link.status} {link.status_reason}")
    while link.accepted <= accepted or link.status is not LinkStatus.CONNECTED:
        time.sleep(0.01)
    return time.perf_counter() - start


def faults(bursts: int, board_id: str) -> None:
    board = load_board(board_id)
    strip = Strip()
    snapshots: list[Snapshot] = []
    rng = random.Random(7)
    expect = Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)
    config = firmware_config(board, None)
    with FirmwareProcess(config, on_leds=strip) as pico:
        link = DeviceLink(pico.port, expect=expect, silence_timeout=0.6, backoff=(0.05, 0.2),
                          on_snapshot=snapshots.append)  # fmt: skip
        with link:
            device = link.wait_ready(10)
            board_values = link.next_snapshot(10).values
            sender = LedSender(link)
            frames = _frames(bursts + 2, device.led_count)
            burst_s = []
            try:
                for frame in frames[:bursts]:
                    sender.show(frame)
                    pico.inject(bytes(rng.choice((0, 3, rng.randrange(256))) for _ in range(300)))
                    pico.inject_to_device(bytes(rng.choice((0, 3, rng.randrange(256))) for _ in range(300)))
                    start = time.perf_counter()
                    assert strip.wait_for(frame)
                    burst_s.append(time.perf_counter() - start)
                accepted = link.accepted
                pico.restart()
                sender.show(frames[-2])
                restart_s = _recover(link, accepted, strip, frames[-2])
                accepted = link.accepted
                pico.unplug()
                sender.show(frames[-1])
                time.sleep(0.3)
                pico.plug_in()
                unplug_s = _recover(link, accepted, strip, frames[-1])
            finally:
                sender.close()
            stats = link.stats
    false = sum(1 for s in snapshots if s.values != board_values)
    print(json.dumps({
        "bench": "faults", "board": board_id, "bursts": bursts, "resends": sender.resends,
        "false_snapshots": false, "bad_frames": stats.bad_frames, "gaps": stats.gaps,
        "burst_to_leds_ms_median": round(statistics.median(burst_s) * 1000, 1),
        "restart_to_leds_s": round(restart_s, 2), "replug_to_leds_s": round(unplug_s, 2),
    }))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("leds")
    p.add_argument("--frames", type=int, default=200)
    p.add_argument("--board", default="flipfour-reed")
    p = sub.add_parser("faults")
    p.add_argument("--bursts", type=int, default=15)
    p.add_argument("--board", default="flipfour-reed")
    args = parser.parse_args()
    if args.what == "leds":
        leds(args.frames, args.board)
    else:
        faults(args.bursts, args.board)


if __name__ == "__main__":
    main()
