"""The firmware on the emulated Pico, measured in emulated time (125 MHz, rp2040js): what a real
Pico would take, whatever the host's speed.

    .venv/bin/python benchmarks/bench_emulated_pico.py [--boards ID,...] [--changes N] [--seed S]

For each board build (all eight unless --boards says otherwise):
1. The scan: sensor.update() per period (scan, classify, debounce: the viper loops the firmware
   runs) and the same period done by the plain Python references (the firmware before them),
   in the same run; the bare scan; heap bytes allocated per period, idle and with a sensor the
   benchmark keeps toggling (firmware/sim/measure_on_pico.py, run with mpremote). The scan
   period the board file should have: 1.5 x the update with a sensor changing.
2. End to end: in a position where a piece can be lifted, a hand lifts it and puts it back (in a
   game with nothing to lift, Go, it puts a stone down and takes it off again), N changes in all,
   0.1-0.4 s of the Pico's time apart, each at a random moment. Each is followed through the
   real pipeline - the firmware's main loop on the emulated Pico, USB CDC, the host's
   DeviceLink, tracker, session and LED frame - and stamped with the emulator's clock: the
   wiring change at the sensor, the USB transfer completing the STATE that reports it, the
   host's LED write (the emulator's clock when the host wrote the frame: the emulator runs no
   faster than the wall clock, slower when the host is busy), and on Pico-LED builds the
   NeoPixel frame decoded from the data pin. p50 and p99 of change -> STATE, STATE -> LED
   write, LED write -> NeoPixels, and the total.
Prints one JSON line per build and measurement, then the table firmware/README.md shows.

Needs node, emulator/node_modules (npm ci --prefix emulator) and ../shared/rp2040.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from stats import percentile  # benchmarks/stats.py: a script has its own folder on the path

from engines import registry
from engines.game import Game
from engines.physical import Thing
from host.drivers.interfaces import RGB, LedStrip, monotonic_us
from host.drivers.link_strip import LinkStrip
from host.hardware.firmware_config import firmware_config
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import LED_PICO, BoardSpec
from host.link.device_link import SILENCE_TIMEOUT_S, DeviceLink, Expectation
from host.link.frames import FrameError, decode_frame
from host.link.messages import Heartbeat, State, parse_device_message
from host.reach.diff import hand_actions
from host.session.board_play import BoardPlay
from host.session.live import LiveLoop
from host.session.session import Session, Settings
from host.sim.emulated_pico import EmulatedPico, missing
from host.sim.firmware_process import FIRMWARE_DIR, empty_board
from host.sim.rig import EMULATED_SLOWDOWN, READY_S
from host.sim.virtual_board import SensorPhysics, SimClock, VirtualBoard
from host.sim.virtual_buttons import VirtualButtons
from host.sim.virtual_leds import VirtualStrip

CYCLES_PER_US = 125
PROBE = FIRMWARE_DIR / "sim" / "measure_on_pico.py"
READY = READY_S * EMULATED_SLOWDOWN
WAIT_S = 300.0  # wall time allowed for one change to reach the LEDs on a slow, busy host
PERIOD_FACTOR = 1.5  # a board's scan period: this times its update with a sensor changing
PERIOD_STEP_US = 50  # rounded up to a multiple of this
# Exact sensors: no bounce, no field ramp, no noise, zeros at nominal (the firmware's calibration).
EXACT = SensorPhysics(bounce_us=0, ramp_us=0, noise=0.0, offset_spread=0.0)


def mpremote_exec(port: str, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mpremote", "connect", port, "exec", code],
        capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    if done.returncode:
        raise SystemExit(f"mpremote exec failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


def wire(pico: EmulatedPico, board: BoardSpec, frame: list[list[int]]) -> None:
    if board.sensor.analog:
        pico.set_analog(frame)
    else:
        pico.set_digital([[bool(v) for v in line] for line in frame])


def felt(pico: EmulatedPico, board: BoardSpec, on: bool) -> list[list[int]]:
    """The empty board, with the first cell's sensor felt (a closed switch, a strong south pole)."""
    frame = empty_board(pico.config)
    row, col = divmod(board.address(board.cells[0]), board.sensor.cols)
    if on:
        frame[row][col] = min(65535, frame[row][col] + 12000) if board.sensor.analog else 1
    return frame


