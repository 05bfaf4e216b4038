"""Deferred debouncing: a change counts once the input has held it for the whole hold time.

This is QMK's "sym_defer": it ignores any glitch shorter than the hold time
in both directions, at the price of that much latency, which a person
pressing a button never notices.
"""

from __future__ import annotations


class Debouncer:
    def __init__(self, hold_us: int, initial: bool = False) -> None:
        self.hold_us = hold_us
        self.stable = initial
        self._since: int | None = None  # when the raw input last moved away from ``stable``

    def update(self, raw: bool, now_us: int) -> bool | None:
        """Feed one sample; the new stable state when it changes, else None."""
        if raw == self.stable:
            self._since = None
            return None
        if self._since is None:
            self._since = now_us
        if now_us - self._since >= self.hold_us:
            self.stable = raw
            self._since = None
            return raw
        return None
