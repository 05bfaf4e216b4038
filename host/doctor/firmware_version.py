"""The firmware version this host ships, read from firmware/device.py without running it.

The firmware is MicroPython and imports modules CPython lacks, so its
version constant is read from the source text; the doctor compares it with the
version a Pico reports in HELLO to catch a board that was never updated.
"""

from __future__ import annotations

import re
from pathlib import Path

import firmware

DEVICE_SOURCE = Path(firmware.__file__).parent / "device.py"
_VERSION = re.compile(r"^FIRMWARE_VERSION = \((\d+), (\d+), (\d+)\)", re.MULTILINE)


def shipped_version(source: Path = DEVICE_SOURCE) -> tuple[int, int, int] | None:
    """The version in the firmware source, or None when it cannot be read or found."""
    try:
        match = _VERSION.search(source.read_text(encoding="utf-8"))
    except OSError:
        return None
    if match is None:
        return None
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


def version_text(version: tuple[int, ...]) -> str:
    return ".".join(str(part) for part in version)
