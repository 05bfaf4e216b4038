"""Hall sensor calibration: the zero-field value of every address, and the thresholds.

Each linear Hall sensor idles at its own value near mid-scale; reading a
magnet means reading a departure from *that* sensor's zero.  The zeros are
measured on an empty board (the median of a few raw frames, which ignores a
noise spike) and sent to the firmware in board_config.json; the thresholds come
from the board file.  ``codes`` is the host's reference of the classification
the firmware performs (without its hysteresis, which needs the previous state).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from host.files import MIB, read_text
from host.hardware.sensing import CODE_EMPTY, CODE_NORTH, CODE_SOUTH, CODE_WEAK
from host.hardware.spec import BoardSpec

ADC_MAX = 65535
CALIBRATION_BYTES = MIB  # one number per sensor address


class CalibrationError(ValueError):
    pass


@dataclass(frozen=True)
class Calibration:
    zero: tuple[int, ...]
    threshold: int
    hysteresis: int
    strong_threshold: int | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "zero": list(self.zero),
            "threshold": self.threshold,
            "hysteresis": self.hysteresis,
        }
        if self.strong_threshold is not None:
            out["strong_threshold"] = self.strong_threshold
        return out


def _require_analog(board: BoardSpec) -> None:
    if not board.sensor.analog:
        raise CalibrationError(f"board {board.id} has reed switches: there is nothing to calibrate")


def nominal(board: BoardSpec) -> Calibration:
    """The board file's thresholds around the sensor part's nominal zero."""
    _require_analog(board)
    sensor = board.sensor
    return Calibration(
        zero=(sensor.zero_nominal,) * sensor.addresses,
        threshold=sensor.threshold,
        hysteresis=sensor.hysteresis,
        strong_threshold=sensor.strong_threshold,
    )


def from_frames(board: BoardSpec, frames: Sequence[Sequence[int]]) -> Calibration:
    """Zeros measured from raw ADC frames of the empty board (flat, one value per address)."""
    _require_analog(board)
    if not frames:
        raise CalibrationError("calibration needs at least one frame of the empty board")
    size = board.sensor.addresses
    for i, frame in enumerate(frames):
        if len(frame) != size:
            raise CalibrationError(f"frame {i}: {len(frame)} values, board {board.id} has {size} addresses")
    zero = tuple(round(statistics.median(frame[a] for frame in frames)) for a in range(size))
    base = nominal(board)
    return Calibration(zero, base.threshold, base.hysteresis, base.strong_threshold)


def load_zeros(board: BoardSpec, path: Path) -> Calibration:
    """A calibration file: JSON {"zero": [one int per address]} measured on this board."""
    _require_analog(board)
    try:
        data = json.loads(read_text(path, CALIBRATION_BYTES))
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path}: not JSON: {exc}") from None
    except RecursionError:
        raise CalibrationError(f"{path}: not a calibration: JSON nested too deeply") from None
    zero = data.get("zero") if isinstance(data, dict) else None
    size = board.sensor.addresses
    if not isinstance(zero, list) or len(zero) != size:
        raise CalibrationError(f"{path}: zero: expected a list of {size} integers (one per sensor address)")
    for i, value in enumerate(zero):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= ADC_MAX:
            raise CalibrationError(f"{path}: zero[{i}]: {value!r} is not an ADC value 0..{ADC_MAX}")
    base = nominal(board)
    return Calibration(tuple(zero), base.threshold, base.hysteresis, base.strong_threshold)


def codes(calibration: Calibration, values: Sequence[int]) -> list[int]:
    """Raw ADC values (one per address) as snapshot codes: 0 empty, 1 north, 2 south, 3 weak."""
    out = []
    strong = calibration.strong_threshold
    for zero, value in zip(calibration.zero, values, strict=True):
        delta = value - zero
        magnitude = abs(delta)
        if magnitude < calibration.threshold:
            out.append(CODE_EMPTY)
        elif strong is not None and magnitude < strong:
            out.append(CODE_WEAK)
        else:
            out.append(CODE_NORTH if delta < 0 else CODE_SOUTH)
    return out
