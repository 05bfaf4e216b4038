"""The page server without a browser: its files, who may connect, and what it does with bad messages."""

from __future__ import annotations

import http.client
import io
import json
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from engines import registry
from engines.physical import Thing
from host.hardware.loading import load_board
from host.store.recorder import GameRecorder
from host.web.access import GRACE, MAX_ALL_FAILURES, MAX_FAILURES, Pairing, client_address, split_host
from host.web.past_games import PastGames
from host.web.play_page import welcome_pairing
from host.web.server import INBOX, MAX_DEPTH, PageServer, parse_message
from host.web.view import box_counts, layout


@pytest.fixture
def server() -> Iterator[PageServer]:
    with PageServer("127.0.0.1", 0) as running:
        running.greeting = ['{"type": "layout"}']
        yield running


@pytest.fixture
def lan() -> Iterator[PageServer]:
    """The page served on every address of the machine, as `page = "0.0.0.0:8765"` does."""
    with PageServer("0.0.0.0", 0) as running:
        running.greeting = ['{"type": "layout"}']
        yield running


def response(
    server: PageServer, path: str, *hosts: str, source: str = "127.0.0.1"
) -> http.client.HTTPResponse:
    """The answer to a GET with these Host headers (none given: the usual one), sent from ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5, source_address=(source, 0))
    conn.putrequest("GET", path, skip_host=bool(hosts), skip_accept_encoding=True)
    for host in hosts:
        conn.putheader("Host", host)
    conn.endheaders()
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def get(server: PageServer, path: str, host: str | None = None) -> tuple[int, str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", path, headers={"Host": host} if host else {})
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, response.getheader("Content-Type") or "", body


def talk(
    server: PageServer, origin: str | None, *send: str, receive: int = 1, cookie: str | None = None
) -> list[Any]:
    """Messages a websocket client gets (the sync client: Playwright keeps an event loop on this thread)."""
    headers = {"Cookie": cookie} if cookie else None
    uri = f"ws://127.0.0.1:{server.port}/ws"
    with connect(uri, origin=origin, open_timeout=5, additional_headers=headers) as ws:  # type: ignore[arg-type]
        got = [json.loads(ws.recv(timeout=5))]
        for text in send:
            ws.send(text)
        while len(got) < receive:
            got.append(json.loads(ws.recv(timeout=5)))
        return got


def test_the_page_and_its_files_are_served(server: PageServer) -> None:
    status, kind, body = get(server, "/")
    assert status == 200 and kind.startswith("text/html") and "page.js" in body
    assert get(server, "/page.js")[0] == 200
    assert get(server, "/page.css")[1].startswith("text/css")
    assert get(server, "/nothing.html")[0] == 404
    assert get(server, "/../server.py")[0] == 404


def test_a_request_for_another_host_is_refused(server: PageServer) -> None:
    # A DNS-rebinding page reaches 127.0.0.1 under its own name: its Host header gives it away.
    status, _, body = get(server, "/", host="attacker.example:80")
    assert status == 403 and server.url in body
    assert get(server, "/", host=f"localhost:{server.port}")[0] == 200


@pytest.mark.parametrize("origin", ["http://attacker.example", "http://127.0.0.1:1", None])
def test_websockets_from_other_origins_are_refused(server: PageServer, origin: str | None) -> None:
    with pytest.raises(InvalidStatus) as refused:
        talk(server, origin)
    assert refused.value.response.status_code == 403


def test_the_page_gets_the_greeting_and_its_messages_reach_the_inbox(server: PageServer) -> None:
    own = f"http://127.0.0.1:{server.port}"
    got = talk(server, own, "not json", '["no type"]', '{"type": "button", "name": "hint"}', receive=3)
    assert got[0] == {"type": "layout"}
    assert got[1]["type"] == "error" and "not JSON" in got[1]["message"]
    assert got[2] == {"type": "error", "message": "expected a JSON object with a 'type'"}
    assert server.inbox.get(timeout=5) == {"type": "button", "name": "hint"}


def test_a_published_picture_reaches_a_connected_page(server: PageServer) -> None:
    own = f"http://127.0.0.1:{server.port}"
    with connect(f"ws://127.0.0.1:{server.port}/ws", origin=own) as ws:  # type: ignore[arg-type]
        ws.recv(timeout=5)
        server.publish('{"type": "picture", "n": 1}', greeting=['{"type": "layout"}', '{"n": 1}'])
        assert json.loads(ws.recv(timeout=5)) == {"type": "picture", "n": 1}
    assert server.greeting[-1] == '{"n": 1}'


def test_a_taken_port_is_a_clear_error(server: PageServer) -> None:
    from host.web.server import WebError

    with pytest.raises(WebError, match=f"cannot serve the page on 127.0.0.1:{server.port}"):
        PageServer("127.0.0.1", server.port).start()


def test_messages_must_be_json_objects_with_a_type() -> None:
    assert parse_message(b"\xff") == {"error": parse_message(b"\xff")["error"]}
    assert "error" in parse_message("{}")
    assert parse_message('{"type": "move", "text": "c3"}') == {"type": "move", "text": "c3"}


def test_the_box_counts_what_is_neither_on_the_board_nor_in_the_hand() -> None:
    # Flip Four's set has 16 reversible pieces, either side up: one on c3 and one in the hand leave 14.
    board = load_board("flipfour-hall")
    counts = box_counts(board, {"c3": (Thing("piece", 1),), "d2": ()}, [Thing("piece", 0)])
    assert counts == {"piece:0": 14, "piece:1": 14}
    # Space Tiles' 40 pieces are 20 a side; its 40 tiles are neutral.
    board = load_board("spacetiles-hall")
    game = registry.make("spacetiles")
    counts = box_counts(board, game.cells(game.start()), [])
    assert counts == {"tile": 31, "piece:0": 20, "piece:1": 20}


def test_the_layout_places_every_cell_and_joins_flip_fours_points() -> None:
    game = registry.make("flipfour")
    drawn = layout(game, load_board("flipfour-hall"), simulated=True)
    assert drawn["drawing"] == "point" and len(drawn["cells"]) == 19
    # A hexagon of radius n has 3n(3n + 1) lines between neighbouring points: 42 for n = 2.
    assert len(drawn["links"]) == 42
    assert drawn["sides"] == ["Red", "Yellow"] and drawn["tray"] == ["piece:0", "piece:1"]


def pair(server: PageServer, code: str, source: str = "127.0.0.1") -> http.client.HTTPResponse:
    return response(server, f"/pair?code={code}", source=source)


def test_on_the_network_only_this_machines_names_are_served(lan: PageServer) -> None:
    port = lan.port
    # A DNS-rebinding page reaches this machine under its own name; an address it does not have is no
    # name of ours either.
    for foreign in ("attacker.example", "192.0.2.7", "0.0.0.0", "localhost.attacker.example"):
        assert response(lan, "/", f"{foreign}:{port}").status == 403, foreign
        assert response(lan, "/ws", f"{foreign}:{port}").status == 403, foreign
    for own in ("127.0.0.1", "localhost", socket.gethostname(), "[::1]"):
        assert response(lan, "/", f"{own}:{port}").status == 200, own


@pytest.mark.parametrize("origin", ["http://attacker.example", "http://127.0.0.1:1", None])
def test_on_the_network_websockets_from_other_origins_are_refused(
    lan: PageServer, origin: str | None
) -> None:
    with pytest.raises(InvalidStatus) as refused:
        talk(lan, origin)
    assert refused.value.response.status_code == 403


def test_an_unpaired_browser_on_the_network_only_watches(lan: PageServer) -> None:
    own = f"http://127.0.0.1:{lan.port}"
    got = talk(lan, own, '{"type": "button", "name": "new_game"}', receive=2)
    assert got[0] == {"type": "layout"}  # it sees the board
    assert got[1]["type"] == "error" and "only watches: pair it" in got[1]["message"]
    assert lan.inbox.empty()  # but cannot press a button
    assert talk(lan, own, cookie="magboard_pair=guessed", receive=1) == [{"type": "layout"}]
    assert lan.inbox.empty()


def test_the_code_pairs_a_browser_with_a_strict_httponly_cookie(lan: PageServer) -> None:
    assert lan.pairing is not None and lan.pairing_url is not None
    assert lan.pairing_url.endswith(f":{lan.port}/pair?code={lan.pairing.code}")
    wrong = pair(lan, "WRONG123")
    assert wrong.status == 200  # the pairing form again
    answer = pair(lan, lan.pairing.code.lower())
    assert answer.status == 303 and answer.getheader("Location") == "/"
    cookie = answer.getheader("Set-Cookie") or ""
    attributes = {part.strip() for part in cookie.split(";")}
    assert {"HttpOnly", "SameSite=Strict", "Path=/"} <= attributes
    own = f"http://127.0.0.1:{lan.port}"
    talk(lan, own, '{"type": "button", "name": "hint"}', cookie=cookie.split(";")[0])
    assert lan.inbox.get(timeout=5) == {"type": "button", "name": "hint"}


def wrong(pairing: Pairing) -> str:
    return "AAAAAAAA" if pairing.code != "AAAAAAAA" else "BBBBBBBB"


def test_guessing_the_code_pauses_that_address_and_not_the_owner() -> None:
    now = [0.0]
    pairing = Pairing(clock=lambda: now[0])
    for _ in range(MAX_FAILURES):
        assert pairing.pair(wrong(pairing), "192.0.2.66") is None
    assert pairing.paused("192.0.2.66") and pairing.pair(pairing.code, "192.0.2.66") is None  # not even now
    assert not pairing.paused("192.0.2.10")  # the owner's phone
    owners = pairing.pair(pairing.code, "192.0.2.10")
    assert owners is not None and pairing.paired([f"other=1; magboard_pair={owners}"])
    now[0] = 61.0
    token = pairing.pair(pairing.code, "192.0.2.66")
    assert token is not None and pairing.paired([f"magboard_pair={token}"])
    assert not pairing.paired(["magboard_pair=x", "=;;\x00"])


def test_many_guessing_addresses_meet_a_ceiling_that_still_hears_the_owner() -> None:
    now = [0.0]
    pairing = Pairing(clock=lambda: now[0])
    guessers = [f"10.0.{i // 250}.{i % 250}" for i in range(MAX_ALL_FAILURES // GRACE + 1)]
    for guesser in guessers:  # GRACE wrong codes each: no address reaches its own limit
        for _ in range(GRACE):
            assert pairing.pair(wrong(pairing), guesser) is None
    assert all(pairing.paused(guesser) for guesser in guessers)  # the ceiling: every guesser waits
    for _ in range(GRACE):  # a new address gets GRACE guesses, then waits too
        assert not pairing.paused("10.9.9.9") and pairing.pair(wrong(pairing), "10.9.9.9") is None
    assert pairing.paused("10.9.9.9")
    assert pairing.pair(wrong(pairing), "192.0.2.10") is None  # the owner mistypes once ...
    assert pairing.pair(pairing.code, "192.0.2.10") is not None  # ... and is heard
    now[0] = 61.0
    assert not any(pairing.paused(guesser) for guesser in guessers)


def test_an_ipv4_address_seen_over_ipv6_counts_as_itself() -> None:
    assert client_address("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_address("fe80::1%eth0") == "fe80::1"
    assert client_address("192.0.2.7") == "192.0.2.7"


def test_the_pairing_page_answers_too_many_wrong_codes_with_429(lan: PageServer) -> None:
    for _ in range(MAX_FAILURES):
        assert pair(lan, "WRONG").status == 200
    paused = pair(lan, "WRONG")
    assert paused.status == 429 and paused.getheader("Retry-After") == "60"


def test_a_neighbour_guessing_all_the_time_never_locks_the_owner_out(lan: PageServer) -> None:
    """The neighbour at 127.0.0.2 sends a wrong code before and after each of the owner's tries."""
    assert lan.pairing is not None
    for attempt in range(3 * MAX_FAILURES):
        assert pair(lan, "WRONG", source="127.0.0.2").status == (200 if attempt < MAX_FAILURES else 429)
        if attempt % MAX_FAILURES == MAX_FAILURES - 1:
            owner = pair(lan, lan.pairing.code, source="127.0.0.3")
            assert owner.status == 303 and "magboard_pair=" in (owner.getheader("Set-Cookie") or "")


