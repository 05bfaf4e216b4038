"""Simulated push buttons: a test or a script presses them by name."""

from __future__ import annotations

from host.drivers.interfaces import ButtonPress, Clock
from host.hardware.spec import Button


class VirtualButtons:
    """Buttons whose presses arrive already debounced, as the real driver delivers them."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._pending: list[ButtonPress] = []

    def press(self, button: str) -> None:
        if button not in {b.value for b in Button}:
            raise ValueError(f"no button {button!r} (buttons: {', '.join(b.value for b in Button)})")
        self._pending.append(ButtonPress(button, self.clock()))

    def poll(self) -> list[ButtonPress]:
        presses, self._pending = self._pending, []
        return presses

    def close(self) -> None:
        self._pending.clear()
