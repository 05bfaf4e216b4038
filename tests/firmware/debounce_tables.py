"""Debounce behaviour as tables of (time ms, raw input, expected output), in the
manner of QMK's debounce tests.

With "scan_ms": N the debouncer scans every N ms from time 0; the raw input
is the latest row's at or before each scan, and the output must equal the
latest row's expected value at every scan (so it changes exactly at the listed
times, never between). With "scan_ms": 0 there is one scan per row, at its
time. raw/expected are one value per cell; "cells" says how many. Tables with
"values" use codes 0..3 (analog Hall) and run only on the per-cell debouncer.
"""

BINARY = [
    {
        "name": "a clean close is reported exactly debounce_ms later",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [0], [0]), (10, [1], [0]), (15, [1], [1]), (20, [1], [1])],
    },
    {
        "name": "opening is debounced the same way (symmetric)",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [1], [0]), (5, [1], [1]), (20, [0], [1]), (25, [0], [0])],
    },
    {
        "name": "a bounce burst is reported debounce_ms after its last edge",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [
            (0, [1], [0]),
            (1, [0], [0]),
            (2, [1], [0]),
            (3, [0], [0]),
            (4, [1], [0]),
            (5, [0], [0]),
            (6, [1], [0]),
            (11, [1], [1]),
        ],
    },
    {
        "name": "a 1 ms glitch is never reported",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [0], [0]), (3, [1], [0]), (4, [0], [0]), (20, [0], [0])],
    },
    {
        "name": "a piece sliding across for 4 ms is noise, never eager",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [0], [0]), (2, [1], [0]), (6, [0], [0]), (30, [0], [0])],
    },
    {
        "name": "going back to the reported value restarts the wait",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [1], [0]), (4, [0], [0]), (5, [1], [0]), (10, [1], [1])],
    },
    {
        "name": "a longer configured debounce (12 ms)",
        "debounce_ms": 12,
        "scan_ms": 1,
        "rows": [(0, [1], [0]), (11, [1], [0]), (12, [1], [1])],
    },
    {
        "name": "debounce of 1 ms settles on the next scan",
        "debounce_ms": 1,
        "scan_ms": 1,
        "rows": [(0, [0], [0]), (3, [1], [0]), (4, [1], [1]), (7, [0], [1]), (8, [0], [0])],
    },
    {
        "name": "slow scans (7 ms apart): reported at the first scan at least debounce_ms after the change",
        "debounce_ms": 5,
        "scan_ms": 7,
        "rows": [(0, [0], [0]), (7, [1], [0]), (14, [1], [1]), (28, [0], [1]), (35, [0], [0])],
    },
    {
        "name": "slow scans: a change seen by a single scan is not reported",
        "debounce_ms": 5,
        "scan_ms": 7,
        "rows": [(0, [0], [0]), (7, [1], [0]), (14, [0], [0]), (42, [0], [0])],
    },
    {
        "name": "irregular scans: 3 ms + 1 ms is not yet 5 ms, the scan at 9 ms is",
        "debounce_ms": 5,
        "scan_ms": 0,
        "rows": [(0, [0], [0]), (1, [1], [0]), (4, [1], [0]), (5, [1], [0]), (9, [1], [1])],
    },
    {
        "name": "cells are independent: a bouncing neighbour does not delay a clean close",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [
            (0, [1, 1, 0, 0], [0, 0, 0, 0]),
            (1, [1, 0, 0, 1], [0, 0, 0, 0]),
            (2, [1, 1, 0, 0], [0, 0, 0, 0]),
            (5, [1, 1, 0, 0], [1, 0, 0, 0]),
            (7, [1, 1, 0, 0], [1, 1, 0, 0]),
        ],
    },
    {
        "name": "several cells settling in the same scan all change together",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [
            (0, [0, 0, 0, 0], [0, 0, 0, 0]),
            (1, [1, 0, 1, 1], [0, 0, 0, 0]),
            (6, [1, 0, 1, 1], [1, 0, 1, 1]),
        ],
    },
    {
        "name": "a 1 ms glitch open while closed is never reported",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [1], [0]), (5, [1], [1]), (10, [0], [1]), (11, [1], [1]), (30, [1], [1])],
    },
    {
        # With two cells a row, cells 1 and 3 are the same column of two rows.
        "name": "a cell settling in one row does not cut short a wait in another",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [
            (0, [0, 0, 0, 1], [0, 0, 0, 0]),
            (3, [0, 1, 0, 1], [0, 0, 0, 0]),
            (5, [0, 1, 0, 1], [0, 0, 0, 1]),
            (8, [0, 1, 0, 1], [0, 1, 0, 1]),
            (12, [0, 1, 0, 1], [0, 1, 0, 1]),
        ],
    },
]

VALUES = [
    {
        "name": "a piece turned over (north to south) is reported once south is stable",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [1], [0]), (5, [1], [1]), (10, [2], [1]), (15, [2], [2])],
    },
    {
        "name": "any change of the raw code restarts the wait (north, weak, north)",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [1], [0]), (3, [3], [0]), (6, [1], [0]), (11, [1], [1])],
    },
    {
        "name": "empty, then north passing by, then south settling",
        "debounce_ms": 5,
        "scan_ms": 1,
        "rows": [(0, [0], [0]), (2, [1], [0]), (4, [2], [0]), (9, [2], [2])],
    },
]
