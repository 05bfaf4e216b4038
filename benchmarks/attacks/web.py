"""Web fuzz: HTTP requests and websocket frames no browser sends, at the page server.

The server is served on every address with pairing on (as a service's page is) and answers the
page's questions from a store with games in it; the traffic goes to 127.0.0.1 only.  Requests are
built from parts - methods, paths, versions, headers, bodies - each sometimes spoilt, beside raw
bytes: garbage, a TLS hello, HTTP/2's preface.  Each must get a status line under 500 (a 101 for a
good websocket handshake), never a closed connection without an answer.  Websocket frames are
random page messages (known types with values of every wrong kind, replays of games no one has,
deep JSON, bytes that are not UTF-8); after each the connection must still answer a question, and
one larger than the limit must be closed with 1009.  At the end the server still serves the page,
and its log holds no traceback and never the pairing code.
"""

from __future__ import annotations

import json
import logging
import random
import socket
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Origin

from attacks.common import Budget, Table, sample_store
from engines import registry
from host.web.past_games import PastGames
from host.web.server import MAX_MESSAGE, PageServer

METHODS = ("GET",) * 6 + ("POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "CONNECT", "get", "G\x00T", "")
PATHS = (
    "/", "/index.html", "/page.js", "/page.css", "/pair", "/pair?code={code}", "/pair?code=WRONGONE", "/ws",
    "/%00", "/../../etc/passwd", "/static/../../x", "//", "*", "http://evil.example/", "/" + "a" * 2000,
    "/%C3%A9", "/\u00e9", "/pair?code=" + "%" * 300, "/?" + "&" * 500, "",
)  # fmt: skip
VERSIONS = ("HTTP/1.1",) * 5 + ("HTTP/1.0", "HTTP/2.0", "HTTP/0.9", "HTTP/1.1 x", "", "http/1.1")
RAW = (
    bytes.fromhex("16030100a5010000a10303") + bytes(40),  # a TLS hello
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    b"\r\n\r\n", b"\x00" * 100, b"GET", b"GET / HTTP/1.1\r\n", b" / HTTP/1.1\r\n\r\n",
)  # fmt: skip
TYPES = ("button", "gesture", "past_games", "replay", "level", "hint", "move", "", "x" * 100)
VALUES: tuple[Any, ...] = (
    None, True, 0, -1, 1, 10**29, -(2**70), 2**63, 1.5, float("1e308"), "", "a1", "\x1b[2J\u202e",
    "x" * 10_000, [], {}, [1, [2, [3]]], {"a": {"b": {}}},
)  # fmt: skip


def _request(rng: random.Random, port: int, code: str) -> bytes:
    if rng.random() < 0.1:
        return rng.choice(RAW) if rng.random() < 0.7 else rng.randbytes(rng.randrange(1, 300))
    method, path, version = rng.choice(METHODS), rng.choice(PATHS).format(code=code), rng.choice(VERSIONS)
    host = rng.choice((f"127.0.0.1:{port}",) * 5 + ("evil.example", "", f"127.0.0.1:{port}\x00", "[::1"))
    headers = [f"Host: {host}"] * rng.choice((1, 1, 1, 0, 2))
    if path == "/ws" and rng.random() < 0.7:
        origin = rng.choice((f"http://{host}", "http://evil.example"))
        headers += [
            "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", f"Origin: {origin}",
        ]  # fmt: skip
    extra = rng.choice((
        [], [], ["Cookie: magboard_pair=" + "x" * rng.choice((5, 5000))], ["Content-Length: 5"],
        ["Content-Length: -1"], ["Content-Length: 99999999999999999999"], ["Transfer-Encoding: chunked"],
        ["X-Pad: " + "p" * 20_000], [f"X-{i}: {i}" for i in range(300)], ["Bad Header: x"],
        ["Cookie: \x01\x02=;;"],
    ))  # fmt: skip
    body = b"hello" if rng.random() < 0.2 else b""
    head = (
        f"{method} {path} {version}".rstrip() + "\r\n" + "".join(f"{h}\r\n" for h in headers + extra) + "\r\n"
    )
    return head.encode("utf-8", "surrogateescape") + body


def _answer(port: int, data: bytes) -> bytes | None:
    """The server's first bytes back; None when it closed without any."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(data)
        if b"\r\n\r\n" not in data and not data.startswith(b"\x16"):  # cut short by us: say we are done
            sock.shutdown(socket.SHUT_WR)
        try:
            first = sock.recv(64)
        except (ConnectionResetError, TimeoutError):
            return None
    return first or None


def _http(budget: Budget, table: Table, server: PageServer, code: str) -> None:
    rng = random.Random(budget.seed)
    for _ in budget.trials():
        data = _request(rng, server.port, code)
        first = _answer(server.port, data)
        complete = b"\r\n\r\n" in data or data.startswith(b"\x16")
        if first is None:
            table.tried("HTTP requests", "closed without an answer: " + repr(data[:60]) if complete else None)
            continue
        status = first[9:12]
        good = (
            first.startswith(b"HTTP/1.1 ")
            and status.isdigit()
            and (status == b"101" or b"200" <= status < b"500")
        )
        table.tried("HTTP requests", None if good else f"answered {first[:20]!r} to {data[:60]!r}")


def _message(rng: random.Random) -> str | bytes:
    kind = rng.random()
    if kind < 0.1:
        return rng.randbytes(rng.randrange(1, 200))  # binary, mostly not UTF-8
    if kind < 0.2:
        return rng.choice(("[" * 5000, '{"type": ' * 20, "not json", '"type"', "[]", "{}", "null"))
    message: dict[str, Any] = {"type": rng.choice(TYPES)}
    for key in rng.sample(
        ("game", "step", "name", "verb", "cell", "level", "move", "extra"), rng.randrange(4)
    ):
        message[key] = rng.choice(VALUES)
    return json.dumps(message)


def _frames(budget: Budget, table: Table, server: PageServer) -> int:
    rng = random.Random(budget.seed + 1)
    uri, origin = f"ws://127.0.0.1:{server.port}/ws", f"http://127.0.0.1:{server.port}"
    frames = 0
    trials = iter(budget.trials())
    while next(trials, None) is not None:
        with connect(uri, origin=Origin(origin), open_timeout=10, max_size=None) as ws:
            ws.recv(timeout=10)  # the greeting
            for _ in range(50):
                ws.send(_message(rng))
                frames += 1
                ws.send('{"type": "past_games"}')
                try:
                    answers = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
                except (TimeoutError, ConnectionClosed) as exc:
                    table.tried("websocket frames", f"no answer after a frame: {exc}")
                    break
                table.tried(
                    "websocket frames", None if answers[-1].get("type") == "past_games" else str(answers)
                )
            ws.send("x" * (MAX_MESSAGE + 1))
            frames += 1
            try:
                ws.recv(timeout=10)
                table.tried("a frame over the limit", "the connection stayed open")
            except ConnectionClosed as exc:
                table.tried(
                    "a frame over the limit", None if exc.rcvd and exc.rcvd.code == 1009 else str(exc)
                )
    return frames


class Caught(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def run(budget: Budget, work: Path) -> Table:
    table = Table("web fuzz: HTTP requests and websocket frames no browser sends")
    store = work / "games.sqlite3"
    sample_store(store, budget.seed)
    caught = Caught()
    logging.getLogger().addHandler(caught)
    try:
        with PageServer("0.0.0.0", 0) as server:
            assert server.pairing is not None
            server.greeting = ['{"type": "layout"}']
            server.questions.update(PastGames(registry.make("flipfour"), store, live=lambda: None).questions)
            _http(Budget(budget.seconds / 2, budget.count, budget.seed), table, server, server.pairing.code)
            frames = _frames(
                Budget(budget.seconds / 2, max(1, budget.count // 50), budget.seed), table, server
            )
            alive = _answer(server.port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            table.tried(
                "the page afterwards", None if alive and alive.startswith(b"HTTP/1.1 200") else repr(alive)
            )
            code = server.pairing.code
    finally:
        logging.getLogger().removeHandler(caught)
    traced = [r for r in caught.records if r.exc_info and r.levelno >= logging.ERROR]
    leaked = [r for r in caught.records if code in r.getMessage()]
    table.tried("the log afterwards", f"{len(traced)} tracebacks" if traced else None)
    table.tried("the log afterwards", f"the pairing code logged {len(leaked)} times" if leaked else None)
    table.figures["requests"] = table.rows.get("HTTP requests", [0])[0]
    table.figures["websocket frames"] = frames
    table.figures["log lines"] = len(caught.records)
    return table
