"""The page's server: its files over HTTP and live updates over a websocket, on one port.

It runs an asyncio loop on a thread of its own, so the live loop that serves
the board never waits for a browser.  The game side hands it JSON texts to
broadcast (``publish``) and takes the page's messages from ``inbox``.

Only the page this server sent may talk to it: a websocket whose Origin is
not this server's own address is refused, and so is any request whose Host
is not an address of this server when it listens on the loopback (a web site
in another tab cannot reach the board, nor can a DNS-rebinding name).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import mimetypes
import queue
import threading
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
SOCKET_PATH = "/ws"
MAX_MESSAGE = 64 * 1024  # a page message is a few words; anything bigger is not from our page
START_S = 5.0


class WebError(RuntimeError):
    """The page cannot be served (the address is taken, or not an address of this machine)."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class PageServer:
    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.greeting: list[str] = []  # sent to every page as it connects (the layout, then the picture)
        self._loop = asyncio.new_event_loop()
        self._server: Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._stopped: asyncio.Event | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

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
                ping_interval=20, ping_timeout=20,
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
    def _refusal(self, headers: Headers) -> str | None:
        """Why a request is refused, or None: the Host must be ours, and a websocket's Origin too."""
        host = headers.get("Host", "")
        name = host.rsplit(":", 1)[0].strip("[]") if host else ""
        if is_loopback(self.host) and not is_loopback(name):
            return f"the page is served on {self.url} only"
        return None

    def _origin_refusal(self, headers: Headers) -> str | None:
        origin = headers.get("Origin")
        if origin is None or origin != f"http://{headers.get('Host', '')}":
            return f"connections from {origin or 'no origin'} are refused: open {self.url}"
        return None

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        refusal = self._refusal(request.headers)
        path = request.path.split("?", 1)[0]
        if refusal is None and path == SOCKET_PATH:
            refusal = self._origin_refusal(request.headers)
            if refusal is None:
                return None  # on to the websocket handshake
        if refusal is not None:
            log.warning("refused %s: %s", request.path, refusal)
            return connection.respond(HTTPStatus.FORBIDDEN, refusal + "\n")
        return self._file(connection, path)

    def _file(self, connection: ServerConnection, path: str) -> Response:
        name = "index.html" if path == "/" else path.lstrip("/")
        file = (STATIC / name).resolve()
        if file.parent != STATIC.resolve() or not file.is_file():
            return connection.respond(HTTPStatus.NOT_FOUND, f"no such page: {path}\n")
        body = file.read_bytes()
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        headers = Headers()
        headers["Content-Type"] = kind + ("; charset=utf-8" if kind.startswith("text/") else "")
        headers["Content-Length"] = str(len(body))
        headers["Cache-Control"] = "no-store"
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, body)

    async def _talk(self, connection: ServerConnection) -> None:
        for text in self.greeting:
            await connection.send(text)
        try:
            async for raw in connection:
                message = parse_message(raw)
                if "error" in message:
                    await connection.send(json.dumps({"type": "error", "message": message["error"]}))
                else:
                    self.inbox.put(message)
        except ConnectionClosed:
            pass


def parse_message(raw: str | bytes) -> dict[str, Any]:
    """A page message: a JSON object with a string ``type``; else ``{"error": why}``."""
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        return {"error": f"not JSON: {exc}"}
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return {"error": "expected a JSON object with a 'type'"}
    return message
