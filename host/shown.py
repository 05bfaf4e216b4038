"""Text from outside (a record, the store, a file name) made safe to print on a terminal.

A player's name in an imported record is whatever its author typed: ESC and C1 CSI start terminal
escape sequences (clear the screen, retitle the window, fake an earlier line), BEL rings, U+202E
turns the rest of the line around, a newline forges a line of its own.  Everything magboard prints
that came from outside goes through ``shown``, which writes such characters as escapes (``\\x1b``,
``\\u202e``) and leaves every other character, accents and all, as it is.
"""

from __future__ import annotations

import unicodedata

# Controls (C0, DEL, C1), format characters (bidi overrides and isolates, zero-width joiners),
# line and paragraph separators, and lone surrogates (bytes that were not UTF-8: unprintable).
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
QUOTED_CHARS = 40


def is_unsafe(char: str) -> bool:
    """Whether a terminal might act on ``char`` instead of showing it."""
    return unicodedata.category(char) in UNSAFE_CATEGORIES


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(text: str) -> str:
    """``text`` with every character a terminal might act on written as an escape."""
    if text.isprintable():  # the usual case, at C speed (it is False for all of UNSAFE_CATEGORIES)
        return text
    return "".join(_escape(char) if is_unsafe(char) else char for char in text)


def quoted(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` quoted for a message and cut to ``limit`` characters (repr escapes what ``shown`` does)."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def one_line(text: str, limit: int) -> str:
    """``text`` (an engine's name or message) as one printable line: escapes written out (a newline is
    ``\\n``), at most ``limit`` characters of it, then its length when longer."""
    safe = shown(text)
    return safe if len(safe) <= limit else f"{safe[:limit]}... ({len(text)} characters)"


# What ``str.splitlines`` breaks a line at: a text record (engines/records.py) holds a name on one line.
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def unbroken(text: str) -> str:
    """``text`` with every line break written as an escape, and nothing else changed: a name stored before
    engines' names were made one line still exports to a record that imports."""
    return "".join(_escape(char) if char in LINE_BREAKS else char for char in text)
