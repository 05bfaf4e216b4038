"""The Go Text Protocol's text, without the process: commands out, responses in (GTP 2, section 2).

A command is one line; a response begins with ``=`` (success) or ``?``
(failure), optionally an id, then its text, and ends with an empty line.
Anything else where a response must begin is garbage, and the engine speaking
it is not (or no longer) speaking GTP.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.game import quoted

MAX_LINE = 65_536  # longer than any response a move needs: an engine flooding us is not speaking GTP
# A whole response: GnuGo's list_commands, the longest asked, is 190 lines and 3.4 KB.
MAX_RESPONSE_LINES = 2_000
MAX_RESPONSE = 256 * 1024
MAX_ID_DIGITS = 18  # ours count up from 1


class GtpError(Exception):
    """The engine cannot be played with: it died, hung, refused, or answered something else than GTP."""


@dataclass(frozen=True)
class Response:
    ok: bool
    text: str
    id: int | None = None  # the id of the command it answers, if the engine gave it (GTP 2, 2.5)


def command(name: str, *args: object, id: int | None = None) -> str:
    """The line of a command (with its id, if given), newline included."""
    line = " ".join([*([] if id is None else [str(id)]), name, *(str(a) for a in args)])
    if not line.isprintable():
        raise ValueError(f"a GTP command is one line of printable text, not {line!r}")
    return line + "\n"


class Reader:
    """Collects the engine's lines into responses (feed it every line, newline or not)."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._ok = True
        self._id: int | None = None
        self._size = 0

    def feed(self, raw: str) -> Response | None:
        """The response this line completes, or None.  GtpError on a line that cannot begin one."""
        # The protocol's pre-processing: control characters other than tab and newline go; a tab is a space.
        line = "".join(c for c in raw.rstrip("\r\n").replace("\t", " ") if c.isprintable())
        if not self._lines:
            if not line.strip():
                return None  # blank lines between responses are tolerated
            if line[0] not in "=?":
                raise GtpError(f"answered {quoted(line)}, not a GTP response")
            self._ok = line[0] == "="
            head = line[1:].lstrip("0123456789")
            digits = line[1 : len(line) - len(head)]
            if len(digits) > MAX_ID_DIGITS:
                raise GtpError(f"answered an id of {len(digits)} digits")
            self._id = int(digits) if digits else None
            self._size = len(head)
            self._lines.append(head.strip())
            return None
        if line.strip():
            self._size += len(line) + 1
            self._lines.append(line.strip())
            if len(self._lines) > MAX_RESPONSE_LINES or self._size > MAX_RESPONSE:
                raise GtpError(
                    f"answered more than {MAX_RESPONSE_LINES} lines or {MAX_RESPONSE // 1024} KB at once"
                )
            return None
        response = Response(self._ok, "\n".join(self._lines).strip(), self._id)
        self._lines = []
        return response
