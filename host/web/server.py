"""The page's server: its files over HTTP and live updates over a websocket, on one port.

It runs an asyncio loop on a thread of its own, so the live loop that serves
the board never waits for a browser.  The game side hands it JSON texts to
broadcast (``publish``) and takes the page's messages from ``inbox``.

Only the page this server sent may talk to it (host/web/access.py): a request
whose Host is not one of this machine's names or addresses is refused (a
DNS-rebinding name), and so is a websocket whose Origin is not the page's own
(a web site in another tab), in every mode. Served on the network, a browser
must also pair (``pairing``) before its messages count; until then it watches.

Malformed requests get a 4xx answer and a bad message an error message, never
a closed connection: what is not a GET, or not HTTP at all, is answered before
websockets sees it (host/web/screening.py).  A refused request is logged by its
path alone, without the query, where a pairing code would be.  The inbox holds
at most INBOX messages.  Questions
(``questions``: message types that change nothing, such as the past games) are
answered to the asking page alone, one at a time on a thread of their own, so
neither the live loop nor this loop waits for them; watching pages may ask them.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import mimetypes
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from host.web.access import (
    FAILURE_WINDOW_S,
    Pairing,
    client_address,
    is_loopback,
    is_own_host,
    is_unspecified,
    network_address,
    split_host,
)
from host.web.screening import ScreenedConnection

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
SOCKET_PATH = "/ws"
PAIR_PATH = "/pair"
MAX_MESSAGE = 64 * 1024  # a page message is a few words; anything bigger is not from our page
MAX_DEPTH = 16  # nesting of a page message's JSON; ours nest two deep
MAX_PATH = 1024
INBOX = 64  # messages waiting for the live loop; more means a page floods it
START_S = 5.0

Answer = Callable[[dict[str, object]], dict[str, object]]


class WebError(RuntimeError):
    """The page cannot be served (the address is taken, or not an address of this machine)."""


class PageServer:
    """Serves the page on host:port; on any address but the loopback, browsers must pair."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self.pairing = None if is_loopback(host) else Pairing()
        self.inbox: queue.Queue[dict[str, object]] = queue.Queue(maxsize=INBOX)
        self.greeting: list[str] = []  # sent to every page as it connects (the layout, then the picture)
        self.questions: dict[str, Answer] = {}  # message type -> its answer, for the asking page alone
        self._answering = ThreadPoolExecutor(max_workers=1, thread_name_prefix="page-answers")
        self._failures_logged: set[tuple[str, str]] = set()  # (question, exception): traced once
        self._loop = asyncio.new_event_loop()
        self._server: Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._stopped: asyncio.Event | None = None

    @property
    def url(self) -> str:
        """Where a browser finds the page (on the network: at this machine's address there)."""
        host = network_address() if is_unspecified(self.host) else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}/"

    @property
    def pairing_url(self) -> str | None:
        """The URL that pairs a browser at once (for the QR code), when pairing is needed."""
        if self.pairing is None:
            return None
        return f"{self.url.rstrip('/')}{PAIR_PATH}?code={self.pairing.code}"

    # --- life ------------------------------------------------------------------------------
    def start(self) -> PageServer:
        self._thread = threading.Thread(target=self._run, name="page-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_S):
            raise WebError(f"the page server did not start on {self.host}:{self.port}")
        if self._failure is not None:
            raise WebError(f"cannot serve the page on {self.host}:{self.port}: {self._failure}")
        return self

    def close(self) -> None:
        if self._thread is None or self._stopped is None:
            return
        self._loop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(timeout=START_S)
        self._thread = None
        self._answering.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> PageServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        finally:
            self._loop.close()

    async def _serve(self) -> None:
        self._stopped = asyncio.Event()
        try:
            self._server = await serve(
                self._talk, self.host, self.port, process_request=self._http, max_size=MAX_MESSAGE,
                ping_interval=20, ping_timeout=20, create_connection=ScreenedConnection,
            )  # fmt: skip
        except OSError as exc:
            self._failure = exc
            self._ready.set()
            return
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stopped.wait()
        self._server.close()
        await self._server.wait_closed()

    # --- to the pages -----------------------------------------------------------------------
    def publish(self, text: str, greeting: list[str] | None = None) -> None:
        """Send ``text`` to every page (from any thread); ``greeting`` replaces what new pages get."""
        self._loop.call_soon_threadsafe(self._broadcast, text, greeting)

    def _broadcast(self, text: str, greeting: list[str] | None) -> None:
        if greeting is not None:
            self.greeting = greeting
        if self._server is not None:
            broadcast(self._server.connections, text)

    # --- requests -----------------------------------------------------------------------------
    def _refusal(self, headers: Headers) -> tuple[HTTPStatus, str] | None:
        """Why a request is refused, or None: one Host, ours, and on the loopback a loopback one."""
        hosts = headers.get_all("Host")
        if len(hosts) != 1:
            return HTTPStatus.BAD_REQUEST, f"a request needs exactly one Host header, not {len(hosts)}"
        name, _port = split_host(hosts[0].strip())
        if not is_own_host(name) or (is_loopback(self.host) and not is_loopback(name)):
            return HTTPStatus.FORBIDDEN, f"the page is served on {self.url} only"
        return None

    def _origin_refusal(self, headers: Headers) -> str | None:
        origins = headers.get_all("Origin")
        origin = origins[0] if len(origins) == 1 else None
        if origin is None or origin != f"http://{headers['Host'].strip()}":
            return f"connections from {origin or 'no origin'} are refused: open {self.url}"
        return None

    def paired(self, headers: Headers) -> bool:
        """Whether a request may press buttons: always on the loopback, else with the pairing cookie."""
        return self.pairing is None or self.pairing.paired(headers.get_all("Cookie"))

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        if len(request.path) > MAX_PATH:
            too_long = HTTPStatus.REQUEST_URI_TOO_LONG
            return connection.respond(too_long, f"a path has at most {MAX_PATH} bytes\n")
        refusal = self._refusal(request.headers)
        url = urlsplit(request.path)
        if refusal is None and url.path == SOCKET_PATH:
            origin = self._origin_refusal(request.headers)
            if origin is None:
                return None  # on to the websocket handshake
            refusal = HTTPStatus.FORBIDDEN, origin
        if refusal is not None:
            log.warning("refused %.80r: %s", url.path, refusal[1])  # never the query: a code may be in it
            return connection.respond(refusal[0], refusal[1] + "\n")
        if url.path == PAIR_PATH:
            return self._pair(connection, url.query)
        return self._file(connection, url.path)

    def _pair(self, connection: ServerConnection, query: str) -> Response:
        """The pairing page: the right code gets the cookie and the page, anything else the form again."""
        if self.pairing is None:
            return _redirect("/")
        code = (parse_qs(query).get("code") or [""])[0]
        client = client_address(str(connection.remote_address[0]))
        if self.pairing.paused(client):
            wait = connection.respond(HTTPStatus.TOO_MANY_REQUESTS, "too many wrong codes: wait a minute\n")
            wait.headers["Retry-After"] = str(round(FAILURE_WINDOW_S))
            return wait
        if code:
            token = self.pairing.pair(code, client)
            if token is not None:
                return _redirect("/", self.pairing.set_cookie(token))
        problem = f"<p>{html.escape(code)} is not the code.</p>" if code else ""
        return _page(HTTPStatus.OK, PAIR_FORM.format(problem=problem))

    def _file(self, connection: ServerConnection, path: str) -> Response:
        name = "index.html" if path == "/" else path.lstrip("/")
        try:
            file = (STATIC / name).resolve()
            found = file.parent == STATIC.resolve() and file.is_file()
        except (OSError, ValueError):  # a name the file system cannot hold
            found = False
        if not found:
            return connection.respond(HTTPStatus.NOT_FOUND, f"no such page: {path[:100]}\n")
        body = file.read_bytes()
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        headers = Headers()
        headers["Content-Type"] = kind + ("; charset=utf-8" if kind.startswith("text/") else "")
        headers["Content-Length"] = str(len(body))
        headers["Cache-Control"] = "no-store"
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, body)

    def _answered(self, answer: Answer, message: dict[str, object]) -> dict[str, object]:
        """The answer to a question; a failure of the answer itself is said in one line to the page and
        logged, with its traceback the first time only: any page may ask, as often as it likes."""
        try:
            return answer(message)
        except Exception as exc:
            kind = (str(message["type"]), type(exc).__name__)
            log.error(
                "answering %.40r failed: %.200s",
                message["type"],
                exc,
                exc_info=kind not in self._failures_logged,
            )
            self._failures_logged.add(kind)
            return {"type": "error", "message": f"the {message['type']!r} question failed: {exc}"}

    async def _talk(self, connection: ServerConnection) -> None:
        request = connection.request
        paired = request is not None and self.paired(request.headers)
        for text in self.greeting:
            await connection.send(text)
        try:
            async for raw in connection:
                message = parse_message(raw)
                answer = self.questions.get(str(message.get("type", "")))
                if "error" not in message and answer is not None:
                    reply = await self._loop.run_in_executor(self._answering, self._answered, answer, message)
                    await connection.send(json.dumps(reply))
                    continue
                if "error" not in message and not paired:
                    message = {"error": f"this browser only watches: pair it at {self.url}{PAIR_PATH[1:]}"}
                if "error" not in message:
                    try:
                        self.inbox.put_nowait(message)
                    except queue.Full:
                        message = {"error": "too many messages are waiting: this one was dropped"}
                if "error" in message:
                    await connection.send(json.dumps({"type": "error", "message": message["error"]}))
        except ConnectionClosed:
            pass


