"""`magboard play` in the browser: serve the page, open it, and serve the board until stopped."""

from __future__ import annotations

import io
import os
import sys
import webbrowser
from typing import TextIO

import segno

from engines.game import M, P
from host.link.status import LinkStatus
from host.store.recorder import GameRecorder
from host.web.past_games import PastGames
from host.web.server import PageServer, WebError
from host.web.table_page import TablePage
from host.wiring.table import Table

DEFAULT_PORT = 8765


def can_open_browser() -> bool:
    """A browser window can be shown: not over ssh or on a console, where a text browser would take over."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def start_server(host: str, port: int | None) -> PageServer:
    """The page server on ``port``; by default 8765, or any free port when that one is taken."""
    if port is not None:
        return PageServer(host, port).start()
    try:
        return PageServer(host, DEFAULT_PORT).start()
    except WebError:
        return PageServer(host, 0).start()


def welcome_pairing(server: PageServer, out: TextIO) -> None:
    """On the network: the code a browser pairs with, the URL that carries it, and its QR code."""
    if server.pairing is None or server.pairing_url is None:
        return
    qr = io.StringIO()
    segno.make(server.pairing_url, error="m").terminal(out=qr, compact=True)
    out.write(qr.getvalue())
    out.write(f"To press the buttons from another device, pair it: code {server.pairing.code}\n")
    out.write(f"or open {server.pairing_url} (scan the QR code); unpaired pages only watch.\n")


def serve_page(table: Table[P, M], server: PageServer, open_browser: bool, out: TextIO) -> int:
    """Serve the board and the page until Ctrl-C; a board that goes away is only reported, meanwhile."""
    page = TablePage(table, server)
    recorder = table.session.journal if isinstance(table.session.journal, GameRecorder) else None
    past = PastGames(
        table.game, recorder.path if recorder else None, lambda: recorder.game_id if recorder else None
    )
    server.questions.update(past.questions)

    def tell(status: LinkStatus, reason: str) -> None:
        notice = status.notice(reason)
        out.write(notice + "\n")
        out.flush()
        page.message = "" if status is LinkStatus.CONNECTED else notice

    table.loop.observers.append(page.step)
    table.loop.link_listeners.append(tell)
    where = "the simulated" if table.reach is not None else "the"
    out.write(f"{table.game.name} on {where} {table.board.name}: {server.url}\n")
    welcome_pairing(server, out)
    out.write("Ctrl-C stops; the journal keeps the game.\n")
    out.flush()
    if open_browser and can_open_browser():
        webbrowser.open(server.pairing_url or server.url)
    try:
        table.loop.run()
    except KeyboardInterrupt:
        out.write("\n")
    finally:
        table.loop.observers.remove(page.step)
        table.loop.link_listeners.remove(tell)
        page.close()
    return 0
