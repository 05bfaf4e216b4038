"""The Pi-only packages, imported when a driver is opened: off a Pi, or without the ``pi`` extra,
a one-line DriverError that says what to do instead of the package's own traceback
("This module can only be run on a Raspberry Pi!", lgpio's "can not open gpiochip", Blinka's
"board not supported")."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from host.drivers.interfaces import DriverError

OFF_A_PI = "off a Pi, play on the simulated board (magboard play without --serial)"


def import_pi_module(module: str) -> Any:
    try:
        return import_module(module)
    except ImportError as exc:
        raise DriverError(
            f"cannot import {module} ({exc}): on a Raspberry Pi, pip install 'magboard[pi]'; {OFF_A_PI}"
        ) from None
    except Exception as exc:  # each package fails its own way on a machine it does not know
        raise DriverError(f"{module} cannot run on this machine ({exc}): {OFF_A_PI}") from None
