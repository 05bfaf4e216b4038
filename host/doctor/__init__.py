"""`magboard doctor`: check a board build end to end, with a person (or simulated hands) at it.

The hardware self-test proves a board *file* adds up; the doctor proves a
built (or simulated) board works: the serial link and firmware, every LED,
every sensor and every button, each exercised the way a player would.
"""
