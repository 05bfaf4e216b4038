"""board_config.json: what this build of the board looks like, checked before
any pin is touched.

The file is generated from the board description on the host; one firmware
image serves every build. Every problem is reported as one line naming the
key, e.g. "board_config.json: row_pins: expected 10 GPIO numbers (rows), got 9".
Keys that do not apply to the sensor kind must be absent or null.
"""

import json

import calibration
from messages import SENSOR_HALL_ANALOG, SENSOR_REED

CONFIG_FILE = "board_config.json"
SCHEMA_VERSION = 1
MAX_ROWS = 16
MAX_COLS = 16
MAX_LEDS = 1024
MAX_BOARD_ID = 32
GPIO_COUNT = 30
ADC_PINS = (26, 27, 28, 29)
MUX_SELECT_PINS = 4

DEBOUNCE_MS = (1, 1000)
SCAN_PERIOD_US = (250, 50000)
HEARTBEAT_MS = (100, 2000)
# After each select change (a matrix row driven low, a multiplexer channel switched) the scan waits
# this long before it reads: the column pull-ups or the multiplexer's output need it to settle.
SETTLE_US = (0, 100)
DEFAULT_SETTLE_US = 10

_KEYS = (
    "version",
    "board",
    "sensor",
    "rows",
    "cols",
    "row_pins",
    "col_pins",
    "mux_select_pins",
    "mux_enable_pins",
    "adc_pin",
    "calibration",
    "led_pin",
    "led_count",
    "debounce_ms",
    "scan_period_us",
    "settle_us",
    "heartbeat_ms",
)
_DIGITAL_KEYS = ("row_pins", "col_pins")
_ANALOG_KEYS = ("mux_select_pins", "mux_enable_pins", "adc_pin", "calibration")
_CALIBRATION_KEYS = ("zero", "threshold", "hysteresis", "strong_threshold")


class ConfigError(Exception):
    """The configuration cannot be used; the message says what and where."""


class BoardConfig:
    """The checked settings. Pin lists are lists of GPIO numbers."""

    def __init__(self):
        self.board = ""
        self.sensor = SENSOR_REED
        self.rows = 0
        self.cols = 0
        self.row_pins = []
        self.col_pins = []
        self.mux_select_pins = []
        self.mux_enable_pins = []
        self.adc_pin = None
        self.zero = None
        self.threshold = calibration.DEFAULT_THRESHOLD
        self.hysteresis = calibration.DEFAULT_HYSTERESIS
        self.strong_threshold = 0
        self.calibrated = False
        self.led_pin = None
        self.led_count = 0
        self.debounce_ms = 5
        self.scan_period_us = 1000
        self.settle_us = DEFAULT_SETTLE_US
        self.heartbeat_ms = 1000


def _fail(key, problem):
    raise ConfigError(f"{CONFIG_FILE}: {key}: {problem}")


def _is_int(value):
    return type(value) is int


def _int(data, key, low, high, default=None, prefix=""):
    value = data.get(key)
    if value is None:
        if default is None:
            _fail(prefix + key, f"missing (an integer {low}..{high})")
        return default
    if not _is_int(value) or not low <= value <= high:
        _fail(prefix + key, f"expected an integer {low}..{high}, got {value!r}")
    return value


def _pins(data, key, count, what):
    value = data.get(key)
    if not isinstance(value, list) or len(value) != count:
        got = len(value) if isinstance(value, list) else repr(value)
        _fail(key, f"expected {count} GPIO numbers ({what}), got {got}")
    for i in range(count):
        pin = value[i]
        if not _is_int(pin) or not 0 <= pin < GPIO_COUNT:
            _fail(f"{key}[{i}]", f"expected a GPIO number 0..{GPIO_COUNT - 1}, got {pin!r}")
    return list(value)


def _absent(data, keys, sensor):
    for key in keys:
        if data.get(key) is not None:
            _fail(key, f"does not apply to sensor {sensor!r}: leave it out")


def _check_distinct(config):
    used = {}
    groups = (
        ("row_pins", config.row_pins),
        ("col_pins", config.col_pins),
        ("mux_select_pins", config.mux_select_pins),
        ("mux_enable_pins", config.mux_enable_pins),
        ("adc_pin", [] if config.adc_pin is None else [config.adc_pin]),
        ("led_pin", [] if config.led_pin is None else [config.led_pin]),
    )
    for key, pins in groups:
        for pin in pins:
            if pin in used:
                _fail(key, f"GPIO {pin} is already used by {used[pin]}")
            used[pin] = key


