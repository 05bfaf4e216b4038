"""Consistency checks of a structurally sound board: each returns "key: problem" lines.

These are the mistakes that make a board misbehave rather than fail to load:
two cells wired to one sensor, a GPIO used twice, thresholds that cannot tell
a tile from a piece, LEDs that can draw more than the supply gives.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from host.hardware.power import worst_case_ma
from host.hardware.spec import (
    LED_PI_PWM,
    LED_PI_SPI,
    LED_PICO,
    NO_MAGNET,
    REED,
    STRONG,
    WEAK,
    BoardSpec,
)

# GPIOs a Pico exposes on its pins (GP23-25 are wired on the board itself).
PICO_GPIOS = frozenset([*range(0, 23), 26, 27, 28])
PICO_ADC_GPIOS = frozenset([26, 27, 28])
# BCM GPIOs on a Raspberry Pi's 40-pin header.
PI_GPIOS = frozenset(range(2, 28))
# Pins Blinka's neopixel can drive on a Pi (PWM, PCM and SPI peripherals).
PI_PWM_LED_PINS = frozenset([10, 12, 18, 21])
PI_SPI_MOSI = 10
MUX_CHANNELS = 16  # four select lines

# Closer than this, a magnet over one cell is felt by the neighbouring sensor.
MIN_CELL_SPACING_MM = 15.0


def check_board(board: BoardSpec) -> list[str]:
    return [
        *_cells(board),
        *_pico_pins(board),
        *_pi_pins(board),
        *_objects(board),
        *_thresholds(board),
        *_settling(board),
        *_power(board),
        *_parts(board),
    ]


# What the bill of materials needs a part description for.
PART_ROLES = (
    "computer",
    "microcontroller",
    "supply",
    "sensor",
    "diode",
    "mux",
    "led",
    "level_shifter",
    "data_resistor",
    "capacitor",
    "button",
    "magnet_strong",
    "magnet_weak",
)


def required_parts(board: BoardSpec) -> list[str]:
    """The part roles this build uses, in PART_ROLES order."""
    magnets = {obj.magnet for obj in board.objects.values()}
    skip = {"mux"} if board.sensor.model == REED else {"diode"}
    if WEAK not in magnets:
        skip.add("magnet_weak")
    return [role for role in PART_ROLES if role not in skip]


def _parts(board: BoardSpec) -> Iterator[str]:
    needed = required_parts(board)
    for role in needed:
        if role not in board.parts:
            yield f"parts.{role}: missing (the bill of materials needs it)"
    for role in board.parts:
        if role not in needed:
            known = ", ".join(needed)
            yield f"parts.{role}: not a part this build uses (it uses {known})"


def _cells(board: BoardSpec) -> Iterator[str]:
    sensor = board.sensor
    row_key, col_key = ("row", "col") if sensor.model == REED else ("mux", "channel")
    by_address: dict[tuple[int, int], str] = {}
    by_led: dict[int, str] = {}
    for cell in board.cells:
        key = f"cells.{cell.name}"
        if cell.row >= sensor.rows:
            yield f"{key}.{row_key}: {cell.row} is outside sensor.rows = {sensor.rows}"
        if cell.col >= sensor.cols:
            yield f"{key}.{col_key}: {cell.col} is outside sensor.cols = {sensor.cols}"
        address = (cell.row, cell.col)
        if address in by_address:
            yield (
                f"{key}: {row_key} {cell.row} {col_key} {cell.col} is already the address of "
                f"cells.{by_address[address]}"
            )
        by_address.setdefault(address, cell.name)
        if cell.led >= board.leds.count:
            yield f"{key}.led: {cell.led} is outside the chain of leds.count = {board.leds.count}"
        if cell.led in by_led:
            yield f"{key}.led: LED {cell.led} already lights cells.{by_led[cell.led]}"
        by_led.setdefault(cell.led, cell.name)
        if not (0 <= cell.x_mm <= board.width_mm and 0 <= cell.y_mm <= board.height_mm):
            yield f"{key}: ({cell.x_mm}, {cell.y_mm}) mm lies outside the outline"
    cells = board.cells
    for i, a in enumerate(cells):
        for b in cells[i + 1 :]:
            gap = math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm)
            if gap < MIN_CELL_SPACING_MM:
                yield (
                    f"cells.{b.name}: {gap:.1f} mm from cells.{a.name}, closer than "
                    f"{MIN_CELL_SPACING_MM:g} mm (the sensors would feel each other's magnets)"
                )


def _pico_pins(board: BoardSpec) -> Iterator[str]:
    pico, sensor = board.pico, board.sensor
    groups: list[tuple[str, tuple[int, ...]]]
    if sensor.model == REED:
        if len(pico.row_pins) != sensor.rows:
            yield f"pico.row_pins: {len(pico.row_pins)} pins for sensor.rows = {sensor.rows}"
        if len(pico.col_pins) != sensor.cols:
            yield f"pico.col_pins: {len(pico.col_pins)} pins for sensor.cols = {sensor.cols}"
        groups = [("pico.row_pins", pico.row_pins), ("pico.col_pins", pico.col_pins)]
    else:
        if sensor.cols != MUX_CHANNELS:
            yield f"sensor.cols: a multiplexer with four select lines has {MUX_CHANNELS} channels"
        if len(pico.mux_select_pins) != 4:
            yield f"pico.mux_select_pins: {len(pico.mux_select_pins)} pins, a 16-channel mux needs 4"
        if len(pico.mux_enable_pins) != sensor.rows:
            yield (
                f"pico.mux_enable_pins: {len(pico.mux_enable_pins)} pins for sensor.rows = "
                f"{sensor.rows} multiplexers"
            )
        if pico.adc_pin not in PICO_ADC_GPIOS:
            yield f"pico.adc_pin: GP{pico.adc_pin} is not an ADC input (GP26, GP27 or GP28)"
        groups = [
            ("pico.mux_select_pins", pico.mux_select_pins),
            ("pico.mux_enable_pins", pico.mux_enable_pins),
            ("pico.adc_pin", (pico.adc_pin,) if pico.adc_pin is not None else ()),
        ]
    if board.leds.driver == LED_PICO:
        groups.append(("leds.pin", (board.leds.pin,)))
    yield from _unique_pins(groups, PICO_GPIOS, "GP", "a Pico GPIO")


def _pi_pins(board: BoardSpec) -> Iterator[str]:
    leds = board.leds
    groups: list[tuple[str, tuple[int, ...]]] = [
        (f"buttons.{name}", (pin,)) for name, pin in board.buttons.pins.items()
    ]
    if leds.driver == LED_PI_SPI and leds.pin != PI_SPI_MOSI:
        yield f"leds.pin: neopixel_spi drives SPI0 MOSI, GPIO{PI_SPI_MOSI}, not GPIO{leds.pin}"
    if leds.driver == LED_PI_PWM and leds.pin not in PI_PWM_LED_PINS:
        allowed = ", ".join(f"GPIO{p}" for p in sorted(PI_PWM_LED_PINS))
        yield f"leds.pin: the Pi drives NeoPixels only from {allowed}, not GPIO{leds.pin}"
    if leds.driver != LED_PICO:
        groups.append(("leds.pin", (leds.pin,)))
    yield from _unique_pins(groups, PI_GPIOS, "GPIO", "a header GPIO of the Pi")


def _unique_pins(
    groups: list[tuple[str, tuple[int, ...]]], valid: frozenset[int], prefix: str, what: str
) -> Iterator[str]:
    used: dict[int, str] = {}
    for key, pins in groups:
        for i, pin in enumerate(pins):
            where = key if len(pins) == 1 and not key.endswith("_pins") else f"{key}[{i}]"
            if pin not in valid:
                yield f"{where}: {prefix}{pin} is not {what}"
            elif pin in used:
                yield f"{where}: {prefix}{pin} is already used by {used[pin]}"
            else:
                used[pin] = where


def _objects(board: BoardSpec) -> Iterator[str]:
    for obj in board.objects.values():
        key = f"objects.{obj.kind}.magnet"
        if board.sensor.model == REED and obj.magnet == WEAK:
            yield f"{key}: a reed switch has no 'weak': it closes or not (use 'none' or 'strong')"
        if board.sensor.analog and obj.magnet != NO_MAGNET and obj.magnet not in board.sensor.signal:
            yield f"sensor.signal.{obj.magnet}: missing, but objects.{obj.kind} carries a {obj.magnet} magnet"
    if not any(obj.magnet == STRONG for obj in board.objects.values()):
        yield "objects: no kind of object carries a strong magnet, so the sensors see nothing"


def _thresholds(board: BoardSpec) -> Iterator[str]:
    """Every magnet must land clearly inside its reading band, with the hysteresis to spare.

    Magnets stacked on one cell add up: a strong magnet over an opposed weak
    one (a piece on a tile) must still read strong.
    """
    sensor = board.sensor
    if not sensor.analog:
        return
    if sensor.hysteresis >= sensor.threshold:
        yield f"sensor.hysteresis: {sensor.hysteresis} must be below sensor.threshold = {sensor.threshold}"
    low = sensor.threshold + sensor.hysteresis
    used = {obj.magnet for obj in board.objects.values()}
    weak, strong = sensor.signal.get(WEAK), sensor.signal.get(STRONG)
    if weak is not None and WEAK in used and weak < low:
        yield (
            f"sensor.signal.weak: {weak} is below threshold + hysteresis = {low}: "
            "weak magnets would read empty"
        )
    strong_floor = low if sensor.strong_threshold is None else sensor.strong_threshold + sensor.hysteresis
    weakest_strong = None
    if strong is not None:
        weakest_strong = strong - weak if weak is not None and WEAK in used else strong
        if weakest_strong < strong_floor:
            yield (
                f"sensor.signal.strong: {strong} (less {weak or 0} from an opposed weak magnet) is below "
                f"{strong_floor}: a strong magnet would not read as one"
            )
    if sensor.strong_threshold is not None:
        if sensor.strong_threshold <= low:
            yield (
                f"sensor.strong_threshold: {sensor.strong_threshold} must be above "
                f"threshold + hysteresis = {low}"
            )
        if weak is not None and weak > sensor.strong_threshold - sensor.hysteresis:
            yield (
                f"sensor.signal.weak: {weak} is too close to strong_threshold = {sensor.strong_threshold}: "
                "a weak magnet could read strong"
            )
    swing = (strong or 0) + (weak or 0)
    if not swing <= sensor.zero_nominal <= 65535 - swing:
        yield f"sensor.zero_nominal: {sensor.zero_nominal} leaves no room for a swing of {swing} either way"


def _settling(board: BoardSpec) -> Iterator[str]:
    """The waits after each select change alone must leave time in the scan period."""
    sensor = board.sensor
    waits = sensor.settle_us * sensor.selects_per_scan
    if waits >= sensor.scan_period_us:
        what = "sensors" if sensor.analog else "rows"
        yield (
            f"sensor.settle_us: {sensor.selects_per_scan} {what} x {sensor.settle_us} us = {waits} us "
            f"of settling alone, not less than scan_period_us = {sensor.scan_period_us}"
        )


def _power(board: BoardSpec) -> Iterator[str]:
    leds = board.leds
    worst = worst_case_ma(leds)
    idle = leds.count * leds.idle_ma
    if leds.current_limit_ma is None:
        if worst > leds.supply_ma:
            yield (
                f"leds: {leds.count} LEDs at brightness_cap {leds.brightness_cap:g} can draw {worst:.0f} mA, "
                f"more than supply_ma = {leds.supply_ma:g}; lower the cap or set current_limit_ma"
            )
    elif leds.current_limit_ma > leds.supply_ma:
        yield f"leds.current_limit_ma: {leds.current_limit_ma:g} is above supply_ma = {leds.supply_ma:g}"
    elif leds.current_limit_ma <= idle:
        yield (
            f"leds.current_limit_ma: {leds.current_limit_ma:g} leaves nothing above the idle draw "
            f"of {idle:.0f} mA"
        )
