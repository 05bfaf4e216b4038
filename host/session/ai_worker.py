"""The AI at work for a session: its move and its hints, on a thread of its own, as the core's events.

The AI thinks for seconds while the LEDs, the tracker and the page must stay
live, so the question goes to a worker thread and the answer comes back as an
event for the core (``AiMoved``, ``HintFound``) carrying the version of the
position it was asked about: an answer about an older position is dropped by
the core, never applied.  Without a background thread (tests of the logic
alone) the answer comes at once.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, Protocol, runtime_checkable

from engines.game import Game, M, P
from host.session import core


class OpponentGone(Exception):
    """The opponent cannot answer (its engine died, hung, cheated or resigned); the message says so in a
    sentence.  It says so again at every question until ``take_over()``."""


class Opponent(Protocol):
    """Chooses moves for the AI's side (and hints for the player's).

    What else an opponent can do is in the small protocols below, each checked at run time, so that the
    session asks only what an opponent has: ``Budgeted`` (the built-in AI, and an engine with the AI
    behind it) says how it thinks; ``Stoppable`` (one with a process of its own: a GTP engine,
    host/peers/gtp/opponent.py) can fail, be stopped, and be replaced by the built-in AI.
    """

    def start(self, game: Game[P, M]) -> None:
        """Get ready for the first question about ``game`` (the AI starts its worker processes), when
        the session is set up."""

    def choose(self, game: Game[P, M], pos: P) -> M: ...

    def hint(self, game: Game[P, M], pos: P) -> list[M]: ...


@runtime_checkable
class Budgeted(Protocol):
    """An opponent that thinks at a level, for a time or a number of nodes (None: not said)."""

    @property
    def level(self) -> int | None: ...

    @property
    def seconds(self) -> float | None: ...

    @property
    def nodes(self) -> int | None: ...


@runtime_checkable
class Stoppable(Protocol):
    """An opponent with a process of its own, which may fail.  ``name`` is said on the board while it
    plays; ``trouble`` is a sentence once it failed (``stopped`` its name until ``take_over()``, after
    which the built-in AI answers in its place: until then ``choose`` raises OpponentGone); ``refuse``
    stops it for an answer the core refused; ``close`` stops it with the session."""

    @property
    def name(self) -> str | None: ...

    @property
    def stopped(self) -> str | None: ...

    @property
    def trouble(self) -> str | None: ...

    def take_over(self) -> None: ...

    def refuse(self, why: str) -> None: ...

    def close(self) -> None: ...


def stoppable(opponent: Opponent | None) -> Stoppable | None:
    """The opponent as one that may fail, if it is one."""
    return opponent if isinstance(opponent, Stoppable) else None


def budgeted(opponent: Opponent | None) -> Budgeted | None:
    """The opponent as one that says how it thinks, if it does."""
    return opponent if isinstance(opponent, Budgeted) else None


def player_name(opponent: Opponent | None) -> str:
    """Who an opponent is, as the store and the text records name a player: an engine by the name it
    gave while it plays, else the built-in AI by its level."""
    engine, budget = stoppable(opponent), budgeted(opponent)
    name = engine.name if engine is not None else None
    level = budget.level if budget is not None else None
    return name or ("magboard" if level is None else f"magboard level {level}")


class AiWorker(Generic[P, M]):
    def __init__(self, game: Game[P, M], opponent: Opponent | None, background: bool) -> None:
        self.game = game
        self.opponent = opponent
        self.background = background
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
        self._asked: list[Future[core.Event[M]]] = []

    def ask(self, question: core.AskAi[P] | core.AskHint[P], t_ms: int) -> core.Event[M] | None:
        """Start on a question; the answer now if there is no background thread, else None."""
        if not self.background:
            return self._answer(question, t_ms)
        self._asked.append(self._pool.submit(self._answer, question, t_ms))
        return None

    def _answer(self, question: core.AskAi[P] | core.AskHint[P], t_ms: int) -> core.Event[M]:
        assert self.opponent is not None
        version, pos = question.version, question.position
        if isinstance(question, core.AskAi):
            try:
                return core.AiMoved(t_ms, version, self.opponent.choose(self.game, pos))
            except OpponentGone as gone:
                return core.AiStopped(t_ms, version, str(gone))
        return core.HintFound(t_ms, version, tuple(self.opponent.hint(self.game, pos)))

    def answers(self, t_ms: int) -> list[core.Event[M]]:
        """The answers finished since the last call, as events of this moment."""
        done = [future for future in self._asked if future.done()]
        self._asked = [future for future in self._asked if not future.done()]
        return [_at(future.result(), t_ms) for future in done]

    def take_over(self) -> None:
        """The built-in AI answers from now on in the place of an opponent that stopped."""
        opponent = stoppable(self.opponent)
        if opponent is not None:
            opponent.take_over()

    def refuse(self, why: str) -> None:
        """The core refused the opponent's answer: one with a process of its own is stopped for it."""
        opponent = stoppable(self.opponent)
        if opponent is not None:
            opponent.refuse(why)

    def wait(self, timeout: float | None = None) -> None:
        """Block until every question asked so far is answered (joins the worker, no clock is spun)."""
        for future in list(self._asked):
            future.result(timeout)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        opponent = stoppable(self.opponent)  # an opponent with a process stops it with the game
        if opponent is not None:
            opponent.close()


def _at(event: core.Event[M], t_ms: int) -> core.Event[M]:
    """The answer as of when it was collected (the core's clock only moves forward)."""
    if isinstance(event, core.AiMoved):
        return core.AiMoved(t_ms, event.version, event.move)
    if isinstance(event, core.AiStopped):
        return core.AiStopped(t_ms, event.version, event.why)
    assert isinstance(event, core.HintFound)
    return core.HintFound(t_ms, event.version, event.line)