def test_a_refused_request_logs_its_path_without_the_code(
    lan: PageServer, caplog: pytest.LogCaptureFixture
) -> None:
    assert response(lan, "/pair?code=SECRETCODE", f"attacker.example:{lan.port}").status == 403
    assert "refused '/pair'" in caplog.text and "SECRETCODE" not in caplog.text


def test_the_loopback_needs_no_pairing(server: PageServer) -> None:
    assert server.pairing is None and server.pairing_url is None
    assert response(server, "/pair").status == 303


def test_malformed_requests_get_4xx(server: PageServer, lan: PageServer) -> None:
    for running in (server, lan):
        own = f"127.0.0.1:{running.port}"
        assert response(running, "/", own, own).status == 400  # two Host headers
        assert response(running, "/" + "a" * 8000).status == 414
        assert response(running, "/%00").status == 404
        assert response(running, "/" + "b" * 300 + ".html").status == 404  # too long for a file name


def test_deep_json_gets_an_error_and_the_connection_stays(server: PageServer) -> None:
    own = f"http://127.0.0.1:{server.port}"
    got = talk(server, own, "[" * 30000, '{"type": "button", "name": "hint"}', "{}", receive=3)
    assert got[1] == {
        "type": "error",
        "message": f"not a page message: JSON nested deeper than {MAX_DEPTH} levels",
    }
    assert got[2]["type"] == "error"  # the connection still answers
    assert server.inbox.get(timeout=5) == {"type": "button", "name": "hint"}


