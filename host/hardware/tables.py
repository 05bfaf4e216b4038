"""The wiring table and the bill of materials of a board build, as Markdown.

Both are derived from the board file alone, so they cannot drift from what
the host and the firmware actually use.
"""

from __future__ import annotations

from engines.physical import Thing
from host.hardware.drawing import address_label
from host.hardware.firmware_config import config_text
from host.hardware.power import worst_case_ma
from host.hardware.sensing import SensorModel
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
from host.hardware.validation import required_parts

SENSOR_TEXT = {
    "reed": "a reed switch matrix: a switch closes under a strong magnet; a diode per switch stops ghosting",
    "hall_polarity": "linear Hall sensors through analog multiplexers: each reads empty, north or south",
    "hall_levels": "linear Hall sensors through analog multiplexers, in levels: empty, weak, north or south",
}
LED_DRIVER_TEXT = {
    LED_PI_PWM: "the Pi, PWM through Blinka's neopixel (needs root)",
    LED_PI_SPI: "the Pi, SPI0 MOSI through neopixel_spi (Pi 5, no root)",
    LED_PICO: "the Pico (the firmware drives the chain)",
}


def _header(board: BoardSpec, what: str) -> list[str]:
    return [
        f"# {board.name}: {what}",
        "",
        f"Generated from `hardware/boards/{board.id}.toml` by `magboard hardware docs {board.id}`; "
        "edit the board "
        "file, not this page.",
        "",
    ]


def _cells_named(board: BoardSpec, row: int | None = None, col: int | None = None) -> str:
    names = [
        c.name
        for c in sorted(board.cells, key=lambda c: (c.row, c.col))
        if (row is None or c.row == row) and (col is None or c.col == col)
    ]
    return " ".join(names) if names else "(none)"


def _pico_rows(board: BoardSpec) -> list[tuple[int, str, str]]:
    pico, sensor = board.pico, board.sensor
    rows: list[tuple[int, str, str]] = []
    if sensor.model == REED:
        for r, pin in enumerate(pico.row_pins):
            rows.append((pin, f"matrix row {r} (output, driven low in turn)", _cells_named(board, row=r)))
        for c, pin in enumerate(pico.col_pins):
            rows.append((pin, f"matrix column {c} (input, pull-up)", _cells_named(board, col=c)))
    else:
        for bit, pin in enumerate(pico.mux_select_pins):
            rows.append((pin, f"multiplexer select S{bit} (all multiplexers)", "-"))
        for m, pin in enumerate(pico.mux_enable_pins):
            rows.append((pin, f"multiplexer {m} enable, active low", _cells_named(board, row=m)))
        assert pico.adc_pin is not None
        rows.append((pico.adc_pin, "ADC: the SIG pins of every multiplexer, joined", "-"))
    if board.leds.driver == LED_PICO:
        rows.append((board.leds.pin, f"LED data, {board.leds.count} NeoPixels", "-"))
    return sorted(rows)


