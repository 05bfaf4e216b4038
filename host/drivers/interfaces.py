"""What the rest of the host needs from LEDs and buttons, real or simulated.

An LED strip takes whole frames (one RGB per chain index, 0-255 as the
colour is meant to look) and does its own gamma, brightness cap and current
limit; buttons are polled for debounced presses.  Times are microseconds from
a clock the caller chooses, so simulations and tests never sleep.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

RGB = tuple[int, int, int]
Clock = Callable[[], int]  # microseconds, never going backwards


def monotonic_us() -> int:
    return time.monotonic_ns() // 1000


class DriverError(RuntimeError):
    """Hardware that cannot be opened here: says what is missing and what to install or wire."""


@runtime_checkable
class LedStrip(Protocol):
    @property
    def count(self) -> int: ...

    def show(self, frame: Sequence[RGB]) -> None:
        """Light the whole chain: ``frame[i]`` is the colour of LED i."""

    def close(self) -> None:
        """Turn every LED off and release the hardware."""


@dataclass(frozen=True)
class ButtonPress:
    button: str  # the value of a host.hardware.spec.Button
    at_us: int


@runtime_checkable
class Buttons(Protocol):
    def poll(self) -> list[ButtonPress]:
        """The presses completed since the last poll, oldest first."""

    def close(self) -> None: ...


def check_frame(frame: Sequence[RGB], count: int) -> None:
    """ValueError naming the first bad entry of a frame, before anything reaches the LEDs."""
    if len(frame) != count:
        raise ValueError(f"LED frame has {len(frame)} colours, the chain has {count} LEDs")
    for i, rgb in enumerate(frame):
        if len(rgb) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in rgb):
            raise ValueError(f"LED frame entry {i}: {rgb!r} is not an (r, g, b) of integers 0-255")
