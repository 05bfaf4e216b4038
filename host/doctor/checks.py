"""The doctor's checks, in the order a builder would want them: link, LEDs, sensors, buttons.

Each check returns one result and never raises for a fault in the board: a
missing driver, a silent device or a dead sensor is what the report is for.
Later checks that cannot run without an earlier one (no link: no sensors) are
reported as skipped, which does not count as passing.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from engines.physical import Thing
from host.doctor.bench import Bench
from host.doctor.firmware_version import shipped_version, version_text
from host.doctor.report import CheckResult, Report, Status, failed, passed, skipped
from host.drivers.interfaces import RGB, DriverError
from host.hardware.loading import BoardFileError, load_board
from host.hardware.sensing import CellReadings, Reading, SensorModel, SnapshotError
from host.hardware.spec import LED_PICO, BoardSpec
from host.link.expectation import Expectation
from host.link.settled import wait_settled
from host.link.status import LinkError

READY_S = 10.0
POLL_S = 0.005
WALK_COLOUR: RGB = (255, 255, 255)
PLACE_COLOUR: RGB = (0, 255, 0)  # green: put a piece here (the session's meaning too)

LINK, LEDS, SENSORS, BUTTONS = "link", "leds", "sensors", "buttons"


def run_checks(bench: Bench) -> Report:
    report = Report()
    link = check_link(bench)
    report.results.append(link)
    board = bench.board
    if board is None:
        report.results += [skipped(name, "the board is not known") for name in (LEDS, SENSORS, BUTTONS)]
        return report
    link_ok = link.status is Status.PASS
    if board.leds.driver == LED_PICO and not link_ok:
        report.results.append(skipped(LEDS, "the Pico drives the LEDs and the link is down"))
    else:
        report.results.append(check_leds(bench, board))
    if link_ok:
        report.results.append(check_sensors(bench, board))
    else:
        report.results.append(skipped(SENSORS, "the sensors are read over the link, which is down"))
    report.results.append(check_buttons(bench, board))
    return report


def check_link(bench: Bench) -> CheckResult:
    """HELLO within a few seconds, the firmware this host ships, the board expected, its sensors
    settled, a ping back."""
    ready_s = READY_S * bench.slowdown
    try:
        hello = bench.link.wait_ready(ready_s)
    except TimeoutError as exc:
        why = bench.trouble.last or str(exc)
        return failed(LINK, f"no board answered on {bench.where} within {ready_s:g} s: {why}")
    unsettled = wait_settled(bench.link, ready_s)
    if unsettled is not None:
        why = f": {bench.trouble.last}" if bench.trouble.last else ""
        return failed(LINK, f"board {hello.board} on {bench.where} said HELLO, then {unsettled}{why}")
    problems = []
    shipped = shipped_version()
    running = version_text(hello.firmware)
    if shipped is None:
        problems.append("cannot read the firmware version this host ships (firmware/device.py)")
    elif hello.firmware != shipped:
        problems.append(
            f"the Pico runs firmware {running}, this host ships {version_text(shipped)}: copy firmware/ again"
        )
    if bench.board is None:
        try:
            board = load_board(hello.board)
        except BoardFileError as exc:
            return failed(LINK, f"the Pico says it is board {hello.board!r}, which cannot be loaded: {exc}")
        problem = Expectation(board.id, board.sensor.rows, board.sensor.cols).problem(hello)
        if problem is not None:
            return failed(LINK, f"the Pico's config does not match {board.id}: {problem}")
        bench.board = board
    try:
        # Given the ready time: the first command a firmware serves can take as long as its boot (14 s
        # after the first STATE under emulation, 0.3 s for the next), and a real board's ping is quick.
        ping = f"ping {bench.link.ping(timeout=ready_s) * 1000:.1f} ms"
    except LinkError as exc:
        ping = "no ping reply"
        problems.append(f"PING: {exc}")
    summary = (
        f"{bench.where}: board {hello.board}, {hello.rows}x{hello.cols} {hello.sensor.name.lower()}, "
        f"firmware {running}, {ping}"
    )
    return failed(LINK, summary, problems) if problems else passed(LINK, summary)


def check_leds(bench: Bench, board: BoardSpec) -> CheckResult:
    """Every cell's LED lit alone in chain order; the tester says which stayed dark."""
    try:
        strip = bench.strip(board)
        bench.tester.say("LEDs: watch each cell light up in turn.")
        cells = sorted(board.cells, key=lambda cell: cell.led)
        for cell in cells:
            strip.show(board.led_frame({cell.name: WALK_COLOUR}))
            bench.tester.led_shown(cell.led, cell.name)
        strip.show(board.led_frame({}))
    except (DriverError, LinkError, ValueError) as exc:
        return failed(LEDS, f"cannot light the LEDs: {exc}")
    dark = bench.tester.dark_cells([cell.name for cell in cells])
    if dark is None:
        return failed(LEDS, "no answer about which LEDs stayed dark")
    if dark:
        details = [f"{name}: LED {board.cell(name).led} stayed dark" for name in dark]
        return failed(LEDS, f"{len(dark)} of {len(cells)} LEDs stayed dark", details)
    return passed(LEDS, f"all {len(cells)} LEDs lit in turn")