def scan_period(update_us: float) -> int:
    return max(250, math.ceil(update_us * PERIOD_FACTOR / PERIOD_STEP_US) * PERIOD_STEP_US)


def scan_cost(board: BoardSpec) -> dict[str, Any]:
    code = PROBE.read_text(encoding="utf-8")
    with EmulatedPico(firmware_config(board), boot_main=False) as pico:
        pico.wait_for("usb", READY)
        idle = json.loads(mpremote_exec(pico.port, code).strip().splitlines()[-1])
        stop = threading.Event()

        def toggle() -> None:
            on = False
            while not stop.wait(0.002):
                on = not on
                wire(pico, board, felt(pico, board, on))

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
        "settle_us": idle["settle_us"],
        "us_per_update": idle["us_per_update"],
        "cycles_per_update": round(idle["us_per_update"] * CYCLES_PER_US),
        "us_per_update_toggling": busy["us_per_update"],
        "us_per_bare_scan": idle["us_per_bare_scan"],
        "us_per_python_update": idle["us_per_python_update"],
        "us_per_python_update_toggling": busy["us_per_python_update"],
        "bytes_per_update_idle": idle["bytes_per_update"],
        "bytes_per_update_toggling": busy["bytes_per_update"],
        "bytes_per_bare_scan": idle["bytes_per_bare_scan"],
        "scan_period_us": idle["scan_period_us"],
        "scan_period_us_derived": scan_period(busy["us_per_update"]),
    }


# --- end to end ----------------------------------------------------------------------------------


class Hands(NamedTuple):
    """A position for the hand to work in: its history and moves, and what the hand does there -
    "lift" (then put back) the piece of one of cells, or, in a game with nothing ever to lift (Go:
    every move puts a stone down), "place" on one of cells the piece things gives it (then take it
    off again)."""

    history: list[Any]
    moves: list[str]
    verb: str
    cells: list[str]
    things: list[Thing]


def hand_position(game: Game[Any, Any], rng: random.Random) -> Hands:
    """A position reached by random moves in which pieces can be lifted (a legal move starts by
    lifting one), or else the first one reached (two moves in) in which a legal move starts by
    putting a piece down. The lift is searched first and alone decides where the search stops, so
    a game with pieces to lift gets the position (and the random moves) it always got."""
    put: Hands | None = None
    for _ in range(50):
        history: list[Any] = [game.start()]
        moves: list[str] = []
        for _ply in range(40):
            pos = history[-1]
            if game.is_over(pos):
                break
            before = game.cells(pos)
            firsts = [
                acts[0]
                for move in game.legal_moves(pos)
                if (acts := hand_actions(game, before, game.cells(game.play(pos, move))))
            ]
            cells = sorted({act.cells[0] for act in firsts if act.verb == "lift"})
            if cells and len(moves) >= 2:
                return Hands(history, moves, "lift", cells, [])
            if put is None and len(moves) >= 2:
                places = {act.cells[0]: act.thing for act in firsts if act.verb == "place" and act.thing}
                if places:
                    where = sorted(places)
                    put = Hands(list(history), list(moves), "place", where, [places[c] for c in where])
            move = rng.choice(game.legal_moves(pos))
            moves.append(game.format_move(pos, move))
            history.append(game.play(pos, move))
    if put is None:
        raise SystemExit(f"{game.id}: no position with a piece to lift or to put down")
    return put


class StampedStrip:
    """The host's LED strip, asking the emulator for its clock at every frame written."""

    def __init__(self, strip: LedStrip, pico: EmulatedPico) -> None:
        self.strip = strip
        self.pico = pico
        self.written = 0

    @property
    def count(self) -> int:
        return self.strip.count

    def show(self, frame: Sequence[RGB]) -> None:
        self.strip.show(frame)
        self.written += 1
        self.pico.stamp(f"led{self.written}")

    def close(self) -> None:
        self.strip.close()


def first_event(
    pico: EmulatedPico, kind: str, after_ns: int, test: Callable[[dict[str, Any]], bool] = lambda e: True
) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        for event in pico.events(kind):
            if int(event["t"]) >= after_ns and test(event):
                return event
        time.sleep(0.005)
    raise SystemExit(f"no {kind!r} event after {after_ns} ns within {WAIT_S} s")


def pause(pico: EmulatedPico, seconds: float) -> None:
    """Until that much emulated time has passed."""
    end = pico.now_ns(WAIT_S) + int(seconds * 1e9)
    while pico.now_ns(WAIT_S) < end:
        time.sleep(0.02)


