"""The page server without a browser: its files, who may connect, and what it does with bad messages."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from engines import registry
from engines.physical import Thing
from host.hardware.loading import load_board
from host.web.server import PageServer, parse_message
from host.web.view import box_counts, layout


@pytest.fixture
def server() -> Iterator[PageServer]:
    with PageServer("127.0.0.1", 0) as running:
        running.greeting = ['{"type": "layout"}']
        yield running


def get(server: PageServer, path: str, host: str | None = None) -> tuple[int, str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    conn.request("GET", path, headers={"Host": host} if host else {})
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, response.getheader("Content-Type") or "", body


def talk(server: PageServer, origin: str | None, *send: str, receive: int = 1) -> list[Any]:
    """Messages a websocket client gets (the sync client: Playwright keeps an event loop on this thread)."""
    with connect(f"ws://127.0.0.1:{server.port}/ws", origin=origin, open_timeout=5) as ws:  # type: ignore[arg-type]
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