PAIR_FORM = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>magboard: pair this browser</title></head>
<body><h1>Pair this browser with the board</h1>{problem}
<p>Type the code that magboard showed when it started (or scan its QR code).</p>
<form method="get" action="/pair"><input name="code" autocomplete="off" autofocus>
<button>Pair</button></form></body></html>
"""


def _page(status: HTTPStatus, text: str) -> Response:
    body = text.encode()
    headers = Headers()
    headers["Content-Type"] = "text/html; charset=utf-8"
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    return Response(status.value, status.phrase, headers, body)


def _redirect(location: str, cookie: str | None = None) -> Response:
    headers = Headers()
    headers["Location"] = location
    headers["Content-Length"] = "0"
    headers["Cache-Control"] = "no-store"
    if cookie is not None:
        headers["Set-Cookie"] = cookie
    return Response(HTTPStatus.SEE_OTHER.value, HTTPStatus.SEE_OTHER.phrase, headers, b"")


def nesting_depth(text: str, limit: int) -> int:
    """How deep text's JSON arrays and objects nest, counting no further than limit + 1."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def parse_message(raw: str | bytes) -> dict[str, object]:
    """A page message: a JSON object with a string ``type``; else ``{"error": why}``."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        return {"error": f"not JSON: not UTF-8 ({exc.reason} at byte {exc.start})"}
    if nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
        return {"error": f"not a page message: JSON nested deeper than {MAX_DEPTH} levels"}
    try:
        message = json.loads(text)
    except ValueError as exc:
        return {"error": f"not JSON: {exc}"}
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return {"error": "expected a JSON object with a 'type'"}
    return message
