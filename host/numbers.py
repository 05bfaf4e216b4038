"""Whole numbers read from outside - the command line, a script, a journal, a page - in one place.

``str.isdigit()`` says yes to '²', which ``int()`` then refuses, and ``int()`` itself takes '٣' (an
Arabic-Indic three), ' 7 ', '1_000' and numbers of 4,000 digits; each of those became a crash further
on: a take-back count of '²' in an old journal, a store id too big for SQLite, a recursion as deep as
a perft depth, a wait longer than ``time.sleep`` takes.  Here a number is ASCII digits with an optional sign,
short enough to be a number anyone means, within the range its caller gives.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

from host.shown import quoted

_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")  # [0-9] is ASCII only; 18 digits fit SQLite's 64 bits
LARGEST_ID = 2**63 - 1  # SQLite's largest row id


def integer(text: str) -> int | None:
    """The integer ``text`` spells in ASCII digits (an optional sign, at most 18 digits), else None."""
    return int(text) if _INTEGER.fullmatch(text) else None


def whole(text: str, low: int, high: int, what: str = "a whole number") -> int:
    """``text`` as an integer low..high; ValueError saying what was expected and what came."""
    number = integer(text)
    if number is None or not low <= number <= high:
        raise ValueError(f"expected {what} {low}..{high}, got {quoted(text)}")
    return number


def argument(low: int, high: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse ``type`` for a whole number low..high (argparse names the argument in its error)."""

    def convert(text: str) -> int:
        try:
            return whole(text, low, high, what)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = what
    return convert
