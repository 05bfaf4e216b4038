"""A person at the simulated board: makes moves by hand, carries out the AI's moves from the LEDs."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from host.reach.diff import hand_actions
from host.reach.script import Action
from host.session.intent import Choose, Confirm, Kind
from host.sim.hands import Hands
from host.wiring.table import Table

TIMEOUT_S = 20.0
ANSWERS = 12  # questions a person answers before giving up on a move
ANSWER_S = 0.6


class Person:
    def __init__(self, table: Table, seed: int = 0, step_ms: int = 80) -> None:  # a hand: 80 ms an action
        assert table.reach is not None
        self.table = table
        self.rng = random.Random(seed)
        self.hands = Hands(table.reach.rig)
        self.hands.step_ms = step_ms

    @property
    def game(self) -> Any:
        return self.table.game

    def act(self, actions: list[Action], until: Any = None) -> None:
        """Carry out actions while the live loop serves the board; then serve until ``until()``."""
        done = threading.Event()
        failure: list[BaseException] = []

        def work() -> None:
            try:
                for action in actions:
                    self.hands.do(action)
            except BaseException as exc:  # reported on the main thread
                failure.append(exc)
            finally:
                done.set()

        threading.Thread(target=work, daemon=True).start()
        deadline = time.monotonic() + TIMEOUT_S
        self.table.loop.run(until=lambda: done.is_set() or time.monotonic() > deadline)
        if failure:
            raise failure[0]
        if until is not None:
            self.table.loop.run(until=lambda: until() or time.monotonic() > deadline)

    def serve(self, seconds: float, until: Any = None) -> None:
        end = time.monotonic() + seconds
        self.table.loop.run(until=lambda: time.monotonic() > end or (until is not None and until()))

    def make(self, move: Any) -> None:
        """Make a legal move by hand, in a random order of hands, and see it committed."""
        session = self.table.session
        pos = session.position
        self._perform(pos, self.game.play(pos, move), self.game.format_move(pos, move))

    def wait_for_ai(self) -> None:
        """Serve the board while the AI thinks (the LEDs stay live meanwhile)."""
        session = self.table.session
        self.serve(TIMEOUT_S, until=lambda: not session.thinking)

    def carry_out_ai_move(self) -> set[str]:
        """Do what the LEDs ask for the AI's move; returns the cells that were lit for it."""
        session = self.table.session
        self.wait_for_ai()
        assert session.pending is not None
        lit = set(session.scene)
        pos = session.position
        self._perform(pos, self.game.play(pos, session.pending), self.game.format_move(pos, session.pending))
        return lit

    def carry_out_ai_move_if_any(self) -> bool:
        """Once the AI has thought: make its move if it has one, checking every cell it changes
        was lit for it. False when it is a person's turn."""
        session, game = self.table.session, self.game
        self.wait_for_ai()
        if session.pending is None:
            return False
        ai_move = session.pending
        before = game.cells(session.position)
        changed = {
            name
            for name, stack in game.cells(game.play(session.position, ai_move)).items()
            if stack != before[name]
        }
        text = game.format_move(session.position, ai_move)
        lit = self.carry_out_ai_move()
        assert changed <= lit, f"the AI's move {text} is not lit"
        return True

    def _perform(self, pos: Any, target: Any, text: str) -> None:
        """Move the objects, then do what the board asks (in words and lights) until the move is committed."""
        session = self.table.session
        plies = len(session.moves)
        changed = {n for n, stack in self.game.cells(target).items() if stack != self.game.cells(pos)[n]}
        if not changed:  # a pass: no hand makes it, the Pass button does
            assert self.table.reach is not None
            self.table.reach.rig.buttons.press("pass")
        self.act(hand_actions(self.game, self.game.cells(pos), self.game.cells(target), self.rng))
        for _ in range(ANSWERS):
            self.serve(ANSWER_S, until=lambda: len(session.moves) > plies)
            if len(session.moves) > plies:
                return
            self._answer(text, changed)
            self._touch_what_is_done(self.game.cells(target))
        intent = session.intent
        raise AssertionError(
            f"the move {text} was never committed: the board says {intent.kind}: {intent.sentence}"
        )

    def _touch_what_is_done(self, target: dict[str, Any]) -> None:
        """Tap the lit cells that already look as the move wants.

        A stone turned over under a reed switch is felt only if the sensor saw
        it off its cell; when the hands were quicker than the scan, the LED
        still asks for the turn, and a person touches the stone to say it is done.
        """
        session = self.table.session
        rig = self.table.reach.rig
        assert rig is not None
        if session.intent.kind not in (Kind.TURN_UNDER_WAY, Kind.AI_MOVE, Kind.RESTORE):
            return
        with rig.lock:
            done = [cell for cell in sorted(session.scene) if rig.virtual.stack(cell) == tuple(target[cell])]
        self.act([Action(0, "tap", (cell,)) for cell in done if target[cell]])

    def _answer(self, text: str, changed: set[str]) -> None:
        """Confirm the move the board shows if it is the one made, else tap a cell of the one made."""
        intent = self.table.session.intent
        assert self.table.reach is not None
        if isinstance(intent, Confirm) and intent.move.split()[-1] == text:
            self.table.reach.rig.buttons.press("confirm")
        elif isinstance(intent, Choose):
            if intent.shown.split()[-1] == text:
                self.table.reach.rig.buttons.press("confirm")
                return
            mine = sorted(changed - set(intent.scene))
            cell = mine[0] if mine else min(intent.scene)
            self.act([Action(0, "tap", (cell,))])
