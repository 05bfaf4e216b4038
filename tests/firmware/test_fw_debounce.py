"""The debouncers against the tables of debounce_tables.py.

Binary tables run on both the row-bitmask debouncer (reed matrix) and the
per-cell debouncer (Hall codes); value tables on the per-cell one. Runs under
CPython (pytest) and MicroPython (mpy_runner.py).
"""

import fwtest  # noqa: F401  (first: puts the firmware and the simulated chip on the import path)

# isort: split
import array

from debounce import CellDebouncer, RowDebouncer, clamp_elapsed
from debounce_tables import BINARY, VALUES
from fwtest import check


class _Rows:
    """A RowDebouncer over cells laid out as 2 columns per row."""

    def __init__(self, cells, debounce_us):
        self.cols = 2 if cells > 1 else 1
        self.rows = (cells + self.cols - 1) // self.cols
        self.cells = cells
        self.debouncer = RowDebouncer(self.rows, self.cols, debounce_us)
        self.raw = array.array("H", [0] * self.rows)

    def update(self, values, elapsed_us):
        for r in range(self.rows):
            bits = 0
            for c in range(self.cols):
                i = r * self.cols + c
                if i < self.cells and values[i]:
                    bits |= 1 << c
            self.raw[r] = bits
        return self.debouncer.update(self.raw, elapsed_us)

    def output(self):
        cooked = self.debouncer.cooked
        return [(cooked[i // self.cols] >> (i % self.cols)) & 1 for i in range(self.cells)]


class _Cells:
    def __init__(self, cells, debounce_us):
        self.debouncer = CellDebouncer(cells, debounce_us)
        self.raw = bytearray(cells)

    def update(self, values, elapsed_us):
        for i in range(len(values)):
            self.raw[i] = values[i]
        return self.debouncer.update(self.raw, elapsed_us)

    def output(self):
        return list(self.debouncer.cooked)


def _scan_times(table):
    rows = table["rows"]
    if not table["scan_ms"]:
        return [row[0] for row in rows]
    return list(range(0, rows[-1][0] + 1, table["scan_ms"]))


def _run(table, make):
    rows = table["rows"]
    subject = make(len(rows[0][1]), table["debounce_ms"] * 1000)
    previous_time = 0
    previous_output = subject.output()
    row = 0
    for t in _scan_times(table):
        while row + 1 < len(rows) and rows[row + 1][0] <= t:
            row += 1
        changed = subject.update(rows[row][1], (t - previous_time) * 1000)
        previous_time = t
        output = subject.output()
        where = table["name"] + " (" + type(subject).__name__ + ") at " + str(t) + " ms"
        check(
            output == list(rows[row][2]),
            where + ": output " + str(output) + ", expected " + str(rows[row][2]),
        )
        check(changed == (output != previous_output), where + ": update() misreports a change")
        previous_output = output


def test_binary_tables_on_the_row_debouncer():
    for table in BINARY:
        _run(table, _Rows)


def test_binary_tables_on_the_cell_debouncer():
    for table in BINARY:
        _run(table, _Cells)


def test_value_tables_on_the_cell_debouncer():
    for table in VALUES:
        _run(table, _Cells)


def test_a_huge_gap_between_scans_is_one_long_stable_period():
    # elapsed is clamped (no overflow on the device): a change seen twice 1 hour apart is settled.
    debouncer = RowDebouncer(1, 1, 5000)
    closed = array.array("H", [1])
    debouncer.update(closed, 1000)
    check(debouncer.update(closed, 3600 * 1000 * 1000), "settled after a long gap")
    check(debouncer.cooked[0] == 1, "cooked follows")


def test_settling_is_true_exactly_while_a_change_waits_out_the_debounce_time():
    # The first STATE waits for this: scans that run back to back after a late period must
    # not report a board whose cells have not been seen for the whole debounce time.
    rows = RowDebouncer(2, 2, 5000)
    cells = CellDebouncer(4, 5000)
    check(not rows.settling() and not cells.settling(), "nothing pending at rest")
    raw = array.array("H", [0, 2])
    rows.update(raw, 100)
    cells.update(bytearray([0, 0, 0, 1]), 100)
    check(rows.settling() and cells.settling(), "a new raw value is pending")
    rows.update(raw, 1000)
    cells.update(bytearray([0, 0, 0, 1]), 1000)
    check(rows.settling() and cells.settling(), "still pending 1 ms later")
    rows.update(raw, 5000)
    cells.update(bytearray([0, 0, 0, 1]), 5000)
    check(not rows.settling() and not cells.settling(), "settled after the debounce time")
    check(rows.cooked[1] == 2 and cells.cooked[3] == 1, "and reported")


def test_the_time_between_scans_is_taken_as_never_negative_and_at_most_16_8_s():
    # 16.8 s is 2 ** 24 us: a counter (a 32-bit "i") never overflows adding it to the debounce time.
    for elapsed, taken in [(-5000, 0), (-1, 0), (0, 0), (1, 1), (5000, 5000)]:
        check(clamp_elapsed(elapsed) == taken, "clamp_elapsed(" + str(elapsed) + ")")
    for elapsed in (16_777_216, 16_777_217, 3600 * 1000 * 1000):
        check(clamp_elapsed(elapsed) == 16_777_216, "clamp_elapsed(" + str(elapsed) + ") is 16.8 s")


def test_a_change_is_reported_after_the_whole_debounce_time_not_a_microsecond_before():
    rows = RowDebouncer(1, 1, 5000)
    cells = CellDebouncer(1, 5000)
    for subject, raw in ((rows, array.array("H", [1])), (cells, bytearray([1]))):
        subject.update(raw, 100)
        check(not subject.update(raw, 4999), "1 us short of the debounce time: not yet")
        check(subject.update(raw, 1) and subject.cooked[0] == 1, "the whole debounce time: reported")


def test_a_glitch_back_to_the_reported_value_leaves_nothing_waiting():
    rows = RowDebouncer(1, 2, 5000)
    cells = CellDebouncer(2, 5000)
    for subject, changed, back in (
        (rows, array.array("H", [2]), array.array("H", [0])),
        (cells, bytearray([0, 1]), bytearray([0, 0])),
    ):
        subject.update(changed, 1000)
        check(subject.settling(), "a new raw value waits")
        subject.update(back, 1000)
        check(not subject.settling(), "back to the reported value: nothing waits")
