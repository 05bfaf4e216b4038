"""The Go Text Protocol's text, without the process: commands out, responses in (GTP 2, section 2).

A command is one line; a response begins with ``=`` (success) or ``?``
(failure), optionally an id, then its text, and ends with an empty line.
Anything else where a response must begin is garbage, and the engine speaking
it is not (or no longer) speaking GTP.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINE = 65_536  # longer than any response a move needs: an engine flooding us is not speaking GTP


class GtpError(Exception):
    """The engine cannot be played with: it died, hung, refused, or answered something else than GTP."""


@dataclass(frozen=True)
class Response:
    ok: bool
    text: str


def command(name: str, *args: object) -> str:
    """The line of a command, newline included."""
    line = " ".join([name, *(str(a) for a in args)])
    if not line.isprintable():
        raise ValueError(f"a GTP command is one line of printable text, not {line!r}")
    return line + "\n"


class Reader:
    """Collects the engine's lines into responses (feed it every line, newline or not)."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._ok = True

    def feed(self, raw: str) -> Response | None:
        """The response this line completes, or None.  GtpError on a line that cannot begin one."""
        # The protocol's pre-processing: control characters other than tab and newline go; a tab is a space.
        line = "".join(c for c in raw.rstrip("\r\n").replace("\t", " ") if c.isprintable())
        if not self._lines:
            if not line.strip():
                return None  # blank lines between responses are tolerated
            if line[0] not in "=?":
                raise GtpError(f"answered {line[:60]!r}, not a GTP response")
            self._ok = line[0] == "="
            head = line[1:].lstrip("0123456789")
            self._lines.append(head.strip())
            return None
        if line.strip():
            self._lines.append(line.strip())
            return None
        response = Response(self._ok, "\n".join(self._lines).strip())
        self._lines = []
        return response
