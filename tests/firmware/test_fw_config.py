"""board_config.json checking: every mistake gets one clear line naming the key.

Runs under CPython (pytest) and MicroPython (mpy_runner.py).
"""

import fwtest

# isort: split
import boardconfig
from fwtest import check, hall_config, reed_config
from messages import SENSOR_HALL_ANALOG, SENSOR_REED


def _error(data):
    try:
        boardconfig.parse(data)
    except boardconfig.ConfigError as exc:
        return str(exc)
    return None


def _expect_error(data, *fragments):
    message = _error(data)
    check(message is not None, "accepted: " + str(data))
    for fragment in fragments:
        check(fragment in message, "message " + repr(message) + " lacks " + repr(fragment))


def test_a_reed_config_is_read_with_defaults():
    data = reed_config()
    for key in ("debounce_ms", "scan_period_us", "heartbeat_ms", "led_pin", "led_count"):
        del data[key]
    config = boardconfig.parse(data)
    check(config.sensor == SENSOR_REED and config.rows == 3 and config.cols == 4, "shape")
    check(config.row_pins == [0, 1, 2] and config.col_pins == [3, 4, 5, 6], "pins")
    check((config.debounce_ms, config.scan_period_us, config.heartbeat_ms) == (5, 1000, 1000), "defaults")
    check(config.led_pin is None and config.led_count == 0, "no LEDs by default")


def test_a_hall_config_with_levels_and_leds():
    data = hall_config(led_pin=16, led_count=6)
    data["calibration"]["strong_threshold"] = 8000
    config = boardconfig.parse(data)
    check(config.sensor == SENSOR_HALL_ANALOG and config.adc_pin == 26, "analog")
    check(config.zero == [30000] * 6 and config.threshold == 2000 and config.hysteresis == 500, "calibration")
    check(config.strong_threshold == 8000 and config.calibrated, "levels")
    check(config.led_pin == 16 and config.led_count == 6, "LEDs")


def test_a_hall_config_without_calibration_uses_mid_scale():
    data = hall_config()
    del data["calibration"]
    config = boardconfig.parse(data)
    check(config.zero == [32768] * 6 and not config.calibrated, "mid-scale zero, flagged uncalibrated")


def test_null_keys_of_the_other_sensor_kind_are_accepted():
    data = reed_config(mux_select_pins=None, adc_pin=None, calibration=None)
    check(_error(data) is None, "null analog keys on a reed board")


def test_mistakes_name_the_key():
    _expect_error(reed_config(version=2), "version", "schema version 1")
    _expect_error(reed_config(board=""), "board")
    _expect_error(reed_config(board="x" * 33), "board", "32")
    _expect_error(reed_config(sensor="hall"), "sensor", "'reed' or 'hall_analog'")
    _expect_error(reed_config(rows=17, row_pins=list(range(17))), "rows", "1..16", "17")
    _expect_error(reed_config(rows=True), "rows")
    _expect_error(reed_config(row_pins=[0, 1]), "row_pins", "expected 3 GPIO numbers", "got 2")
    _expect_error(reed_config(col_pins=[3, 4, 5, 30]), "col_pins[3]", "0..29", "30")
    _expect_error(reed_config(col_pins=[3, 4, 5, 2]), "col_pins", "GPIO 2 is already used by row_pins")
    _expect_error(reed_config(led_pin=0, led_count=4), "led_pin", "GPIO 0 is already used")
    _expect_error(reed_config(led_pin=20), "led_count", "1..1024", "got 0")
    no_count = reed_config(led_pin=20)
    del no_count["led_count"]
    _expect_error(no_count, "led_count", "missing")
    _expect_error(reed_config(debounce_ms=0), "debounce_ms", "1..1000")
    _expect_error(reed_config(scan_period_us=100), "scan_period_us", "250..50000")
    _expect_error(reed_config(heartbeat_ms=5000), "heartbeat_ms", "100..2000")
    _expect_error(reed_config(debounse_ms=5), "debounse_ms", "unknown key")
    _expect_error(reed_config(adc_pin=26), "adc_pin", "does not apply to sensor 'reed'")
    _expect_error(hall_config(row_pins=[0, 1]), "row_pins", "does not apply")
    _expect_error(hall_config(adc_pin=25), "adc_pin", "26..29")
    _expect_error(hall_config(mux_select_pins=[2, 3, 4]), "mux_select_pins", "expected 4")
    _expect_error(hall_config(mux_enable_pins=[6]), "mux_enable_pins", "expected 2")
    _expect_error([1, 2], "expected a JSON object")


def test_calibration_mistakes():
    def with_calibration(**changes):
        data = hall_config()
        data["calibration"].update(changes)
        return data

    _expect_error(with_calibration(zero=[30000] * 5), "calibration.zero", "expected 6", "got 5")
    _expect_error(with_calibration(zero=[30000] * 5 + [70000]), "calibration.zero[5]", "0..65535")
    _expect_error(with_calibration(threshold=0), "calibration.threshold")
    _expect_error(with_calibration(hysteresis=2000), "calibration.hysteresis", "0..1999")
    _expect_error(with_calibration(strong_threshold=1500), "calibration.strong_threshold", "2001..65535")
    _expect_error(with_calibration(offset=3), "calibration", "unknown key 'offset'")
    data = hall_config()
    data["calibration"] = [1, 2]
    _expect_error(data, "calibration", "expected an object")


def test_timing_limits():
    check(boardconfig.check_timing(5, 1000, 1000) is None, "defaults are fine")
    check("debounce_ms" in boardconfig.check_timing(0, 1000, 1000), "debounce 0")
    check("scan_period_us" in boardconfig.check_timing(5, 60000, 1000), "slow scan")
    check(
        "heartbeat_ms" in boardconfig.check_timing(5, 1000, 2001),
        "heartbeat beyond the host's silence timeout",
    )


def test_a_missing_or_broken_file():
    try:
        boardconfig.load("/nonexistent/board_config.json")
        check(False, "missing file accepted")
    except boardconfig.ConfigError as exc:
        check("not on the device" in str(exc), str(exc))
    path = fwtest.HERE + "/debounce_tables.py"
    try:
        boardconfig.load(path)
        check(False, "Python source accepted as JSON")
    except boardconfig.ConfigError as exc:
        check("not valid JSON" in str(exc), str(exc))
