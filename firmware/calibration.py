"""Analog Hall readings as codes: empty, north, south, or weak.

A reading is judged by its departure from that sensor's own zero. North
facing the sensor lowers the reading, south raises it (the board description
uses the same convention). Each boundary has hysteresis: a cell leaves a state
only when the reading has moved the hysteresis past the boundary it crossed to
get there, so noise on a threshold does not flicker.

With strong_threshold (a "levels" build), a magnet between threshold and
strong_threshold reads WEAK, either pole: a tile under a piece's field.

classify_cells is the reference for the viper loop the firmware runs (hotloops.classify_cells).
"""

try:
    from micropython import const
except ImportError:

    def const(value):
        return value


EMPTY = const(0)
NORTH = const(1)
SOUTH = const(2)
WEAK = const(3)

DEFAULT_ZERO = const(32768)
DEFAULT_THRESHOLD = const(3000)
DEFAULT_HYSTERESIS = const(600)


def classify(previous, delta, threshold, strong, hysteresis):
    """The code of a reading delta = raw - zero, given the cell's previous code.

    strong is 0 when the build has no weak level.
    """
    magnitude = -delta if delta < 0 else delta
    enter = threshold
    if previous != EMPTY:
        enter = threshold - hysteresis
    if magnitude < enter:
        return EMPTY
    if strong:
        enter = strong
        if previous in (NORTH, SOUTH):
            enter = strong - hysteresis
        if magnitude < enter:
            return WEAK
    if delta < 0:
        return NORTH
    return SOUTH


def classify_cells(raw, zero, codes, limits):
    """Every cell's code from its reading and its previous code: codes[i] = classify(codes[i],
    raw[i] - zero[i], ...), with limits = (threshold, strong_threshold or 0, hysteresis)."""
    threshold = limits[0]
    strong = limits[1]
    hysteresis = limits[2]
    for i in range(len(codes)):
        codes[i] = classify(codes[i], raw[i] - zero[i], threshold, strong, hysteresis)
