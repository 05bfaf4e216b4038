"""A physical board build as typed values: what the board files say, once checked.

One ``BoardSpec`` is one build of one game's board: where every cell sits,
which sensor address and LED each cell has, which microcontroller pins do what,
how the sensors respond and which magnet each kind of object carries.  Sensor
addresses are (row, col) in both wirings: a matrix row and column, or a
multiplexer and its channel; address ``row * cols + col`` is the cell's bit (or
value) in a STATE snapshot from the firmware.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from engines.geometry import Geometry
from engines.table import Role

REED = "reed"
HALL_POLARITY = "hall_polarity"
HALL_LEVELS = "hall_levels"
SENSOR_MODELS = (REED, HALL_POLARITY, HALL_LEVELS)

NO_MAGNET = "none"
WEAK = "weak"
STRONG = "strong"
MAGNET_STRENGTHS = (NO_MAGNET, WEAK, STRONG)

NORTH = "north"
SOUTH = "south"
POLES = (NORTH, SOUTH)

LED_PI_PWM = "pi_pwm"  # the Pi's PWM/PCM pin through Blinka's neopixel (needs root)
LED_PI_SPI = "pi_spi"  # the Pi's SPI0 MOSI through neopixel_spi (Pi 5, no root)
LED_PICO = "pico"  # a Pico GPIO: the firmware drives the chain
LED_DRIVERS = (LED_PI_PWM, LED_PI_SPI, LED_PICO)


class Button(Enum):
    """The board's buttons (and the page's).  The value is the name in board files, scripts and messages."""

    CONFIRM = "confirm"
    NEW_GAME = "new_game"
    HINT = "hint"
    TAKE_BACK = "take_back"
    # Only where the game has a voluntary pass (Table.voluntary_pass), and optional on a board: the page has
    # it too, so a board without the pin still plays such a game.  Every other button every board has.
    PASS = "pass"

    @property
    def optional(self) -> bool:
        return self is Button.PASS

    @classmethod
    def named(cls, name: str) -> Button:
        """The button called ``name``; ValueError lists the known names."""
        for button in cls:
            if button.value == name:
                return button
        raise ValueError(f"unknown button {name!r} (known: {', '.join(b.value for b in cls)})")


@dataclass(frozen=True)
class CellSpec:
    name: str
    x_mm: float
    y_mm: float
    row: int
    col: int
    led: int


@dataclass(frozen=True)
class ObjectSpec:
    """A kind of object: how many the set has, and the magnet in it.

    ``pole_down`` is the pole facing the sensor: one entry for a neutral
    object, one per colour (indexed by colour) for owned and reversible ones,
    none without a magnet.
    """

    kind: str
    role: Role
    count: int
    magnet: str
    pole_down: tuple[str, ...]

    def pole(self, colour: int | None) -> str | None:
        if not self.pole_down:
            return None
        if colour is None or len(self.pole_down) == 1:
            return self.pole_down[0]
        return self.pole_down[colour]


@dataclass(frozen=True)
class SensorSpec:
    """The sensors and how they respond.

    For Hall builds, signals are the typical magnitude (ADC read_u16 units away
    from the zero-field value) that each magnet strength gives at the sensor;
    thresholds classify a reading the same way on the host and in the firmware.
    """

    model: str
    part: str
    rows: int
    cols: int
    debounce_ms: int
    scan_period_us: int
    settle_us: int  # the wait after each select change (a matrix row, a multiplexer channel) before a read
    zero_nominal: int = 32768
    threshold: int = 0
    hysteresis: int = 0
    strong_threshold: int | None = None
    signal: dict[str, int] = field(default_factory=dict)

    @property
    def analog(self) -> bool:
        return self.model != REED

    @property
    def addresses(self) -> int:
        return self.rows * self.cols

    @property
    def selects_per_scan(self) -> int:
        """How many times a scan switches what it reads, each followed by settle_us: every row of a
        matrix (one read gives all its columns), every sensor behind the multiplexers."""
        return self.addresses if self.analog else self.rows


@dataclass(frozen=True)
class PicoPins:
    row_pins: tuple[int, ...] = ()
    col_pins: tuple[int, ...] = ()
    mux_select_pins: tuple[int, ...] = ()
    mux_enable_pins: tuple[int, ...] = ()
    adc_pin: int | None = None
    heartbeat_ms: int = 1000


@dataclass(frozen=True)
class LedSpec:
    """The LED chain and its power: currents are estimates per LED at full duty."""

    driver: str
    pin: int
    count: int
    order: str
    ma_per_channel: float
    idle_ma: float
    supply_ma: float
    brightness_cap: float
    gamma: float
    current_limit_ma: float | None


@dataclass(frozen=True)
class ButtonSpec:
    """Push buttons to ground on Pi GPIOs (BCM numbers), read with pull-ups."""

    pins: dict[str, int]
    debounce_ms: int


@dataclass(frozen=True)
class BoardSpec:
    id: str
    name: str
    game: str
    geometry_name: str
    geometry_args: tuple[int, ...]
    geometry: Geometry
    width_mm: float
    height_mm: float
    sensor: SensorSpec
    pico: PicoPins
    objects: dict[str, ObjectSpec]
    leds: LedSpec
    buttons: ButtonSpec
    parts: dict[str, str]
    cells: tuple[CellSpec, ...]
    source: Path
    by_name: dict[str, CellSpec] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {cell.name: cell for cell in self.cells})

    def cell(self, name: str) -> CellSpec:
        try:
            return self.by_name[name]
        except KeyError:
            raise ValueError(f"board {self.id}: no cell {name!r}") from None

    def address(self, cell: CellSpec) -> int:
        """The cell's index in a snapshot of the sensor address space."""
        return cell.row * self.sensor.cols + cell.col

    def led_frame(self, colours: dict[str, tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """A full LED frame lighting the named cells, every other LED off."""
        frame = [(0, 0, 0)] * self.leds.count
        for name, rgb in colours.items():
            frame[self.cell(name).led] = rgb
        return frame