def _calibration(data, config):
    value = data.get("calibration")
    cells = config.rows * config.cols
    if value is None:
        config.zero = [calibration.DEFAULT_ZERO] * cells
        return
    if not isinstance(value, dict):
        _fail("calibration", "expected an object with zero, threshold, hysteresis")
    for key in value:
        if key not in _CALIBRATION_KEYS:
            _fail("calibration", f"unknown key {key!r} (expected {', '.join(_CALIBRATION_KEYS)})")
    zero = value.get("zero")
    if not isinstance(zero, list) or len(zero) != cells:
        got = len(zero) if isinstance(zero, list) else repr(zero)
        _fail("calibration.zero", f"expected {cells} ADC values (rows x cols), got {got}")
    for i in range(cells):
        if not _is_int(zero[i]) or not 0 <= zero[i] <= 65535:
            _fail(f"calibration.zero[{i}]", f"expected an ADC value 0..65535, got {zero[i]!r}")
    threshold = _int(value, "threshold", 1, 32767, None, "calibration.")
    hysteresis = _int(value, "hysteresis", 0, threshold - 1, None, "calibration.")
    strong = value.get("strong_threshold")
    if strong is not None and (not _is_int(strong) or not threshold < strong <= 65535):
        _fail("calibration.strong_threshold", f"expected an integer {threshold + 1}..65535, got {strong!r}")
    config.zero = list(zero)
    config.threshold = threshold
    config.hysteresis = hysteresis
    config.strong_threshold = strong or 0
    config.calibrated = True


def check_timing(debounce_ms, scan_period_us, heartbeat_ms):
    """None when the timing settings are usable, else what is wrong."""
    for name, value, limits in (
        ("debounce_ms", debounce_ms, DEBOUNCE_MS),
        ("scan_period_us", scan_period_us, SCAN_PERIOD_US),
        ("heartbeat_ms", heartbeat_ms, HEARTBEAT_MS),
    ):
        if not limits[0] <= value <= limits[1]:
            return f"{name} must be {limits[0]}..{limits[1]}, got {value}"
    return None


def parse(data):
    """A BoardConfig from the decoded JSON document; raises ConfigError."""
    if not isinstance(data, dict):
        raise ConfigError(f"{CONFIG_FILE}: expected a JSON object")
    for key in data:
        if key not in _KEYS:
            _fail(key, "unknown key")
    config = BoardConfig()
    version = data.get("version")
    if version != SCHEMA_VERSION or not _is_int(version):
        _fail("version", f"this firmware reads schema version {SCHEMA_VERSION}, got {version!r}")
    board = data.get("board")
    if not isinstance(board, str) or not board or len(board.encode()) > MAX_BOARD_ID:
        _fail("board", f"expected a board id of 1..{MAX_BOARD_ID} bytes, got {board!r}")
    config.board = board
    sensor = data.get("sensor")
    config.rows = _int(data, "rows", 1, MAX_ROWS)
    config.cols = _int(data, "cols", 1, MAX_COLS)
    if sensor == "reed":
        config.sensor = SENSOR_REED
        _absent(data, _ANALOG_KEYS, sensor)
        config.row_pins = _pins(data, "row_pins", config.rows, "rows")
        config.col_pins = _pins(data, "col_pins", config.cols, "cols")
    elif sensor == "hall_analog":
        config.sensor = SENSOR_HALL_ANALOG
        _absent(data, _DIGITAL_KEYS, sensor)
        config.mux_select_pins = _pins(data, "mux_select_pins", MUX_SELECT_PINS, "S0..S3")
        config.mux_enable_pins = _pins(data, "mux_enable_pins", config.rows, "one per multiplexer")
        adc_pin = data.get("adc_pin")
        if adc_pin not in ADC_PINS or not _is_int(adc_pin):
            _fail("adc_pin", f"expected an ADC GPIO (26..29), got {adc_pin!r}")
        config.adc_pin = adc_pin
        _calibration(data, config)
    else:
        _fail("sensor", f"expected 'reed' or 'hall_analog', got {sensor!r}")
    led_pin = data.get("led_pin")
    if led_pin is not None:
        if not _is_int(led_pin) or not 0 <= led_pin < GPIO_COUNT:
            _fail("led_pin", f"expected a GPIO number 0..{GPIO_COUNT - 1} or null, got {led_pin!r}")
        config.led_pin = led_pin
        config.led_count = _int(data, "led_count", 1, MAX_LEDS)
    else:
        config.led_count = _int(data, "led_count", 0, MAX_LEDS, 0)
    config.debounce_ms = _int(data, "debounce_ms", DEBOUNCE_MS[0], DEBOUNCE_MS[1], 5)
    config.scan_period_us = _int(data, "scan_period_us", SCAN_PERIOD_US[0], SCAN_PERIOD_US[1], 1000)
    config.settle_us = _int(data, "settle_us", SETTLE_US[0], SETTLE_US[1], DEFAULT_SETTLE_US)
    config.heartbeat_ms = _int(data, "heartbeat_ms", HEARTBEAT_MS[0], HEARTBEAT_MS[1], 1000)
    _check_distinct(config)
    return config


def load(path=CONFIG_FILE):
    """Read and check the configuration file; raises ConfigError."""
    try:
        with open(path) as handle:
            data = json.load(handle)
    except OSError:
        raise ConfigError(f"{path}: not on the device: copy the one generated for this board") from None
    except ValueError as exc:
        raise ConfigError(f"{path}: not valid JSON ({exc})") from None
    return parse(data)
