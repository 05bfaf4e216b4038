"""Simulated push buttons: a test or a script presses them by name."""

from __future__ import annotations

from host.drivers.interfaces import ButtonPress, Clock
from host.hardware.spec import ALL_BUTTONS


class VirtualButtons:
    """Buttons whose presses arrive already debounced, as the real driver delivers them."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._pending: list[ButtonPress] = []

    def press(self, button: str) -> None:
        if button not in ALL_BUTTONS:
            raise ValueError(f"no button {button!r} (buttons: {', '.join(ALL_BUTTONS)})")
        self._pending.append(ButtonPress(button, self.clock()))

    def poll(self) -> list[ButtonPress]:
        presses, self._pending = self._pending, []
        return presses

    def close(self) -> None:
        self._pending.clear()
