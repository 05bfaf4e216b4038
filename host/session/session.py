"""A game on the board: readings and buttons in, committed moves and the board's intent out.

The session is the shell around the pure core (host/session/core.py): it feeds
the core its events, carries out the effects the core asks for - the game log
(every move saved before the LEDs change), the AI worker - and publishes what
the board wants as one value, ``view()``, for the LEDs, the page and the
terminal.  It is driven by explicit times (``t_ms``) and never sleeps, so the
tests can replay a whole game in milliseconds and the live loop can drive it
from the serial link and a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, Protocol

from engines.game import Game, M, P
from engines.physical import Thing
from engines.table import Role
from host.hardware.spec import Button
from host.session import core
from host.session.ai_worker import AiWorker, Opponent, budgeted, player_name, stoppable
from host.session.core import Settings
from host.session.describe import describe
from host.session.intent import Intent, Notice
from host.session.lights import Light
from host.session.session_view import AiInfo, SessionView
from host.store.health import NotSaving, StoreHealth
from host.tracking.candidates import Expectations

__all__ = ["Event", "EventKind", "GameLog", "Opponent", "Session", "Settings"]


class GameLog(Protocol):
    """Where committed moves are kept (the game store): each call returns once the entry is safe, or
    says in ``health`` that it could not be saved (and tries again with the next)."""

    def move(self, text: str) -> None: ...

    def takeback(self, plies: int) -> None: ...

    def new_game(self) -> None: ...

    def agreed(self, dead: tuple[str, ...]) -> None: ...

    def player(self, side: int, name: str) -> None:
        """From the next move on, ``name`` plays ``side``."""

    def close(self) -> None: ...

    @property
    def health(self) -> StoreHealth: ...


class EventKind(Enum):
    """What the session did; the value is the ``event`` of the scripted mode's JSON lines."""

    COMMIT = "commit"
    TAKEBACK = "takeback"
    NEWGAME = "newgame"
    OVER = "over"
    SCENE = "scene"
    INTENT = "intent"
    NOTICE = "notice"


@dataclass(frozen=True)
class Event:
    """Something the session did, for the scripted mode's JSON lines and for tests."""

    t_ms: int
    kind: EventKind
    data: dict[str, object] = field(default_factory=dict)


