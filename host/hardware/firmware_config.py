"""board_config.json for the Pico, generated from a board file.

The firmware reads this file at boot (schema version 1, see the firmware's
reader); everything it needs about the build is here, so one firmware image
serves every board.  Keys that do not apply to a sensor kind are left out
rather than sent empty, so the firmware can reject a config that mixes them.
A levels build adds ``calibration.strong_threshold``: below it, a magnet
above ``threshold`` reads 3 (weak, either pole).
"""

from __future__ import annotations

import json

from host.hardware.calibration import Calibration, nominal
from host.hardware.spec import LED_PICO, BoardSpec

VERSION = 1


def firmware_config(board: BoardSpec, calibration: Calibration | None = None) -> dict[str, object]:
    sensor, pico, leds = board.sensor, board.pico, board.leds
    config: dict[str, object] = {
        "version": VERSION,
        "board": board.id,
        "sensor": "hall_analog" if sensor.analog else "reed",
        "rows": sensor.rows,
        "cols": sensor.cols,
    }
    if sensor.analog:
        config["mux_select_pins"] = list(pico.mux_select_pins)
        config["mux_enable_pins"] = list(pico.mux_enable_pins)
        config["adc_pin"] = pico.adc_pin
        config["calibration"] = (calibration or nominal(board)).as_json()
    else:
        if calibration is not None:
            raise ValueError(f"board {board.id} has reed switches: a calibration does not apply")
        config["row_pins"] = list(pico.row_pins)
        config["col_pins"] = list(pico.col_pins)
    on_pico = leds.driver == LED_PICO
    config["led_pin"] = leds.pin if on_pico else None
    config["led_count"] = leds.count if on_pico else 0
    config["debounce_ms"] = sensor.debounce_ms
    config["scan_period_us"] = sensor.scan_period_us
    config["settle_us"] = sensor.settle_us
    config["heartbeat_ms"] = pico.heartbeat_ms
    return config


def config_text(board: BoardSpec, calibration: Calibration | None = None) -> str:
    """The file's text: one key per line, so a diff of two builds reads well."""
    config = firmware_config(board, calibration)
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in config.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"
