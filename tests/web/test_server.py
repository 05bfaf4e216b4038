"""The page server without a browser: its files, who may connect, and what it does with bad messages."""

from __future__ import annotations

import http.client
import io
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from engines import registry
from engines.physical import Thing
from host.hardware.loading import load_board
from host.web.access import MAX_FAILURES, Pairing, split_host
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


def response(server: PageServer, path: str, *hosts: str) -> http.client.HTTPResponse:
    """The answer to a GET with these Host headers (none given: the usual one)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
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


def pair(server: PageServer, code: str) -> http.client.HTTPResponse:
    return response(server, f"/pair?code={code}")


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


def test_guessing_the_code_pauses_pairing() -> None:
    now = [0.0]
    pairing = Pairing(clock=lambda: now[0])
    for _ in range(MAX_FAILURES):
        assert pairing.pair("AAAAAAAA" if pairing.code != "AAAAAAAA" else "BBBBBBBB") is None
    assert pairing.paused() and pairing.pair(pairing.code) is None  # not even the right code now
    now[0] = 61.0
    token = pairing.pair(pairing.code)
    assert token is not None and pairing.paired([f"other=1; magboard_pair={token}"])
    assert not pairing.paired(["magboard_pair=x", "=;;\x00"])


def test_the_pairing_page_answers_too_many_wrong_codes_with_429(lan: PageServer) -> None:
    for _ in range(MAX_FAILURES):
        assert pair(lan, "WRONG").status == 200
    assert pair(lan, "WRONG").status == 429


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