def wiring_markdown(board: BoardSpec) -> str:
    sensor, leds = board.sensor, board.leds
    model = SensorModel(board)
    lines = _header(board, "wiring")
    lines += [
        f"Game `{board.game}`, {len(board.cells)} cells on a "
        f"{board.width_mm:g} x {board.height_mm:g} mm board. "
        f"Sensors: {SENSOR_TEXT[sensor.model]} ({sensor.part}); address space {sensor.rows} x {sensor.cols}, "
        "a cell at (row r, column c) is value r * "
        f"{sensor.cols} + c of a snapshot. LEDs: {leds.count} on {LED_DRIVER_TEXT[leds.driver]}.",
        "",
        "## Pico pins",
        "",
        "| GPIO | Function | Cells |",
        "|---|---|---|",
    ]
    lines += [f"| GP{pin} | {what} | {cells} |" for pin, what, cells in _pico_rows(board)]
    lines += ["", "## Raspberry Pi pins (BCM numbers)", "", "| GPIO | Function |", "|---|---|"]
    pi_rows = [
        (pin, f"button {name.replace('_', ' ')} (to GND, internal pull-up)")
        for name, pin in board.buttons.pins.items()
    ]
    if leds.driver != LED_PICO:
        pi_rows.append((leds.pin, "LED data out, through the level shifter and the series resistor"))
    lines += [f"| GPIO{pin} | {what} |" for pin, what in sorted(pi_rows)]
    if sensor.analog:
        lines += [
            "",
            "## Hall thresholds (ADC read_u16 units from each sensor's zero)",
            "",
            f"- zero (nominal, until calibrated): {sensor.zero_nominal}",
            f"- threshold: {sensor.threshold}, hysteresis: {sensor.hysteresis}"
            + (
                f", strong_threshold: {sensor.strong_threshold}"
                if sensor.strong_threshold is not None
                else ""
            ),
            "- typical signal: " + ", ".join(f"{k} magnet {v}" for k, v in sorted(sensor.signal.items())),
            "- a north pole facing the sensor lowers the value, a south pole raises it",
        ]
    lines += [
        "",
        "## Objects and magnets",
        "",
        "| Object | Count | Magnet | Pole facing the sensor | Sensor reads |",
        "|---|---|---|---|---|",
    ]
    for kind, spec in board.objects.items():
        colours = spec.role.colours
        poles = " / ".join(
            f"{spec.pole(c) or '-'}" + (f" (colour {c})" if c is not None else "") for c in colours
        )
        reads = " / ".join(model.reading_of((Thing(kind, c),)).value for c in colours)
        lines.append(f"| {kind} ({spec.role.value}) | {spec.count} | {spec.magnet} | {poles} | {reads} |")
    lines += [
        "",
        "## LED power",
        "",
        f"- {leds.count} LEDs, {leds.ma_per_channel:g} mA per colour channel at full duty, "
        f"{leds.idle_ma:g} mA idle each",
        f"- brightness cap {leds.brightness_cap:g}, gamma {leds.gamma:g}, colour order {leds.order}",
        f"- worst case (all white at the cap): {worst_case_ma(leds):.0f} mA; "
        f"supply for the LEDs: {leds.supply_ma:g} mA",
        "- current limit: "
        + (
            f"{leds.current_limit_ma:g} mA (frames above it are dimmed)"
            if leds.current_limit_ma
            else "none needed"
        ),
        "",
        "## Cells",
        "",
        "| Cell | x mm | y mm | Sensor | Snapshot index | LED |",
        "|---|---|---|---|---|---|",
    ]
    for cell in board.cells:
        lines.append(
            f"| {cell.name} | {cell.x_mm:g} | {cell.y_mm:g} | {address_label(board, cell)} | "
            f"{board.address(cell)} | {cell.led} |"
        )
    lines += ["", "## board_config.json for the Pico (nominal calibration)", "", "```json"]
    lines += config_text(board).rstrip("\n").split("\n")
    lines += ["```", ""]
    return "\n".join(lines)


def bom_rows(board: BoardSpec) -> list[tuple[int, str, str]]:
    """(quantity, part, what for) for every part role the build uses."""
    cells = len(board.cells)
    strong = [(k, s.count) for k, s in board.objects.items() if s.magnet == STRONG]
    weak = [(k, s.count) for k, s in board.objects.items() if s.magnet == WEAK]
    unmagnetised = [k for k, s in board.objects.items() if s.magnet == NO_MAGNET]
    uses = {
        "computer": (1, "rules, AI, LEDs and buttons"),
        "microcontroller": (1, "scans the sensors, reports over USB"),
        "sensor": (cells, "one under each cell"),
        "diode": (cells, "in series with each reed switch, cathode towards the row"),
        "mux": (board.sensor.rows, f"{board.sensor.cols} sensors each"),
        "led": (board.leds.count, "the LED chain under the cells"),
        "level_shifter": (1, "LED data to 5 V"),
        "data_resistor": (1, "at the first LED's data input"),
        "capacitor": (1, "at the LED chain's power input"),
        "button": (len(board.buttons.pins), ", ".join(n.replace("_", " ") for n in board.buttons.pins)),
        "supply": (1, "5 V for the Pi, the Pico and the LEDs"),
        "magnet_strong": (sum(n for _, n in strong), ", ".join(f"{k} x{n}" for k, n in strong)),
        "magnet_weak": (sum(n for _, n in weak), ", ".join(f"{k} x{n}" for k, n in weak)),
    }
    rows = [(uses[role][0], board.parts[role], uses[role][1]) for role in required_parts(board)]
    if unmagnetised:
        rows.append((0, "no magnet", ", ".join(unmagnetised)))
    return rows


def bom_markdown(board: BoardSpec) -> str:
    lines = _header(board, "bill of materials")
    lines += ["| Qty | Part | Used for |", "|---|---|---|"]
    lines += [f"| {qty} | {part} | {use} |" for qty, part, use in bom_rows(board)]
    lines.append("")
    return "\n".join(lines)
