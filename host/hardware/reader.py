"""Typed access to a parsed TOML document that records every problem with its key.

A board file is edited by hand, so one run should list every mistake in it,
each naming the key (``cells.a1.row``), rather than stop at the first.  Each
getter returns a harmless placeholder after recording a problem; the loader
discards the whole result whenever any problem was recorded.
"""

from __future__ import annotations

import math
import reprlib
import tomllib
from collections.abc import Callable, Mapping
from typing import TypeVar

T = TypeVar("T")


class Problems:
    """The problems found in one file, in the order found."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def add(self, key: str, message: str) -> None:
        self.messages.append(f"{key}: {message}" if key else message)

    def __bool__(self) -> bool:
        return bool(self.messages)


MAX_KEY_PARTS = 32  # a.b.c = 1 has 3; ours have at most 3, and tomllib takes time squared in the depth
_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+")


def _string_end(text: str, start: int) -> int:
    """Where the string starting at ``text[start]`` (a quote) ends: the index after its last quote."""
    quote = text[start]
    escapes = quote == '"'
    if text.startswith(quote * 3, start):
        end, i = quote * 3, start + 3
    else:
        end, i = quote, start + 1
    while i < len(text):
        if escapes and text[i] == "\\":
            i += 2
        elif text.startswith(end, i):
            i += len(end)
            for _ in range(2 if len(end) == 3 else 0):  # '""""': a quote of the content, then the end
                i += text.startswith(quote, i)
            return i
        elif len(end) == 1 and text[i] == "\n":
            return i  # an unclosed string: tomllib stops there
        else:
            i += 1
    return i


def deepest_key(text: str) -> int:
    """The most parts of any dotted run (``a.b."c".d``) outside strings and comments.

    Numbers count too (``3.5`` is two parts), which is why the limit is far above any real key.
    """
    i = run = deepest = 0
    while i < len(text):
        char = text[i]
        if char in "\"'":
            i = _string_end(text, i)
            continue
        if char == "#":
            newline = text.find("\n", i)
            i = len(text) if newline < 0 else newline
            continue
        if char == ".":
            run += 1
            deepest = max(deepest, run)
        elif char not in _BARE and char not in " \t":
            run = 0
        i += 1
    return deepest + 1


def parse_toml(text: str) -> dict[str, object]:
    """A TOML document; ValueError with a one-line reason for anything tomllib refuses or chokes on."""
    if deepest_key(text) > MAX_KEY_PARTS:
        raise ValueError(f"a key of more than {MAX_KEY_PARTS} dotted parts: no magboard file nests that deep")
    try:
        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer too long to convert
        raise ValueError(f"not valid TOML: {exc}") from None
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise ValueError("not valid TOML: nested too deeply") from None


def _describe(value: object) -> str:
    text = reprlib.repr(value)  # bounded however deep value nests
    return text if len(text) <= 40 else text[:37] + "..."


class Table:
    """One TOML table; ``finish`` reports the keys nobody asked for (usually typos)."""

    def __init__(self, data: Mapping[str, object], path: str, problems: Problems) -> None:
        self.data = data
        self.path = path
        self.problems = problems
        self._seen: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def has(self, name: str) -> bool:
        self._seen.add(name)
        return name in self.data

    def _get(self, name: str, required: bool) -> object:
        self._seen.add(name)
        if name not in self.data:
            if required:
                self.problems.add(self.key(name), "missing")
            return None
        return self.data[name]

    def checked(self, name: str, check: Callable[[object], T], default: T) -> T:
        """The value under name passed through check, or default when it is absent or check's
        ValueError (its message is the reason) records a problem."""
        if not self.has(name):
            return default
        try:
            return check(self.data[name])
        except ValueError as exc:
            self.problems.add(self.key(name), str(exc))
            return default

    def integer(self, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self._get(name, True)
        return self._check_int(self.key(name), value, minimum, maximum) if value is not None else 0

    def _check_int(self, key: str, value: object, minimum: int | None, maximum: int | None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.add(key, f"expected an integer, got {_describe(value)}")
            return 0
        if minimum is not None and value < minimum:
            self.problems.add(key, f"{value} is below the minimum {minimum}")
        if maximum is not None and value > maximum:
            self.problems.add(key, f"{value} is above the maximum {maximum}")
        return value

    def number(self, name: str, *, minimum: float | None = None, maximum: float | None = None) -> float:
        value = self._get(name, True)
        if value is None:
            return 0.0
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            self.problems.add(self.key(name), f"expected a finite number, got {_describe(value)}")
            return 0.0
        if minimum is not None and value < minimum:
            self.problems.add(self.key(name), f"{value} is below the minimum {minimum}")
        if maximum is not None and value > maximum:
            self.problems.add(self.key(name), f"{value} is above the maximum {maximum}")
        return float(value)

    def optional_number(self, name: str, *, minimum: float | None = None) -> float | None:
        if not self.has(name):
            return None
        return self.number(name, minimum=minimum)

    def text(self, name: str, *, choices: tuple[str, ...] | None = None) -> str:
        value = self._get(name, True)
        if value is None:
            return ""
        if not isinstance(value, str):
            self.problems.add(self.key(name), f"expected a string, got {_describe(value)}")
            return ""
        if choices is not None and value not in choices:
            self.problems.add(self.key(name), f"{value!r} is not one of {', '.join(choices)}")
        return value

    def integers(self, name: str, *, required: bool = True) -> list[int]:
        value = self._get(name, required)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.add(self.key(name), f"expected a list of integers, got {_describe(value)}")
            return []
        out: list[int] = []
        for i, item in enumerate(value):
            out.append(self._check_int(f"{self.key(name)}[{i}]", item, None, None))
        return out

    def table(self, name: str, *, required: bool = True) -> Table:
        value = self._get(name, required)
        if value is None:
            return Table({}, self.key(name), self.problems)
        if not isinstance(value, dict):
            self.problems.add(self.key(name), f"expected a table, got {_describe(value)}")
            return Table({}, self.key(name), self.problems)
        return Table(value, self.key(name), self.problems)

    def subtables(self) -> list[tuple[str, Table]]:
        """Every entry of this table that is itself a table; any other entry is a problem."""
        out = []
        for name, value in self.data.items():
            self._seen.add(name)
            if isinstance(value, dict):
                out.append((name, Table(value, self.key(name), self.problems)))
            else:
                self.problems.add(self.key(name), f"expected a table, got {_describe(value)}")
        return out

    def finish(self) -> None:
        for name in self.data:
            if name not in self._seen:
                self.problems.add(self.key(name), "unknown key")
