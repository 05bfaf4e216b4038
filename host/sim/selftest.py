"""The self-test of a board build: light every LED, and read back every object on every cell.

On the bench the same plan is followed by hand (the LED walk shows the chain
order, then each object goes on each cell); here it runs against the
simulated board and strip, from raw sensor frames through calibration and
classification to per-cell readings, so any board file whose wiring,
thresholds or magnets do not add up fails before anything is soldered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.physical import Thing
from host.drivers.interfaces import RGB
from host.hardware import calibration
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import STRONG, WEAK, BoardSpec
from host.sim.virtual_board import SensorPhysics, SimClock, VirtualBoard
from host.sim.virtual_leds import VirtualStrip

WALK_COLOUR: RGB = (255, 255, 255)
CALIBRATION_FRAMES = 5


def led_walk(board: BoardSpec, colour: RGB = WALK_COLOUR) -> list[list[RGB]]:
    """One frame per LED in chain order with that LED alone lit, then every LED lit."""
    count = board.leds.count
    frames = []
    for i in range(count):
        frame = [(0, 0, 0)] * count
        frame[i] = colour
        frames.append(frame)
    frames.append([colour] * count)
    return frames


def probes(board: BoardSpec) -> list[tuple[Thing, ...]]:
    """Every object alone, and each strong-magnet object on each weak-magnet one (a piece on a tile)."""
    singles = [(Thing(kind, colour),) for kind, spec in board.objects.items() for colour in spec.role.colours]
    weak = [stack for stack in singles if board.objects[stack[0].kind].magnet == WEAK]
    strong = [stack for stack in singles if board.objects[stack[0].kind].magnet == STRONG]
    return singles + [low + high for low in weak for high in strong]


@dataclass
class SelfTestReport:
    leds: int
    leds_lit: int
    probes: int
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and self.leds_lit == self.leds


def run_virtual(board: BoardSpec, seed: int = 0, physics: SensorPhysics | None = None) -> SelfTestReport:
    """The whole self-test on the simulated strip and board."""
    clock = SimClock()
    strip = VirtualStrip(board.leds, clock)
    for frame in led_walk(board):
        strip.show(frame)
        clock.advance(50_000)
    lit = strip.ever_lit()
    report = SelfTestReport(leds=board.leds.count, leds_lit=len(lit), probes=0)
    dark = sorted(set(range(board.leds.count)) - lit)
    if dark:
        report.failures.append(f"LEDs never lit: {dark}")

    vboard = VirtualBoard(board, clock, seed=seed, physics=physics)
    model = SensorModel(board)
    settle = vboard.physics.settle_us + board.sensor.debounce_ms * 1000
    zeros = _calibrate(board, vboard, clock) if board.sensor.analog else None

    def read() -> dict[str, Reading]:
        raw = vboard.flat_frame()
        return model.decode(raw if zeros is None else calibration.codes(zeros, raw))

    empty = {name: Reading.EMPTY for name in board.geometry.names}
    for cell in board.cells:
        for stack in probes(board):
            expected = {**empty, cell.name: model.reading_of(stack)}
            vboard.set_position({cell.name: stack})
            clock.advance(settle)
            got = read()
            report.probes += 1
            wrong = [name for name in got if got[name] != expected[name]]
            if wrong:
                shown = ", ".join(f"{n} read {got[n].value}, expected {expected[n].value}" for n in wrong)
                placed = " on ".join(str(t) for t in reversed(stack))
                report.failures.append(f"{placed} on {cell.name}: {shown}")
            vboard.set_position({})
            clock.advance(settle)
    return report


def _calibrate(board: BoardSpec, vboard: VirtualBoard, clock: SimClock) -> calibration.Calibration:
    frames = []
    for _ in range(CALIBRATION_FRAMES):
        frames.append(vboard.flat_frame())
        clock.advance(board.sensor.scan_period_us)
    return calibration.from_frames(board, frames)