def test_the_inbox_is_bounded(server: PageServer) -> None:
    own = f"http://127.0.0.1:{server.port}"
    flood = ['{"type": "gesture", "verb": "click", "cell": "a1"}'] * (INBOX + 3)
    got = talk(server, own, *flood, receive=4)
    assert [m["message"] for m in got[1:]] == ["too many messages are waiting: this one was dropped"] * 3
    assert server.inbox.qsize() == INBOX


def test_host_headers_split_into_name_and_port() -> None:
    assert split_host("[::1]:8765") == ("::1", "8765")
    assert split_host("pi.local:80") == ("pi.local", "80")
    assert split_host("pi") == ("pi", "")
    assert split_host("fe80::1") == ("fe80::1", "")


def test_the_terminal_shows_the_code_its_url_and_a_qr_code(lan: PageServer, server: PageServer) -> None:
    out = io.StringIO()
    welcome_pairing(lan, out)
    text = out.getvalue()
    assert lan.pairing is not None and f"pair it: code {lan.pairing.code}" in text
    assert f"or open {lan.pairing_url} " in text and "█" in text
    quiet = io.StringIO()
    welcome_pairing(server, quiet)
    assert quiet.getvalue() == ""


def test_a_question_is_answered_to_the_asking_page_alone_and_a_watching_page_may_ask(lan: PageServer) -> None:
    def echo(message: dict[str, Any]) -> dict[str, Any]:
        if message.get("n") == 0:
            raise ZeroDivisionError("division by zero")
        return {"type": "answer", "n": message["n"]}

    lan.questions["ask"] = echo
    own = f"http://127.0.0.1:{lan.port}"
    with connect(f"ws://127.0.0.1:{lan.port}/ws", origin=own) as other:  # type: ignore[arg-type]
        assert json.loads(other.recv(timeout=5)) == {"type": "layout"}
        got = talk(lan, own, '{"type": "ask", "n": 2}', '{"type": "ask", "n": 0}', receive=3)  # unpaired
        assert got[1] == {"type": "answer", "n": 2}
        assert got[2] == {"type": "error", "message": "the 'ask' question failed: division by zero"}
        lan.publish('{"type": "picture"}')  # sent after the answers: the other page's next message
        assert json.loads(other.recv(timeout=5)) == {"type": "picture"}  # it got no answer
    assert lan.inbox.empty()  # and the live loop was not asked


