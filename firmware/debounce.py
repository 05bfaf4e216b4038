"""Symmetric, deferred, per-cell debouncing by counting (QMK's sym_defer_pk).

A cell's reported (cooked) value follows its raw value only after the raw
value has stayed the same, and different from the cooked one, for the whole
debounce time. Any change of the raw value restarts that cell's count; going
back to the cooked value cancels it. Nothing is reported eagerly: a magnet
sliding across a cell is noise until it rests.

Counts are in microseconds of scan time, so a slow scan settles a cell as soon
as it has been seen unchanged across the debounce time. update() allocates
nothing; each cell keeps its own counter.

update_rows and update_cells below are the plain Python references; under MicroPython the
debouncers run their viper twins (hotloops), which the tests check equal on random scans.
"""

import array
import sys

try:
    from micropython import const
except ImportError:

    def const(value):
        return value


_MAX_ELAPSED_US = const(1 << 24)


def clamp_elapsed(elapsed_us):
    """The time between two scans as the counters take it: never negative (a clock glitch),
    at most 16.8 s (a count never overflows a machine word)."""
    if elapsed_us < 0:
        return 0
    if elapsed_us > _MAX_ELAPSED_US:
        return _MAX_ELAPSED_US
    return elapsed_us


class RowDebouncer:
    """Debounces a digital matrix kept as one bit mask per row (column c = bit c).

    Rows where nothing changed and nothing is pending cost one comparison.
    """

    def __init__(self, rows, cols, debounce_us):
        self.rows = rows
        self.cols = cols
        self.debounce_us = debounce_us
        self.cooked = array.array("H", [0] * rows)
        self._last = array.array("H", [0] * rows)
        self._pending = array.array("H", [0] * rows)
        self._counters = array.array("i", [0] * (rows * cols))

    def update(self, raw, elapsed_us):
        """Take one scan (raw[r] = bit mask of row r, an array "H") made elapsed_us after the
        previous one; return True when any cooked cell changed."""
        return _update_rows(self, raw, clamp_elapsed(elapsed_us))

    def settling(self):
        """True while some cell's raw value waits out the debounce time."""
        return any(self._pending)


class CellDebouncer:
    """Debounces one small value per cell (0..255), for the analog Hall codes."""

    def __init__(self, count, debounce_us):
        self.count = count
        self.debounce_us = debounce_us
        self.cooked = bytearray(count)
        self._last = bytearray(count)
        self._counters = array.array("i", [0] * count)
        self._pending = 0

    def update(self, raw, elapsed_us):
        """Take one scan (raw[i] = value of cell i, a bytearray); return True when any
        cooked value changed."""
        return _update_cells(self, raw, clamp_elapsed(elapsed_us))

    def settling(self):
        """True while some cell's raw value waits out the debounce time."""
        return self._pending > 0


def update_rows(debouncer, raw, elapsed_us):
    """RowDebouncer.update in plain Python (elapsed_us clamped): the reference for
    hotloops.update_rows."""
    cols = debouncer.cols
    cooked_rows = debouncer.cooked
    last_rows = debouncer._last
    pending_rows = debouncer._pending
    counters = debouncer._counters
    changed = False
    for r in range(debouncer.rows):
        now = raw[r]
        last = last_rows[r]
        pending = pending_rows[r]
        if now == last and not pending:
            continue
        cooked = cooked_rows[r]
        moved = now ^ last
        running = pending & ~moved
        base = r * cols
        if running:
            for c in range(cols):
                bit = 1 << c
                if running & bit:
                    left = counters[base + c] - elapsed_us
                    if left <= 0:
                        counters[base + c] = 0
                        pending &= ~bit
                        cooked = (cooked & ~bit) | (now & bit)
                        changed = True
                    else:
                        counters[base + c] = left
        if moved:
            differs = now ^ cooked
            pending &= ~(moved & ~differs)
            start = moved & differs
            if start:
                for c in range(cols):
                    if start & (1 << c):
                        counters[base + c] = debouncer.debounce_us
                pending |= start
        cooked_rows[r] = cooked
        last_rows[r] = now
        pending_rows[r] = pending
    return changed


def update_cells(debouncer, raw, elapsed_us):
    """CellDebouncer.update in plain Python (elapsed_us clamped): the reference for
    hotloops.update_cells."""
    if not debouncer._pending and raw == debouncer._last:
        return False
    cooked = debouncer.cooked
    last = debouncer._last
    counters = debouncer._counters
    pending = debouncer._pending
    changed = False
    for i in range(debouncer.count):
        now = raw[i]
        if now != last[i]:
            last[i] = now
            if now == cooked[i]:
                if counters[i]:
                    counters[i] = 0
                    pending -= 1
            else:
                if not counters[i]:
                    pending += 1
                counters[i] = debouncer.debounce_us
        elif counters[i]:
            left = counters[i] - elapsed_us
            if left <= 0:
                counters[i] = 0
                pending -= 1
                cooked[i] = now
                changed = True
            else:
                counters[i] = left
    debouncer._pending = pending
    return changed


if sys.implementation.name == "micropython":
    from hotloops import update_cells as _update_cells
    from hotloops import update_rows as _update_rows
else:
    _update_cells = update_cells
    _update_rows = update_rows