class Session(Generic[P, M]):
    def __init__(
        self,
        game: Game[P, M],
        reading_of: Callable[[tuple[Thing, ...]], Hashable],
        empty: Hashable,
        *,
        opponent: Opponent | None = None,
        journal: GameLog | None = None,
        settings: Settings | None = None,
        history: Sequence[P] | None = None,
        moves: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.opponent = opponent
        self.journal = journal
        self.settings = settings or Settings()
        self.names = game.geometry.names
        reversible = game.table.kinds(Role.REVERSIBLE)
        self._ctx = core.Context(
            game, reading_of, empty, self.settings, reversible, describe, hints=opponent is not None
        )
        # How many events the session has emitted (the scripted mode waits for a quiet moment by it);
        # the events themselves go to the listeners only: kept, they grew for a service's whole life.
        self.emitted = 0
        self.listeners: list[Callable[[Event], None]] = []
        self.scene: Mapping[str, Light] = {}
        self._said: tuple[str, str] | None = None
        self._notices: dict[Notice, str] = {}
        self._ai: AiWorker[P, M] = AiWorker(game, opponent, self.settings.think_in_background)
        self._budgeted, self._stoppable = budgeted(opponent), stoppable(opponent)
        self._refused: str | None = None  # why the core refused the opponent's last refused answer
        self.now_ms = 0
        log = core.Log(tuple(history) if history else (game.start(),), tuple(moves))
        state, effects = core.start(self._ctx, log, self._stoppable.name if self._stoppable else None)
        self._state = state
        self._carry_out(effects)
        self._publish()

    # --- inputs ----------------------------------------------------------------------------
    def on_reading(self, t_ms: int, reading: Sequence[Hashable]) -> None:
        """A debounced reading of every cell, in geometry order, with the time it was taken."""
        self._step(core.Reading(t_ms, tuple(reading)))

    def on_tick(self, t_ms: int) -> None:
        """Time passes: readings settle; the next position's index is built while the player thinks."""
        expect = self._ctx.expect(self._state)
        if not expect.ready:
            expect.build()
        self._step(core.Tick(t_ms))

    def on_button(self, t_ms: int, name: str | Button) -> None:
        """A button of the board (or the page); ValueError names the known ones."""
        button = name if isinstance(name, Button) else Button.named(name)
        self._step(core.Press(t_ms, button))

    def board_link(self, connected: bool, words: str) -> None:
        """The board's link went away or came back: the view says so meanwhile (the game goes on)."""
        self._notice(Notice.BOARD_DISCONNECTED, None if connected else words)

    def _notice(self, notice: Notice, words: str | None) -> None:
        if self._notices.get(notice) == words:
            return
        if words is None:
            self._notices.pop(notice, None)
        else:
            self._notices[notice] = words
        self._emit(EventKind.NOTICE, notice=notice.value, words=words)

    def wait_for_ai(self, timeout: float | None = None) -> None:
        """Block until the AI's answers asked for so far are in (they reach the core with the next event)."""
        self._ai.wait(timeout)

    def close(self) -> None:
        """Stop thinking (the AI's move, if any, is dropped: the game log has every commit)."""
        self._ai.close()

    # --- what the session shows ---------------------------------------------------------------
    @property
    def intent(self) -> Intent:
        return self._state.intent

    @property
    def position(self) -> P:
        return self._state.log.position

    @property
    def history(self) -> tuple[P, ...]:
        return self._state.log.history

    @property
    def moves(self) -> list[str]:
        """The committed moves in notation (a copy)."""
        return list(self._state.log.moves)

    @property
    def pending(self) -> M | None:
        """The AI's move waiting to be made by hand."""
        return self._state.pending

    @property
    def thinking(self) -> bool:
        return self._state.thinking

    @property
    def busy(self) -> bool:
        """Whether an answer of the AI (a move or a hint) is still to come."""
        return self._state.thinking or self._state.hinting

    @property
    def reading(self) -> tuple[Hashable, ...] | None:
        return self._state.reading

    @property
    def expect(self) -> Expectations[Hashable]:
        """The expectations of the committed position (for the benchmark and the tests)."""
        return self._ctx.expect(self._state)

    def placements(self, thing: Thing) -> frozenset[str]:
        """The cells where a legal move on the way puts ``thing`` from a hand or the box (the page's dots for
        an object taken from the tray: the sensors cannot see a hand above the board)."""
        state = self._state
        if state.away is not None or state.thinking or self.game.is_over(state.log.position):
            return frozenset()
        tracker = self._ctx.tracker(state)
        reading = state.reading if state.reading is not None else self._ctx.expect(state).reading
        found = tracker.placements(reading, state.evidence, state.now, thing)
        return frozenset(self.names[i] for i in found)

    @property
    def opponent_seconds(self) -> float | None:
        """How long the AI may think per move, if it says."""
        return self._budgeted.seconds if self._budgeted is not None else None

    def view(self) -> SessionView[P, M]:
        """The session as the page and the terminal see it: one consistent moment."""
        state, game = self._state, self.game
        pos = state.log.position
        last: frozenset[str] = frozenset()
        if len(state.log.history) > 1:
            before, after = game.cells(state.log.history[-2]), game.cells(pos)
            last = frozenset(name for name in self.names if before[name] != after[name])
        side, budget, engine = self.settings.ai_side, self._budgeted, self._stoppable
        ai = None
        if self.opponent is not None and side is not None:
            ai = AiInfo(
                side,
                budget.level if budget is not None else None,
                budget.seconds if budget is not None else None,
                budget.nodes if budget is not None else None,
                engine.name if engine is not None else None,
                engine.stopped if engine is not None else None,
            )
        hint = tuple(game.line_texts(pos, state.hint))
        notices = tuple(self._notices)
        differing = frozenset(self.names[i] for i in state.differing)
        return SessionView(
            game=game,
            position=pos,
            intent=state.intent,
            moves=state.log.moves,
            last_move=last,
            hint=hint,
            ai=ai,
            notices=notices,
            notice_words=tuple(self._notices.values()),
            differing=differing,
        )

    # --- the shell ------------------------------------------------------------------------------
    def _step(self, event: core.Event[M]) -> None:
        self.now_ms = max(self.now_ms, event.t)
        self._collect(event.t)
        self._state, effects = core.step(self._ctx, self._state, event)
        self._carry_out(effects)
        self._publish()

    def _collect(self, t_ms: int) -> None:
        """Hand the AI's finished answers to the core (an answer for an older position is dropped there)."""
        for answer in self._ai.answers(t_ms):
            self._state, effects = core.step(self._ctx, self._state, answer)
            self._carry_out(effects)
        self._say_trouble()

    def _say_trouble(self) -> None:
        """An opponent that can fail (a GTP engine) says so in a sentence, as the core does of an answer
        it refused; the board shows it."""
        trouble = self._stoppable.trouble if self._stoppable is not None else None
        self._notice(Notice.OPPONENT, trouble or self._refused)

    def _carry_out(self, effects: list[core.Effect[P]]) -> None:
        for effect in effects:
            if isinstance(effect, core.Played):
                if self.journal is not None:
                    self.journal.move(effect.text)
                self._emit(EventKind.COMMIT, move=effect.text, ply=effect.ply)
            elif isinstance(effect, core.TookBack):
                if self.journal is not None:
                    self.journal.takeback(effect.plies)
                self._emit(EventKind.TAKEBACK, plies=effect.plies)
            elif isinstance(effect, core.NewGame):
                if self.journal is not None:
                    self.journal.new_game()
                self._emit(EventKind.NEWGAME)
            elif isinstance(effect, core.AgreedDead):
                if self.journal is not None:
                    self.journal.agreed(effect.dead)
                agreed, _ = self.game.table.agreed(self.game, self.position, frozenset(effect.dead))
                score = list(agreed.score) if agreed.score else None
                self._emit(EventKind.OVER, winner=agreed.winner, score=score, dead=list(effect.dead))
            elif isinstance(effect, core.TakeOver):
                self._ai.take_over()
                side = self.settings.ai_side
                if self.journal is not None and side is not None:  # the built-in AI plays its moves now
                    self.journal.player(side, player_name(self.opponent))
            elif isinstance(effect, core.Refused):
                self._refused = effect.why
                self._ai.refuse(effect.why)
                self._say_trouble()
            elif isinstance(effect, core.AskAi | core.AskHint):
                answer = self._ai.ask(effect, self.now_ms)
                if answer is not None:
                    self._state, more = core.step(self._ctx, self._state, answer)
                    self._carry_out(more)
        if any(isinstance(e, (core.Played, core.TookBack, core.NewGame, core.AgreedDead)) for e in effects):
            if self.journal is not None:
                health = self.journal.health
                self._notice(Notice.NOT_SAVING, str(health) if isinstance(health, NotSaving) else None)
            outcome = self.game.outcome(self.position)
            # A game that ends with the dead stones agreed is over when they are (``AgreedDead``).
            agreeing = isinstance(self._state.end, core.Agreeing)
            if outcome is not None and not agreeing and any(isinstance(e, core.Played) for e in effects):
                score = list(outcome.score) if outcome.score else None
                self._emit(EventKind.OVER, winner=outcome.winner, score=score)

    def _publish(self) -> None:
        intent = self._state.intent
        if intent.scene != self.scene:
            self.scene = intent.scene
            lights = {
                cell: [light.meaning.value, light.blink.value, light.dim]
                for cell, light in sorted(self.scene.items())
            }
            self._emit(EventKind.SCENE, lights=lights)
        said = (intent.kind.value, intent.sentence)
        if said != self._said:
            self._said = said
            self._emit(EventKind.INTENT, kind=intent.kind.value, sentence=intent.sentence)

    def _emit(self, what: EventKind, **data: object) -> None:
        event = Event(self.now_ms, what, data)
        self.emitted += 1
        for listener in self.listeners:
            listener(event)
