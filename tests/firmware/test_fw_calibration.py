"""Analog Hall classification: thresholds, polarity, hysteresis, weak level.

North lowers the reading (delta < 0), south raises it, as the board
description's sensor model says. Runs under CPython and MicroPython.
"""

import fwtest  # noqa: F401  (first: puts the firmware and the simulated chip on the import path)

# isort: split
from calibration import EMPTY, NORTH, SOUTH, WEAK, classify
from fwtest import check

# (previous code, delta, expected code) with threshold 2000, hysteresis 500, no weak level.
POLARITY = [
    (EMPTY, 0, EMPTY),
    (EMPTY, 1999, EMPTY),
    (EMPTY, 2000, SOUTH),  # the threshold itself counts (as on the host: magnitude < threshold is empty)
    (EMPTY, -2000, NORTH),
    (EMPTY, -1999, EMPTY),
    (SOUTH, 1600, SOUTH),  # inside the hysteresis band: stays
    (SOUTH, 1501, SOUTH),
    (SOUTH, 1500, SOUTH),
    (SOUTH, 1499, EMPTY),  # below threshold - hysteresis: gone
    (NORTH, -1500, NORTH),
    (NORTH, -1499, EMPTY),
    (NORTH, 2500, SOUTH),  # turned over between two scans
    (SOUTH, -2500, NORTH),
    (EMPTY, 30000, SOUTH),
]

# threshold 2000, strong 8000, hysteresis 500: weak below 8000, strong from 8000.
LEVELS = [
    (EMPTY, 1999, EMPTY),
    (EMPTY, 2000, WEAK),
    (EMPTY, -5000, WEAK),  # weak is either pole
    (EMPTY, 7999, WEAK),
    (EMPTY, 8000, SOUTH),
    (EMPTY, -8000, NORTH),
    (WEAK, 7999, WEAK),  # rising into strong needs the full strong threshold
    (WEAK, 1500, WEAK),  # a weak magnet keeps the lower hysteresis too
    (WEAK, 1499, EMPTY),
    (SOUTH, 7500, SOUTH),  # strong stays strong inside the band
    (SOUTH, 7499, WEAK),
    (NORTH, -7500, NORTH),
    (NORTH, -7499, WEAK),
    (NORTH, -1499, EMPTY),
]


def test_polarity_thresholds_and_hysteresis():
    for previous, delta, expected in POLARITY:
        got = classify(previous, delta, 2000, 0, 500)
        check(got == expected, "previous " + str(previous) + ", delta " + str(delta) + ": got " + str(got))


def test_levels():
    for previous, delta, expected in LEVELS:
        got = classify(previous, delta, 2000, 8000, 500)
        check(got == expected, "previous " + str(previous) + ", delta " + str(delta) + ": got " + str(got))


def test_noise_on_the_threshold_does_not_flicker():
    # A magnet whose reading wobbles +-300 around the threshold: once in, it stays in.
    code = EMPTY
    seen = []
    for delta in (1700, 2100, 1800, 2050, 1900, 1700, 2200, 1600):
        code = classify(code, delta, 2000, 0, 500)
        seen.append(code)
    check(seen == [EMPTY, SOUTH, SOUTH, SOUTH, SOUTH, SOUTH, SOUTH, SOUTH], str(seen))
