"""A table shown in the browser: the page's messages in, the picture out.

``TablePage.step`` runs on the live loop's thread after every step: it hands
the page's button presses to the board as the board's own buttons would,
queues the player's gestures for the simulated hands (which take real time,
so they work on a thread of their own), and sends the page a new picture
whenever anything it shows has changed.  What it shows and what it acts on
come from the session's one view (``Session.view()``).
"""

from __future__ import annotations

import json
import logging
import queue
from collections.abc import Hashable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic

from engines.ai.levels import HIGHEST, LOWEST
from engines.game import M, MoveError, P
from engines.physical import Thing
from host.hardware.sensing import SensorModel
from host.hardware.spec import Button
from host.reach.diff import hand_actions
from host.session.intent import AiMove, Choose, Confirm, Intent
from host.session.session_view import SessionView
from host.tracking.plan import Do
from host.web.gestures import Gestures
from host.web.server import PageServer
from host.web.view import goal, layout, picture, tray
from host.wiring.table import Table

log = logging.getLogger(__name__)

HANDS_WAITING = 32  # gestures and moves queued for the simulated hands; more are refused
# A typed move's answer the board has not taken after this long is given again, as a player taps again when
# the board did not notice: a tap the sensors missed (its firmware starved of time) would otherwise leave
# the question open for ever.
ANSWER_AGAIN_MS = 2000