def raw(server: PageServer, data: bytes) -> bytes:
    """What the server answers to these bytes, up to its closing the connection."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


TLS_HELLO = bytes.fromhex("16030100a5010000a10303") + bytes(32) + b"\x00\x00\x04\x13\x01\x13\x02\x01\x00"


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"POST / HTTP/1.1\r\nHost: {host}\r\n\r\n", 405),
        (b"POST /pair HTTP/1.1\r\nHost: {host}\r\nContent-Length: 13\r\n\r\ncode=ABCDEFGH", 405),
        (b"PUT / HTTP/1.1\r\nHost: {host}\r\n\r\n", 405),
        (b"DELETE /ws HTTP/1.1\r\nHost: {host}\r\n\r\n", 405),
        (b"HEAD / HTTP/1.1\r\nHost: {host}\r\n\r\n", 405),
        (b"GET / HTTP/1.1\r\nHost: {host}\r\nContent-Length: 5\r\n\r\nhello", 400),
        (b"GET / HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        (TLS_HELLO, 400),
        (b"hello there\r\n\r\n", 400),
        (b"\x00\xff\xfe garbage", 400),
        (b"GET / HTTP/2.0\r\nHost: {host}\r\n\r\n", 400),
        (b"GET /\xc3\xa9 HTTP/1.1\r\nHost: {host}\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: {host}\r\n" + b"X-Pad: " + b"p" * 20000 + b"\r\n\r\n", 431),
        (b"GET /" + b"a" * 20000, 414),
    ],
    ids=lambda value: value[:20] if isinstance(value, bytes) else str(value),
)
def test_what_is_not_a_get_is_answered_with_its_4xx(server: PageServer, data: bytes, status: int) -> None:
    answer = raw(server, data.replace(b"{host}", f"127.0.0.1:{server.port}".encode()))
    assert answer.startswith(f"HTTP/1.1 {status} ".encode()), answer[:200]
    assert (b"\r\nAllow: GET\r\n" in answer) == (status == 405)
    assert get(server, "/")[0] == 200  # and the server goes on serving


def test_a_request_sent_in_pieces_is_served(server: PageServer) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        for piece in (
            b"GE",
            b"T / HT",
            b"TP/1.1\r\nHost: 127.0.0.1:",
            f"{server.port}\r\n".encode(),
            b"\r\n",
        ):
            sock.sendall(piece)
        assert sock.recv(100).startswith(b"HTTP/1.1 200 ")


def test_a_watchers_replay_of_a_number_sqlite_cannot_hold_is_one_answer_and_no_traceback(
    lan: PageServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = tmp_path / "games.sqlite3"
    game = registry.make("flipfour")
    recorder = GameRecorder.open(store, game, board=None, players=("?", "?"))
    recorder.move(game.legal_texts(game.start())[0])
    recorder.close()
    lan.questions.update(PastGames(game, store, live=lambda: None).questions)
    own = f"http://127.0.0.1:{lan.port}"
    asks = [json.dumps({"type": "replay", "game": number, "step": 0}) for number in (10**29, -(2**70), 2**63)]
    got = talk(lan, own, *asks, json.dumps({"type": "replay", "game": 1, "step": 1}), receive=5)  # unpaired
    assert [answer["type"] for answer in got[1:]] == ["error", "error", "error", "replay"]
    assert all("there is no game" in answer["message"] for answer in got[1:4])
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_a_failing_question_is_traced_once_then_said_in_one_line(
    server: PageServer, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(message: dict[str, Any]) -> dict[str, Any]:
        raise KeyError(message["missing"])

    server.questions["ask"] = broken
    own = f"http://127.0.0.1:{server.port}"
    got = talk(server, own, *['{"type": "ask"}'] * 3, receive=4)
    assert [answer["type"] for answer in got[1:]] == ["error"] * 3
    failures = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert len(failures) == 3 and [bool(record.exc_info) for record in failures] == [True, False, False]


def test_bytes_after_a_request_are_not_taken_for_websocket_frames(server: PageServer) -> None:
    host = f"127.0.0.1:{server.port}"
    assert raw(server, f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\nhello".encode()).startswith(b"HTTP/1.1 200 ")
    handshake = (
        f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://{host}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(handshake.encode() + b"\x00junk before the answer")
        assert sock.recv(12) == b"HTTP/1.1 101"