def quiet(pico: EmulatedPico, ns: int = 200_000_000) -> None:
    """Until the host has sent the Pico nothing for ns of emulated time."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        received = [int(event["t"]) for event in pico.events("rx")]
        if pico.now_ns(WAIT_S) - max(received, default=0) > ns:
            return
        time.sleep(0.2)
    raise SystemExit(f"the host kept talking to the Pico for {WAIT_S} s")


def message_of(event: dict[str, Any]) -> object:
    try:
        return parse_device_message(decode_frame(bytes.fromhex(event["data"])))
    except (FrameError, ValueError):
        return None


def state_of(event: dict[str, Any]) -> State | None:
    message = message_of(event)
    return message if isinstance(message, State) else None


def end_to_end(board: BoardSpec, changes: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    game = registry.make(board.game, ())
    history, moves, verb, cells, things = hand_position(game, rng)
    model = SensorModel(board)
    session = Session(
        game, model.reading_of, Reading.EMPTY, settings=Settings(ai_side=None), history=history, moves=moves
    )
    virtual = VirtualBoard(board, SimClock(), seed=seed, physics=EXACT)
    virtual.set_position(game.cells(history[-1]))
    on_pico = board.leds.driver == LED_PICO
    samples: list[Sample] = []
    with EmulatedPico(firmware_config(board)) as pico:
        pico.trace(True)
        wire(pico, board, virtual.frame())
        # The link once the main loop runs: a link waiting through a slow boot would queue a request
        # a second for the firmware to answer one by one afterwards.
        first_event(pico, "frame", 0, lambda event: state_of(event) is not None)
        expect = Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)
        with DeviceLink(
            pico.port, expect=expect, silence_timeout=SILENCE_TIMEOUT_S * EMULATED_SLOWDOWN
        ) as link:
            link.wait_ready(READY)
            quiet(pico)
            strip: LedStrip = (
                LinkStrip(link, board.leds, timeout=EMULATED_SLOWDOWN)
                if on_pico
                else VirtualStrip(board.leds, monotonic_us)
            )
            stamped = StampedStrip(strip, pico)
            play = BoardPlay(session, board, model, stamped)
            loop = LiveLoop(play, link, VirtualButtons(monotonic_us))
            server = threading.Thread(target=loop.run, daemon=True)
            server.start()
            try:
                time.sleep(1.0)
                for i in range(changes):
                    # A hand's pace, in the Pico's time (a busy host slows the emulator down), at a
                    # random moment of the scan loop.
                    pause(pico, rng.uniform(0.1, 0.4))
                    if i % 2 == 0:
                        at = rng.randrange(len(cells))
                        cell = cells[at]
                        if verb == "lift":
                            held = virtual.lift(cell)
                        else:
                            held = things[at]
                            virtual.place(cell, held)
                    elif verb == "lift":
                        virtual.place(cell, held)
                    else:
                        virtual.lift(cell)
                    # Go's stone put down and taken off changes no LED on these builds: the
                    # host writes no frame for it to follow.
                    samples.append(follow(pico, board, virtual, cell, stamped, on_pico, verb == "lift"))
            finally:
                loop.stop.set()
                server.join(timeout=30)
                stamped.close()
        beats = [beat for event in pico.events("frame") if isinstance(beat := message_of(event), Heartbeat)]
    return {
        "board": board.id,
        "changes": len(samples),
        **percentiles(samples),
        # The firmware's own counters over the run: the fewest scans in a second, the longest
        # sensor.update(), and the periods that overran (a STATE sent, an LED frame received).
        "scans_per_s_min": min((beat.scans_per_second for beat in beats[1:]), default=None),
        "max_scan_us": max((beat.max_scan_us for beat in beats[1:]), default=None),
        "deadline_misses": beats[-1].deadline_misses if beats else None,
    }


Sample = tuple[float, float | None, float | None, float | None]


def follow(
    pico: EmulatedPico,
    board: BoardSpec,
    virtual: VirtualBoard,
    cell: str,
    strip: StampedStrip,
    on_pico: bool,
    lights: bool = True,
) -> Sample:
    """One change, wired now: (change -> STATE, STATE -> LED write, LED write -> NeoPixels, total) ms;
    without lights (a change the host answers with no new LED frame) only change -> STATE."""
    address = board.address(board.cell(cell))
    before = pico.events("frame")
    old = next((s.values[address] for e in reversed(before) if (s := state_of(e)) is not None), None)
    written = strip.written
    leds_before = pico.led_frames[-1][1] if pico.led_frames else None
    mark = pico.event_count
    wire(pico, board, virtual.frame())
    changed = int(pico.wait_for("wired", WAIT_S, mark)["t"])

    def reports_it(event: dict[str, Any]) -> bool:
        state = state_of(event)
        return state is not None and state.values[address] != old

    reported = int(first_event(pico, "frame", changed, reports_it)["t"])
    ms = 1e-6
    if not lights:
        return ((reported - changed) * ms, None, None, None)
    deadline = time.monotonic() + WAIT_S
    while strip.written == written and time.monotonic() < deadline:
        time.sleep(0.005)
    tag = f"led{written + 1}"
    write = int(first_event(pico, "time", 0, lambda e: e.get("tag") == tag)["t"])
    end = write
    if on_pico:
        end = int(first_event(pico, "leds", reported, lambda e: leds_of(e) != leds_before)["t"])
    return ((reported - changed) * ms, (write - reported) * ms, (end - write) * ms, (end - changed) * ms)


def leds_of(event: dict[str, Any]) -> list[RGB]:
    data = bytes.fromhex(event["data"])
    return [(data[i + 1], data[i], data[i + 2]) for i in range(0, len(data) - 2, 3)]


def percentiles(samples: list[Sample]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for i, name in enumerate(("change_to_state", "state_to_led_write", "led_write_to_neopixels", "total")):
        values = [value for sample in samples if (value := sample[i]) is not None]
        if not values:
            out[f"{name}_p50_ms"] = out[f"{name}_p99_ms"] = out[f"{name}_max_ms"] = None
            continue
        out[f"{name}_p50_ms"] = round(percentile(values, 0.5), 2)
        out[f"{name}_p99_ms"] = round(percentile(values, 0.99), 2)
        out[f"{name}_max_ms"] = round(max(values), 2)
    return out


def pair(end: dict[str, Any], name: str) -> str:
    """p50 / p99 of one measure, or n/a for a build that had none (no LED frame to follow)."""
    if end[f"{name}_p50_ms"] is None:
        return "n/a"
    return f"{end[f'{name}_p50_ms']} / {end[f'{name}_p99_ms']} ms"


def table(costs: list[dict[str, Any]], ends: list[dict[str, Any]], pico_leds: set[str]) -> str:
    head = (
        "| build | sensors | settle | update idle | update, changing | Python update, changing "
        "| bare scan | heap/period | period | change -> STATE p50 / p99 | -> LED write p50 / p99 "
        "| end to end p50 / p99 |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    rows = []
    for cost, end in zip(costs, ends, strict=True):
        heap = max(cost["bytes_per_update_idle"], cost["bytes_per_update_toggling"])
        what = "NeoPixels" if cost["board"] in pico_leds else "LED write"
        rows.append(
            f"| {cost['board']} | {cost['sensors']} | {cost['settle_us']} us "
            f"| {cost['us_per_update'] / 1000:.2f} ms | {cost['us_per_update_toggling'] / 1000:.2f} ms "
            f"| {cost['us_per_python_update_toggling'] / 1000:.2f} ms "
            f"| {cost['us_per_bare_scan'] / 1000:.2f} ms "
            f"| {heap:g} B | {cost['scan_period_us'] / 1000:g} ms "
            f"| {pair(end, 'change_to_state')} | {pair(end, 'state_to_led_write')} "
            f"| {pair(end, 'total')} ({what}) |"
        )
    return head + "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--boards", default=",".join(board_ids()), help="comma-separated board ids")
    parser.add_argument("--changes", type=int, default=40, help="hand changes followed per board")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    reason = missing()
    if reason is not None:
        raise SystemExit(f"cannot emulate a Pico: {reason}")
    costs, ends, pico_leds = [], [], set()
    for board_id in args.boards.split(","):
        board = load_board(board_id)
        if board.leds.driver == LED_PICO:
            pico_leds.add(board.id)
        costs.append(scan_cost(board))
        print(json.dumps(costs[-1]), flush=True)
        ends.append(end_to_end(board, args.changes, args.seed))
        print(json.dumps(ends[-1]), flush=True)
    print(table(costs, ends, pico_leds))


if __name__ == "__main__":
    main()
