"""A table shown in the browser: the page's messages in, the picture out.

``TablePage.step`` runs on the live loop's thread after every step, so it may
touch the session: it hands the page's button presses to the board session as
the board's own buttons would, queues the player's gestures for the simulated
hands (which take real time, so they work on a thread of their own), and
sends the page a new picture whenever anything it shows has changed.
"""

from __future__ import annotations

import json
import logging
import queue
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from engines.ai.levels import HIGHEST, LOWEST
from engines.game import MoveError
from engines.physical import Thing
from host.session.diff import hand_actions
from host.session.hands import Hands
from host.session.intent import Button
from host.session.setup import Table
from host.web.gestures import Gestures
from host.web.server import PageServer
from host.web.view import layout, picture

log = logging.getLogger(__name__)

HANDS_WAITING = 32  # gestures and moves queued for the simulated hands; more are refused


class TablePage:
    def __init__(self, table: Table, server: PageServer) -> None:
        self.table = table
        self.server = server
        self.hands = Hands(table.rig) if table.rig is not None else None
        self.gestures = (
            Gestures(self.hands, set(table.game.geometry.names)) if self.hands is not None else None
        )
        self.message = ""
        self._layout = json.dumps(layout(table.game, table.board, simulated=table.rig is not None))
        self._last = ""
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hands")
        self._busy: list[Future[None]] = []

    def close(self) -> None:
        self._worker.shutdown(wait=True, cancel_futures=True)

    # --- on the live loop's thread ------------------------------------------------------------
    def step(self) -> None:
        while True:
            try:
                message = self.server.inbox.get_nowait()
            except queue.Empty:
                break
            self._handle(message)
        self._collect()
        text = json.dumps(self._picture())
        if text != self._last:
            self._last = text
            self.server.publish(text, greeting=[self._layout, text])

    def _picture(self) -> dict[str, Any]:
        session = self.table.session
        if self.table.rig is not None and self.hands is not None:
            with self.table.rig.lock:
                stacks = self.table.rig.virtual.cells()
            held: list[Thing] = list(self.hands.held)
            changed: list[str] = []
        else:
            stacks = dict(self.table.game.cells(session.position))
            held = []
            changed = self._changed_cells()
        return picture(session, stacks, self.table.board, held, changed, self.message)

    def _changed_cells(self) -> list[str]:
        """On a real board: the cells whose sensors disagree with the committed position."""
        session = self.table.session
        if session.reading is None:
            return []
        expected = session.expect.reading
        return [name for name, a, b in zip(session.names, session.reading, expected, strict=True) if a != b]

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "button":
            try:
                button = Button.named(str(message.get("name")))
            except ValueError as exc:
                self.message = str(exc)
                return
            self.message = ""
            self.table.play.on_button(self.table.loop.clock(), button)
        elif kind == "level":
            self._set_level(message.get("level"))
        elif kind in ("gesture", "move", "ai_move"):
            if self.gestures is None:
                self.message = "this is a real board: move the pieces on it"
                return
            self._queue(message)
        else:
            self.message = f"unknown message {kind!r}"

    def _set_level(self, level: Any) -> None:
        """The AI's level from the next move on (the page's level menu)."""
        opponent = self.table.session.opponent
        if opponent is None or not hasattr(opponent, "level"):
            self.message = "there is no AI opponent in this game"
        elif not isinstance(level, int) or isinstance(level, bool) or not LOWEST <= level <= HIGHEST:
            self.message = f"the AI's level is {LOWEST}..{HIGHEST}, not {level!r}"
        else:
            opponent.level = level
            self.message = ""

    def _queue(self, message: dict[str, Any]) -> None:
        """Hands work in order on their own thread; a move's target is decided now, from the game as it is."""
        kind = message["type"]
        if len(self._busy) >= HANDS_WAITING:
            self.message = f"the hands have {HANDS_WAITING} things to do already: wait for them"
            return
        try:
            if kind == "gesture":
                args = {k: str(message.get(k, "")) for k in ("cell", "thing")}
                self._busy.append(self._worker.submit(self._gesture, str(message.get("verb", "")), args))
            else:
                target = self._target(kind, str(message.get("text", "")))
                self._busy.append(self._worker.submit(self._make, target))
        except (MoveError, ValueError) as exc:
            self.message = str(exc)

    def _target(self, kind: str, text: str) -> Any:
        """The position a typed move (or the AI's waiting one) leads to."""
        session, game = self.table.session, self.table.game
        if session.pending is not None and kind == "ai_move":
            return game.play(session.position, session.pending)
        if kind == "ai_move":
            raise ValueError("the AI has no move waiting")
        if session.pending is not None:
            raise ValueError("first make the AI's move: the LEDs show it")
        return game.play(session.position, game.parse_move(session.position, text))

    def _gesture(self, verb: str, args: dict[str, str]) -> None:
        assert self.gestures is not None
        self.gestures.perform(verb, **args)

    def _make(self, target: Any) -> None:
        rig = self.table.rig
        assert rig is not None and self.hands is not None
        with rig.lock:
            before = rig.virtual.cells()
        self.hands.run(hand_actions(self.table.game, before, self.table.game.cells(target)))

    def _collect(self) -> None:
        """Report what the hands could not do; forget what they finished."""
        for future in [f for f in self._busy if f.done()]:
            self._busy.remove(future)
            failure = future.exception()
            if isinstance(failure, ValueError):  # a gesture or move the hands cannot make, in words
                self.message = str(failure)
            elif failure is not None:
                log.error("the hands failed", exc_info=failure)
                self.message = f"the simulated hands failed: {failure}"
            else:
                self.message = ""
