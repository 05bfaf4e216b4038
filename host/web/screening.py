"""The first bytes of every connection, screened before the websocket library sees them.

websockets parses an HTTP request only as far as a websocket handshake needs: it
takes any method (a POST was served as a GET), and what it cannot parse - a body,
a TLS hello sent to the plain-HTTP port, a line of garbage - it answers by closing
the connection, or not at all until its timeout.  A browser or a person with curl
then learns nothing.  ``screen`` reads the request line and headers as they
arrive and decides early: a request the server serves goes on to websockets
unchanged; anything else gets its 4xx (405 with ``Allow: GET`` for another
method) and the connection is closed.  What a client sends after its request
and before the server's answer is dropped: a GET has no body, and a websocket
client may not send frames before the handshake's answer (RFC 6455, 4.1) -
websockets read such bytes as frames, failed, and answered nothing at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.protocol import CONNECTING

MAX_HEAD = 16 * 1024  # request line and headers; the page's requests are under 1 KiB
_METHOD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_REQUEST_LINE = re.compile(rb"([A-Z]{1,16}) ([\x21-\x7e]{1,8192}) (HTTP/1\.[01])")
_HEADER_LINE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e\x80-\xff]*")


@dataclass(frozen=True)
class Refusal:
    """The answer to a request the server does not take."""

    status: HTTPStatus
    text: str
    allow: bool = False  # 405: say which method is

    def response(self) -> bytes:
        body = (self.text + "\n").encode()
        head = [
            f"HTTP/1.1 {self.status.value} {self.status.phrase}", "Content-Type: text/plain; charset=utf-8",
            f"Content-Length: {len(body)}", "Connection: close", "Cache-Control: no-store",
        ]  # fmt: skip
        if self.allow:
            head.append("Allow: GET")
        return ("\r\n".join(head) + "\r\n\r\n").encode() + body


PASS = "pass"  # the head is a GET the websocket library can take
MORE = "more"  # not enough bytes yet to tell


def _lines(head: bytes) -> list[bytes]:
    return [line.removesuffix(b"\r") for line in head.split(b"\n")]


def head_end(head: bytes) -> int:
    """Where the request's head ends (after its blank line), or -1 while it has not."""
    for blank in (b"\r\n\r\n", b"\n\n"):
        at = head.find(blank)
        if at >= 0:
            return at + len(blank)
    return -1


def screen(head: bytes) -> Refusal | str:
    """What to do with a connection that has sent ``head`` so far: PASS, MORE, or a Refusal."""
    not_http = Refusal(HTTPStatus.BAD_REQUEST, "not an HTTP request (this page is served over http://)")
    method_end = head.find(b" ")
    method = head if method_end < 0 else head[:method_end]
    if not set(method) <= _METHOD_BYTES or len(method) > 16:
        return not_http  # a TLS hello (0x16), binary, lower case: no HTTP method
    line_end = head.find(b"\n")
    if line_end < 0:
        too_long = len(head) > MAX_HEAD
        return Refusal(HTTPStatus.REQUEST_URI_TOO_LONG, "the request line is too long") if too_long else MORE
    found = _REQUEST_LINE.fullmatch(head[:line_end].removesuffix(b"\r"))
    if found is None:
        return Refusal(HTTPStatus.BAD_REQUEST, "not a request line: METHOD /path HTTP/1.1")
    if found.group(1) != b"GET":
        return Refusal(HTTPStatus.METHOD_NOT_ALLOWED, "only GET is served here", allow=True)
    end = head_end(head)
    if end > MAX_HEAD or (end < 0 and len(head) > MAX_HEAD):
        return Refusal(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "the headers are too large")
    if end < 0:
        return MORE
    headers = [line for line in _lines(head[line_end + 1 : end]) if line]
    if not all(_HEADER_LINE.fullmatch(line) for line in headers):
        return Refusal(HTTPStatus.BAD_REQUEST, "a header line is not NAME: VALUE")
    for line in headers:
        name, _, value = line.partition(b":")
        name = name.lower()
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0"):
            return Refusal(HTTPStatus.BAD_REQUEST, "a GET request has no body")
    return PASS


class ScreenedConnection(ServerConnection):
    """A websocket server connection whose first bytes go through ``screen`` before websockets sees them."""

    _head: bytes | None = b""  # what came so far while screening; None once decided
    _refused = False

    def data_received(self, data: bytes) -> None:
        if self._head is None:
            if not self._refused and self.protocol.state is not CONNECTING:  # before the answer: dropped
                super().data_received(data)
            return
        self._head += data
        verdict = screen(self._head)
        if verdict == MORE:
            return
        head, self._head = self._head, None
        if isinstance(verdict, Refusal):
            self._refused = True
            self.transport.write(verdict.response())
            self.transport.close()
        else:
            super().data_received(head[: head_end(head)])
