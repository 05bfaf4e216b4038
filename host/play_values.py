"""The values `magboard play` takes, each checked in one place.

The command line (``magboard play --level ... --port ...``) and the service's
configuration file (``magboard service check``, which runs `play` with those
values) both check through these functions, so a value the service would
pass on is never one that `play` refuses. Each check takes the value as the
caller has it (a TOML value, or the command line's text already parsed by
``from_text``) and raises ValueError saying what is wrong, without the key:
the caller knows which key or option it was.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import TypeVar

from engines.ai.levels import HIGHEST, LOWEST
from host.numbers import integer
from host.web.access import is_loopback, is_own_host, is_unspecified, split_host

T = TypeVar("T")

MAX_SECONDS = 3600.0
MAX_WORKERS = 64
VOICE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+/.-]{0,39}")
MIN_RATE, MAX_RATE = 80, 450  # espeak-ng's -s
DEFAULT_VOICE = "en"
DEFAULT_RATE = 175  # words a minute: espeak-ng's own default


def describe(value: object) -> str:
    """A value as an error message shows it: short, whatever it is (a 5000-digit number, a deep table)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**20:
        return f"an integer of about {round(value.bit_length() * math.log10(2))} digits"
    text = repr(value) if isinstance(value, str | int | float | bool) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def level(value: object) -> int:
    number = _integer(value)
    if number is None or not LOWEST <= number <= HIGHEST:
        raise ValueError(f"must be an integer {LOWEST}..{HIGHEST}, got {describe(value)}")
    return number


def seconds(value: object) -> float:
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else math.nan
    if not (math.isfinite(number) and 0 < number <= MAX_SECONDS):
        limit = f"above 0 and at most {MAX_SECONDS:g}"
        raise ValueError(f"must be a number of seconds {limit}, got {describe(value)}")
    return float(number)


def side(value: object) -> int:
    number = _integer(value)
    if number not in (0, 1):
        raise ValueError(f"must be 0 (moves first) or 1, got {describe(value)}")
    assert number is not None
    return number


def workers(value: object) -> int:
    """How many processes a timed AI search uses, this one included (1: this one alone)."""
    number = _integer(value)
    if number is None or not 1 <= number <= MAX_WORKERS:
        raise ValueError(f"must be an integer 1..{MAX_WORKERS}, got {describe(value)}")
    return number


def voice(value: object) -> str:
    """An espeak-ng voice name ('en', 'en-us', 'en+f3', 'de'): whether espeak-ng knows it, it says."""
    if not isinstance(value, str) or not VOICE_NAME.fullmatch(value):
        raise ValueError(
            f"must be a voice name such as 'en' or 'en-us' (espeak-ng --voices), got {describe(value)}"
        )
    return value


def voice_rate(value: object) -> int:
    """How fast the voice speaks, in words a minute (espeak-ng's range)."""
    number = _integer(value)
    if number is None or not MIN_RATE <= number <= MAX_RATE:
        raise ValueError(f"must be words a minute {MIN_RATE}..{MAX_RATE}, got {describe(value)}")
    return number


def port(value: object) -> int:
    """A TCP port; 0 asks for any free one (the tests' way to run several pages at once)."""
    number = _integer(value)
    if number is None or not 0 <= number < 65536:
        raise ValueError(f"must be a port number 1..65535 (or 0: any free one), got {describe(value)}")
    return number


def page_host(value: object) -> str:
    """An address the page can be served on: this machine's own, or 0.0.0.0 / :: for all of them."""
    if not isinstance(value, str) or not value or value != value.strip():
        raise ValueError(f"must be an address of this machine such as 127.0.0.1, got {describe(value)}")
    host = value.strip("[]")
    if not (is_loopback(host) or is_unspecified(host) or is_own_host(host)):
        raise ValueError(f"{value!r} is not an address or name of this machine")
    return host


def page(value: object) -> tuple[str, int]:
    """ADDRESS:PORT as (address, port)."""
    if not isinstance(value, str) or ":" not in value:
        raise ValueError(f'must be ADDRESS:PORT such as "127.0.0.1:8765", got {describe(value)}')
    name, port_text = split_host(value)
    if not port_text:
        raise ValueError(f'must be ADDRESS:PORT such as "127.0.0.1:8765", got {describe(value)}')
    try:
        return page_host(name), port(integer_text(port_text))
    except ValueError as exc:
        raise ValueError(f"{describe(value)}: {exc}") from None


def integer_text(text: str) -> int | str:
    """The integer a text spells (host.numbers); else the text itself, for the check to refuse."""
    number = integer(text)
    return text if number is None else number


def number_text(text: str) -> float | str:
    try:
        return float(text) if len(text) <= 40 else text
    except ValueError:
        return text


def from_text(
    check: Callable[[object], T], parse: Callable[[str], object] = integer_text
) -> Callable[[str], T]:
    """An argparse ``type``: the text parsed, then checked; argparse names the option in its error."""

    def convert(text: str) -> T:
        try:
            return check(parse(text))
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = check.__name__
    return convert