class TablePage(Generic[P, M]):
    def __init__(self, table: Table[P, M], server: PageServer) -> None:
        self.table = table
        self.server = server
        self.hands = table.reach.hands if table.reach is not None else None
        game = table.game
        self.gestures = (
            Gestures(
                self.hands,
                set(game.geometry.names),
                self._lifted,
                self._left,
                game.table.name,
            )
            if self.hands is not None
            else None
        )
        self.message = ""
        self._model = SensorModel(table.board)
        self._layout = json.dumps(layout(table.game, table.board, simulated=table.reach is not None))
        self._last = ""
        self._goal: tuple[tuple[Hashable, ...], P | None] | None = None
        self._places: tuple[tuple[Hashable, ...], frozenset[str]] | None = None
        # A move typed in the box, once made by the hands: (the moves before it, its text).  The board may
        # then ask for Confirm or which move it was (a Flip Four piece alone, a reed board's twins), and the
        # page answers for the player, who has already said which move they meant.
        self._typed_move: tuple[tuple[str, ...], str] | None = None
        self._answered: tuple[Intent, int] | None = None  # the intent last answered, and when
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
        self._answer_typed(self.table.session.view())
        text = json.dumps(self._picture(self.table.session.view()))
        if text != self._last:
            self._last = text
            self.server.publish(text, greeting=[self._layout, text])

    def _target(self, view: SessionView[P, M]) -> P | None:
        """``goal(view)``, worked out once per position and intent (it may parse a move)."""
        intent = view.intent
        key = (view.moves, intent.kind, getattr(intent, "move", ""))
        if self._goal is None or self._goal[0] != key:
            self._goal = (key, goal(view))
        return self._goal[1]

    def _picture(self, view: SessionView[P, M]) -> dict[str, object]:
        target = self._target(view)
        if self.table.reach is not None and self.hands is not None:
            stacks = self.table.reach.standing()
            held: list[Thing] = list(self.hands.held)
            wanted = self.table.game.cells(target) if target is not None else None
            same = self.table.game.table.same_stack
            can_set_up = wanted is not None and (
                bool(held) or any(not same(stacks[cell], wanted[cell]) for cell in wanted)
            )
            unseen = self._unseen(view, stacks)
            places = self._placements(view, held)
            return picture(
                view, stacks, self.table.board, held, (), self.message, target, can_set_up, unseen, places
            )
        stacks = dict(self.table.game.cells(view.position))
        return picture(view, stacks, self.table.board, (), sorted(view.differing), self.message, target)

    def _lifted(self, cell: str, stack: tuple[Thing, ...]) -> int:
        """What a click lifts off ``cell``: what the lights ask to lift or take off there (a knight with
        its rings to the box while the board is set back), else what a hand lifts by the game's rules
        (``Table.lifted``).  On the hands' thread: the session's view is one immutable moment."""
        view = self.table.session.view()
        game = self.table.game
        for step in view.intent.steps:
            things = step.things
            asked = step.source == cell and step.do in (Do.MOVE, Do.REMOVE) and 0 < len(things) <= len(stack)
            if asked and game.table.same_stack(stack[-len(things) :], things):
                return len(things)
        return game.table.lifted(game, view.position, stack)

    def _left(self, thing: Thing) -> tuple[int, str]:
        """How many of ``thing`` the tray can give now, and its words there (on the hands' thread: the
        session's view is one immutable moment)."""
        reach = self.table.reach
        assert reach is not None and self.hands is not None
        stacks = reach.standing()
        entry = tray(self.table.session.view(), self.table.board, stacks, self.hands.held).get(str(thing))
        if entry is None:
            return 0, "the game never gives one"
        count = entry["count"]
        assert isinstance(count, int)
        return count, str(entry["words"]) or f"{count} in the box"

    def _placements(self, view: SessionView[P, M], held: list[Thing]) -> frozenset[str] | None:
        """Where the object in the hand may go, when it came from the tray (a lifted one is the intent's):
        None while the hand holds nothing from the tray."""
        if not held or self.gestures is None or not self.gestures.from_tray:
            return None
        key = (view.moves, view.intent.sentence, view.differing, str(held[-1]))
        if self._places is None or self._places[0] != key:
            self._places = (key, self.table.session.placements(held[-1]))
        return self._places[1]

    def _unseen(
        self, view: SessionView[P, M], stacks: Mapping[str, tuple[Thing, ...]]
    ) -> dict[str, tuple[Thing, ...]]:
        """Cells where the simulated board differs from the committed position in a way the sensors cannot
        see (a ring left behind on a reed board): what the game believes stands there."""
        game = self.table.game
        believed = game.cells(view.position)
        reading_of = self._model.reading_of
        return {
            cell: tuple(believed[cell])
            for cell, stack in stacks.items()
            if not game.table.same_stack(stack, believed[cell])
            and cell not in view.differing
            and reading_of(tuple(stack)) == reading_of(tuple(believed[cell]))
        }

    def _handle(self, message: dict[str, object]) -> None:
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
        elif kind in ("gesture", "move", "setup"):
            if self.gestures is None:
                self.message = "this is a real board: move the pieces on it"
                return
            self._queue(message)
        else:
            self.message = f"unknown message {kind!r}"

    def _set_level(self, level: object) -> None:
        """The AI's level from the next move on (the page's level menu)."""
        opponent = self.table.session.opponent
        if opponent is None or not hasattr(opponent, "level"):
            self.message = "there is no AI opponent in this game"
        elif not isinstance(level, int) or isinstance(level, bool) or not LOWEST <= level <= HIGHEST:
            self.message = f"the AI's level is {LOWEST}..{HIGHEST}, not {level!r}"
        else:
            opponent.level = level
            self.message = ""

    def _queue(self, message: dict[str, object]) -> None:
        """Hands work in order on their own thread; a move's target is decided now, from the game as it is."""
        kind = message["type"]
        if len(self._busy) >= HANDS_WAITING:
            self.message = f"the hands have {HANDS_WAITING} things to do already: wait for them"
            return
        try:
            if kind == "gesture":
                args = {k: str(message.get(k, "")) for k in ("cell", "thing")}
                self._busy.append(self._worker.submit(self._gesture, str(message.get("verb", "")), args))
            elif kind == "setup":
                self._busy.append(self._worker.submit(self._make, self._set_up_target()))
            else:
                self._busy.append(self._worker.submit(self._make, self._typed(str(message.get("text", "")))))
        except (MoveError, ValueError) as exc:
            self.message = str(exc)

    def _set_up_target(self) -> P:
        """What "Set up the board" makes: the position the lights lead to."""
        target = self._target(self.table.session.view())
        if target is None:
            raise ValueError("you are making your move: finish it, or put the pieces back")
        return target

    def _typed(self, text: str) -> P:
        """The position a typed move leads to."""
        view = self.table.session.view()
        if isinstance(view.intent, AiMove):
            raise ValueError("first make the AI's move: the lights show it")
        game = self.table.game
        move = game.parse_move(view.position, text)
        self._typed_move = (view.moves, game.format_move(view.position, move))
        self._answered = None  # a new typed move: the board may ask what it asked before (a second pass)
        return game.play(view.position, move)

    def _answer_typed(self, view: SessionView[P, M]) -> None:
        """Once the hands have made a typed move: Confirm it, or tap until the board shows it, as asked."""
        if self._typed_move is None or self._busy:
            return
        before, text = self._typed_move
        if view.moves != before:
            self._typed_move = None
            return
        intent, clock = view.intent, self.table.loop.clock()
        answered = self._answered
        if answered is not None and intent == answered[0] and clock - answered[1] < ANSWER_AGAIN_MS:
            return
        if isinstance(intent, Confirm) and intent.move == text:
            self.table.play.on_button(clock, Button.CONFIRM)
        elif Button.PASS in intent.buttons and self._changes_nothing(view, text):
            self.table.play.on_button(clock, Button.PASS)  # no hand makes a pass
        elif isinstance(intent, Choose) and text in intent.choices:
            if intent.shown == text:
                self.table.play.on_button(clock, Button.CONFIRM)
            else:  # a tap on a cell only the typed move changes picks it; where none is, a tap shows the next
                game, pos = self.table.game, view.position
                after = game.cells(game.play(pos, game.parse_move(pos, text)))
                mine = sorted(c for c, stack in game.cells(pos).items() if stack != after[c])
                unique = [c for c in mine if c not in intent.scene]
                cell = unique[0] if unique else min(intent.scene)
                self._busy.append(self._worker.submit(self._gesture, "tap", {"cell": cell}))
        else:
            return
        self._answered = (intent, clock)

    def _changes_nothing(self, view: SessionView[P, M], text: str) -> bool:
        game = self.table.game
        return not game.changed_cells(view.position, game.parse_move(view.position, text))

    def _gesture(self, verb: str, args: dict[str, str]) -> None:
        assert self.gestures is not None
        self.gestures.perform(verb, **args)

    def _make(self, target: P) -> None:
        """The hands put back what they hold, then make the board show ``target``."""
        reach = self.table.reach
        assert reach is not None and self.hands is not None
        self.hands.held.clear()
        if self.gestures is not None:
            self.gestures.from_tray = False
        before = reach.standing()
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
