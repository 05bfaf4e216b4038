"""board_config.json generation and Hall calibration."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from host.hardware import calibration
from host.hardware.calibration import Calibration, CalibrationError
from host.hardware.firmware_config import config_text, firmware_config
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import CODE_EMPTY, CODE_NORTH, CODE_SOUTH, CODE_WEAK

COMMON_HEAD = ["version", "board", "sensor", "rows", "cols"]
COMMON_TAIL = ["led_pin", "led_count", "debounce_ms", "scan_period_us", "settle_us", "heartbeat_ms"]
DIGITAL_KEYS = [*COMMON_HEAD, "row_pins", "col_pins", *COMMON_TAIL]
ANALOG_KEYS = [*COMMON_HEAD, "mux_select_pins", "mux_enable_pins", "adc_pin", "calibration", *COMMON_TAIL]


def test_reed_matrix_config() -> None:
    # Hand-copied from kingofrings-reed.toml: rows GP2-8, columns GP9-15, LEDs on the Pi.
    assert firmware_config(load_board("kingofrings-reed")) == {
        "version": 1,
        "board": "kingofrings-reed",
        "sensor": "reed",
        "rows": 7,
        "cols": 7,
        "row_pins": [2, 3, 4, 5, 6, 7, 8],
        "col_pins": [9, 10, 11, 12, 13, 14, 15],
        "led_pin": None,
        "led_count": 0,
        "debounce_ms": 5,
        "scan_period_us": 400,
        "settle_us": 10,
        "heartbeat_ms": 1000,
    }


def test_pico_driven_leds() -> None:
    config = firmware_config(load_board("flipfour-reed"))
    assert list(config) == DIGITAL_KEYS
    assert (config["rows"], config["cols"], config["led_pin"], config["led_count"]) == (5, 5, 22, 19)


def test_hall_config_with_nominal_calibration() -> None:
    config = firmware_config(load_board("desdemona-hall"))
    assert list(config) == ANALOG_KEYS
    assert (config["sensor"], config["rows"], config["cols"]) == ("hall_analog", 7, 16)
    assert config["mux_select_pins"] == [2, 3, 4, 5]
    assert config["mux_enable_pins"] == [6, 7, 8, 9, 10, 11, 12]
    assert config["adc_pin"] == 26
    assert config["calibration"] == {"zero": [32768] * 112, "threshold": 1500, "hysteresis": 300}


def test_levels_config_carries_the_strong_threshold() -> None:
    config = firmware_config(load_board("spacetiles-hall"))
    assert config["calibration"]["strong_threshold"] == 7000
    assert len(config["calibration"]["zero"]) == 3 * 16


def test_measured_calibration_goes_into_the_config() -> None:
    board = load_board("flipfour-hall")
    frames = [[30000 + a for a in range(32)], [30002 + a for a in range(32)], [39999] * 32]
    measured = calibration.from_frames(board, frames)
    assert measured.zero[0] == 30002 and measured.zero[31] == 30033  # medians, the spike ignored
    assert firmware_config(board, measured)["calibration"]["zero"] == list(measured.zero)


def test_config_text_is_the_same_json() -> None:
    board = load_board("spacetiles-hall")
    text = config_text(board)
    assert json.loads(text) == firmware_config(board)
    assert text.count("\n") == len(ANALOG_KEYS) + 2


def test_reed_board_has_nothing_to_calibrate() -> None:
    with pytest.raises(CalibrationError, match="reed switches"):
        calibration.nominal(load_board("desdemona-reed"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"zero": [1, 2]}', r"zero: expected a list of 32 integers"),
        ("[]", r"zero: expected a list of 32 integers"),
        ('{"zero": [' + "1, " * 31 + "70000]}", r"zero\[31\]: 70000 is not an ADC value"),
        ("{zero", "not JSON"),
    ],
)
def test_bad_calibration_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "zeros.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CalibrationError, match=message):
        calibration.load_zeros(load_board("flipfour-hall"), path)


def test_codes_use_each_sensors_own_zero() -> None:
    cal = Calibration(
        zero=(30000, 35000, 32768, 32768), threshold=1000, hysteresis=200, strong_threshold=5000
    )
    # 30000 - 30000 = 0 empty; 33000 - 35000 = -2000 weak; +6000 south; -5000 north.
    assert calibration.codes(cal, [30000, 33000, 38768, 27768]) == [
        CODE_EMPTY,
        CODE_WEAK,
        CODE_SOUTH,
        CODE_NORTH,
    ]
    polarity = Calibration(zero=(32768,), threshold=1000, hysteresis=200)
    assert calibration.codes(polarity, [31000]) == [CODE_NORTH]


FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"
FIRMWARE_PARSE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import boardconfig
for text in sys.stdin.read().split("\\0"):
    config = boardconfig.parse(json.loads(text))
    print(config.board, config.rows, config.cols, config.strong_threshold, config.led_count)
"""


def test_the_firmwares_reader_accepts_every_generated_config() -> None:
    # The firmware's own parser (MicroPython code, run here under CPython in a separate process so
    # its top-level modules stay out of this one).
    if not (FIRMWARE_DIR / "boardconfig.py").is_file():
        pytest.skip("firmware/boardconfig.py not there yet")
    boards = [load_board(b) for b in board_ids()]
    result = subprocess.run(
        [sys.executable, "-c", FIRMWARE_PARSE, str(FIRMWARE_DIR)],
        input="\0".join(config_text(b) for b in boards),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [b.id for b in boards]
    assert "spacetiles-hall 3 16 7000 0" in lines
    assert "flipfour-reed 5 5 0 19" in lines