def probe_thing(board: BoardSpec) -> Thing | None:
    """An object every sensor of this build feels on its own (a piece with a strong magnet)."""
    model = SensorModel(board)
    for kind, spec in board.objects.items():
        for colour in spec.role.colours:
            thing = Thing(kind, colour)
            if model.reading_of((thing,)) is not Reading.EMPTY:
                return thing
    return None


class _Readings:
    """The board's latest readings, waited on until they match what the check expects."""

    def __init__(self, bench: Bench, board: BoardSpec) -> None:
        self.link = bench.link
        self.model = SensorModel(board)
        self.error: str | None = None

    def now(self) -> CellReadings | None:
        snapshot = self.link.latest
        if snapshot is None:
            return None
        try:
            return self.model.decode(snapshot.values)
        except SnapshotError as exc:
            self.error = str(exc)
            return None

    def wait(
        self, wanted: Callable[[CellReadings], bool], timeout: float
    ) -> tuple[bool, CellReadings | None]:
        deadline = time.monotonic() + timeout
        while True:
            readings = self.now()
            if readings is not None and wanted(readings):
                return True, readings
            if time.monotonic() >= deadline:
                return False, readings
            time.sleep(POLL_S)


def _others(readings: CellReadings, cell: str, ignore: set[str]) -> list[str]:
    return [n for n, r in readings.items() if n != cell and n not in ignore and r is not Reading.EMPTY]


def _alone(cell: str, reading: Reading, ignore: set[str]) -> Callable[[CellReadings], bool]:
    """The cell reads ``reading`` and every other cell (but those ignored) is empty."""

    def wanted(readings: CellReadings) -> bool:
        return readings[cell] is reading and not _others(readings, cell, ignore)

    return wanted


def check_sensors(bench: Bench, board: BoardSpec) -> CheckResult:
    """An empty board reads empty; a piece on each lit cell reads on that cell alone, and goes again."""
    thing = probe_thing(board)
    if thing is None:
        return failed(SENSORS, f"board {board.id}: no object that its sensors feel on its own")
    expected = SensorModel(board).reading_of((thing,))
    tester, wait_s = bench.tester, bench.tester.wait_s
    readings = _Readings(bench, board)
    try:
        strip = bench.strip(board)
    except (DriverError, LinkError):
        strip = None  # the LED check reports it; cells are named in the instructions anyway

    def light(colours: dict[str, RGB]) -> None:
        if strip is not None:
            with contextlib.suppress(DriverError, LinkError, ValueError):
                strip.show(board.led_frame(colours))

    tester.clear_board()
    empty, now = readings.wait(lambda r: all(v is Reading.EMPTY for v in r.values()), wait_s)
    if now is None:
        return failed(SENSORS, f"no reading from the board: {readings.error or 'no snapshot arrived'}")
    details = []
    stuck = set() if empty else {name for name, r in now.items() if r is not Reading.EMPTY}
    for name in sorted(stuck):
        details.append(f"{name}: reads {now[name].value} with nothing on it")
    bad = set(stuck)
    for cell in (c.name for c in board.cells if c.name not in stuck):
        light({cell: PLACE_COLOUR})
        tester.place(cell, thing)
        ok, now = readings.wait(_alone(cell, expected, stuck), wait_s)
        if not ok:
            bad.add(cell)
            read = now[cell].value if now is not None else "nothing"
            problem = f"{cell}: read {read} with a {thing.kind} on it, expected {expected.value}"
            others = _others(now, cell, stuck) if now is not None else []
            if others:
                problem += f"; {', '.join(others)} read a magnet instead (wiring crossed?)"
            details.append(problem)
        tester.lift(cell)
        ok, now = readings.wait(_alone(cell, Reading.EMPTY, stuck), wait_s)
        if not ok and cell not in bad:
            bad.add(cell)
            read = now[cell].value if now is not None else "nothing"
            details.append(f"{cell}: still reads {read} after the {thing.kind} was taken off")
    light({})
    total = len(board.cells)
    if bad:
        return failed(SENSORS, f"{len(bad)} of {total} sensors failed", details)
    return passed(SENSORS, f"all {total} sensors read a {thing.kind} put on and taken off")


def check_buttons(bench: Bench, board: BoardSpec) -> CheckResult:
    """Each button pressed when asked, and only that one answering."""
    try:
        buttons = bench.buttons(board)
    except DriverError as exc:
        return failed(BUTTONS, f"cannot read the buttons: {exc}")
    buttons.poll()  # presses from before the check do not count
    details = []
    pins = board.buttons.pins
    for name, pin in pins.items():
        bench.tester.press(name)
        deadline = time.monotonic() + bench.tester.wait_s
        presses = buttons.poll()
        while not presses and time.monotonic() < deadline:
            time.sleep(POLL_S)
            presses = buttons.poll()
        if not presses:
            details.append(f"{name} (GPIO {pin}): no press within {bench.tester.wait_s:g} s")
        elif presses[0].button != name:
            details.append(f"{name} (GPIO {pin}): the {presses[0].button} button answered (wires swapped?)")
    if details:
        return failed(BUTTONS, f"{len(details)} of {len(pins)} buttons failed", details)
    return passed(BUTTONS, f"all {len(pins)} buttons answered: {', '.join(pins)}")
