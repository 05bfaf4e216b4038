"""The session core: one pure, clock-free step function from (state, event) to the next state.

Everything the board does is decided here - which reading commits which move,
when to wait, when to ask, what a button does, what the board wants next - and
nothing here touches a clock, a thread, a file or a serial port.  Time comes
only with the events (the time a reading was taken, a tick), the AI's answers
come back as events, and what must happen outside (save a move, ask the AI) is
returned as effects for the session's shell to carry out.  So the tests can
drive it by tables, like QMK's debounce tests, and replay any order of events.

Legal by construction: a candidate is only ever taken from the expectations
of the committed position as it is at that moment, and every verdict, choice
or confirm derived from an older position is dropped when the position changes
(the ``version`` of the game log counts those changes).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeAlias, TypeVar

from engines.game import Game, M, P, quoted
from engines.physical import Thing
from host.hardware.spec import Button
from host.session.intent import Intent, RestoreReason, YourTurn
from host.tracking.candidates import Candidate, Expectations, Route
from host.tracking.evidence import Evidence
from host.tracking.plan import Do, Step
from host.tracking.tracker import Seen, Tracker, Verdict

T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    # A reading counts as settled after this long unchanged; nothing is taken before.  Longer than a
    # slow slide rests on each cell it crosses (150 ms), so a move is never taken half way.
    settle_ms: int = 250
    ai_side: int | None = 1  # None: two humans
    # The AI thinks on a worker thread so that the LEDs and the tracker stay live meanwhile;
    # tests of the session's logic alone turn this off to get the move at once.
    think_in_background: bool = True


# --- the state -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Log(Generic[P]):
    """The committed game: every position and the moves between them.  ``version`` counts changes."""

    history: tuple[P, ...]
    moves: tuple[str, ...] = ()
    version: int = 0

    @property
    def position(self) -> P:
        return self.history[-1]


@dataclass(frozen=True)
class Asking:
    """A choice between candidates the sensors cannot tell apart, and the taps that answer it."""

    choices: tuple[Candidate[Hashable], ...]
    base: tuple[Hashable, ...]  # the reading when the question was asked
    moved: frozenset[int] = frozenset()  # cells off the base reading since (a tap under way)
    highlight: int = 0

    @property
    def shown(self) -> Candidate[Hashable]:
        return self.choices[self.highlight % len(self.choices)]


@dataclass(frozen=True)
class Away:
    """The board still shows another position (Take back, New game): what it is believed to hold."""

    reason: RestoreReason
    objects: dict[int, tuple[Thing, ...]]  # where they differ from the committed position


@dataclass(frozen=True)
class Idle:
    """Nothing is asked of the AI's side: it is not its turn, or its move is made."""


@dataclass(frozen=True)
class Thinking:
    """The AI's side was asked for a move at this version of the log; the answer is awaited."""


@dataclass(frozen=True)
class Waiting(Generic[M]):
    """The AI's move, answered and to be made by hand."""

    move: M


# Where the AI's side stands: one of three, never two at once (no move waits while the AI thinks).
AiTurn: TypeAlias = Idle | Thinking | Waiting[M]
IDLE = Idle()


@dataclass(frozen=True)
class ByRules:
    """The game goes on, or it ended where its rules end it: nothing is agreed at the table."""


@dataclass(frozen=True)
class Agreeing:
    """The rules' end is reached in a game that ends with an agreement on dead stones (Go after two
    passes): the board lights ``proposed`` and reads which stones of the final position are taken off
    until Confirm.  Derived from the committed position, so a resumed game is in it again."""

    proposed: frozenset[int]


@dataclass(frozen=True)
class Agreed:
    """The players agreed that the stones on ``dead`` (cells) were dead and took them off: the count is
    of that board."""

    dead: frozenset[int]


# How the game ends at the table: one of three (the dead stones are agreed only after the rules' end).
Settlement: TypeAlias = ByRules | Agreeing | Agreed
BY_RULES = ByRules()


@dataclass(frozen=True)
class State(Generic[P, M]):
    log: Log[P]
    ai: AiTurn[M] = IDLE
    hinting: bool = False
    hint: tuple[M, ...] = ()
    away: Away | None = None
    reading: tuple[Hashable, ...] | None = None
    differing: frozenset[int] = frozenset()
    changed_at: int = 0  # when the reading last changed (the time it was taken)
    now: int = 0
    evidence: Evidence = field(default_factory=Evidence)
    asking: Asking | None = None
    wary: bool = False  # a mistake is shown (the board settled on no legal move)
    intent: Intent = field(default_factory=lambda: YourTurn(""))
    shown_for: tuple[int, M | None] | None = None  # the (version, pending) the intent was worked out for
    # Who plays the AI's side when it is not the built-in AI (a GTP engine's name), for the board's words.
    opponent: str | None = None
    # What stopped that opponent, in a sentence: the built-in AI is offered in its place until Confirm
    # takes the offer (no question goes to anyone meanwhile).  Not derived from a position: a take-back
    # or a new game keeps it.
    stopped: str | None = None
    end: Settlement = BY_RULES

    @property
    def pending(self) -> M | None:
        """The AI's move to be made by hand, if one waits."""
        return self.ai.move if isinstance(self.ai, Waiting) else None

    @property
    def thinking(self) -> bool:
        return isinstance(self.ai, Thinking)


# --- events and effects ----------------------------------------------------------------------
@dataclass(frozen=True)
class Reading:
    t: int
    values: tuple[Hashable, ...]


@dataclass(frozen=True)
class Tick:
    t: int


@dataclass(frozen=True)
class Press:
    t: int
    button: Button


@dataclass(frozen=True)
class AiMoved(Generic[M]):
    t: int
    version: int
    move: M


@dataclass(frozen=True)
class HintFound(Generic[M]):
    t: int
    version: int
    line: tuple[M, ...]


@dataclass(frozen=True)
class AiStopped:
    """The opponent could not answer (a GTP engine died, hung, cheated or resigned): ``why`` says so."""

    t: int
    version: int
    why: str


Event: TypeAlias = Reading | Tick | Press | AiMoved[M] | HintFound[M] | AiStopped


@dataclass(frozen=True)
class Played:
    """A move committed: save it, then show it."""

    text: str
    ply: int


@dataclass(frozen=True)
class TookBack:
    plies: int


@dataclass(frozen=True)
class NewGame:
    pass


@dataclass(frozen=True)
class AskAi(Generic[P]):
    version: int
    position: P


@dataclass(frozen=True)
class AskHint(Generic[P]):
    version: int
    position: P


@dataclass(frozen=True)
class AgreedDead:
    """The players agreed which stones were dead (cell names, sorted): save it, then say the result."""

    dead: tuple[str, ...]


@dataclass(frozen=True)
class TakeOver:
    """The player took the offer: the built-in AI plays the side of the opponent that stopped."""


@dataclass(frozen=True)
class Refused:
    """The opponent answered a move (or a hint) that is not legal where it was asked: it is stopped, as
    one that failed by itself, and ``why`` says so."""

    why: str


Effect: TypeAlias = Played | TookBack | NewGame | AskAi[P] | AskHint[P] | TakeOver | AgreedDead | Refused


# --- what stays the same for a whole game ---------------------------------------------------------
class Context(Generic[P, M]):
    """The game and the board's sensing, and the expectations of the committed position (a memo)."""

    def __init__(
        self,
        game: Game[P, M],
        reading_of: Callable[[tuple[Thing, ...]], Hashable],
        empty: Hashable,
        settings: Settings,
        reversible: frozenset[str],
        describe: Callable[[Context[P, M], State[P, M], Verdict[Hashable] | None], Intent],
        hints: bool,
    ) -> None:
        self.game = game
        self.reading_of = reading_of
        self.empty = empty
        self.settings = settings
        self.reversible = reversible
        self.describe = describe
        self.hints = hints
        self._expect: Expectations[Hashable] | None = None
        self._tracker: Tracker[Hashable] | None = None
        # The last answer of each question about a reading, with the reading and evidence it answered.
        self._memos: dict[str, tuple[tuple[tuple[Hashable, ...], Evidence], Any]] = {}

    def expect(self, state: State[P, M]) -> Expectations[Hashable]:
        current = self._expect
        if current is None or current.basis != (state.log.version, state.pending):
            current = Expectations(
                self.game,
                self.reading_of,
                self.empty,
                state.log.history,
                state.pending,
                reversible=self.reversible,
                version=state.log.version,
            )
            tracker = Tracker(current, self.settings.settle_ms)
            self._expect, self._tracker, self._memos = current, tracker, {}
        return current

    def tracker(self, state: State[P, M]) -> Tracker[Hashable]:
        self.expect(state)
        assert self._tracker is not None
        return self._tracker

    def verdict(self, state: State[P, M]) -> Verdict[Hashable]:
        """The tracker's verdict on the state's reading (the same reading and evidence: the same verdict)."""
        return self._memo("verdict", state, self.tracker(state).observe)

    def two_moves(self, state: State[P, M]) -> Candidate[Hashable] | None:
        """The tracker's two moves for the state's reading (worked out once for a reading and evidence)."""
        return self._memo("two moves", state, self.tracker(state).two_moves)

    def repair(self, state: State[P, M], back: tuple[Step[int], ...]) -> tuple[Step[int], ...]:
        """The fewest steps that put the state's reading right (``Tracker.repair``), once a reading."""
        tracker = self.tracker(state)
        return self._memo(
            "repair", state, lambda reading, evidence, _now: tracker.repair(reading, evidence, back)
        )

    def _memo(
        self, name: str, state: State[P, M], work: Callable[[tuple[Hashable, ...], Evidence, int], T]
    ) -> T:
        """``work`` on the state's reading and evidence, remembered until they change (a tick between two
        readings asks the same again)."""
        assert state.reading is not None
        key = (state.reading, state.evidence)
        known = self._memos.get(name)
        if known is None or known[0] != key:
            known = self._memos[name] = (key, work(state.reading, state.evidence, state.now))
        answer: T = known[1]
        return answer

    def to_move(self, state: State[P, M]) -> int:
        return self.game.to_move(state.log.position)

    def ai_to_move(self, state: State[P, M]) -> bool:
        side = self.settings.ai_side
        return side is not None and not self.game.is_over(state.log.position) and self.to_move(state) == side

    def offering(self, state: State[P, M]) -> bool:
        """Whether the board offers the built-in AI: the opponent stopped and nobody plays its turn."""
        waiting = state.stopped is not None and state.away is None and state.ai == IDLE
        return waiting and self.ai_to_move(state)


# --- the step function ---------------------------------------------------------------------------
def start(
    ctx: Context[P, M], log: Log[P], opponent: str | None = None
) -> tuple[State[P, M], list[Effect[P]]]:
    """The state of a session that begins (or resumes) at ``log``, against ``opponent`` if it is not the
    built-in AI."""
    effects: list[Effect[P]] = []
    state = _prepared(ctx, State(log, opponent=opponent), effects)
    return _settled(ctx, state, effects), effects


def step(ctx: Context[P, M], state: State[P, M], event: Event[M]) -> tuple[State[P, M], list[Effect[P]]]:
    """The next state after ``event``, and what must happen outside the core."""
    effects: list[Effect[P]] = []
    state = replace(state, now=max(state.now, event.t))
    if isinstance(event, Reading):
        # The reading it replaces stood until this one was taken: act on it as of then (readings that
        # waited in a queue during a stall keep their own times, so two moves never merge).
        state = _read(ctx, _settled(ctx, state, effects), event)
    elif isinstance(event, Press):
        state = _press(ctx, state, event.button, effects)
    elif isinstance(event, AiMoved):
        if event.version == state.log.version and state.thinking:
            why = _illegal(ctx, state, (event.move,), "a move")
            if why is None:
                state = _take_ai_move(ctx, replace(state, ai=Waiting(event.move)), effects)
            else:
                effects.append(Refused(why))
                state = replace(state, ai=IDLE, stopped=why)
    elif isinstance(event, HintFound) and event.version == state.log.version and state.hinting:
        why = _illegal(ctx, state, event.line, "a hint")
        if why is None:
            state = replace(state, hinting=False, hint=event.line if state.pending is None else ())
        else:
            effects.append(Refused(why))
            state = replace(state, hinting=False, hint=(), stopped=why)
    elif isinstance(event, AiStopped):
        # The opponent is gone whatever position it was asked about; a question of this one waits no more.
        asked_now = event.version == state.log.version
        state = replace(state, stopped=event.why, ai=IDLE if state.thinking and asked_now else state.ai)
    return _settled(ctx, state, effects), effects


def _illegal(ctx: Context[P, M], state: State[P, M], line: Sequence[M], what: str) -> str | None:
    """Why an opponent's answer about the committed position is refused (None: every move of it is legal
    in turn).  Whatever an opponent is - the built-in AI, an engine, a future peer - its answer is checked
    here, where it enters the core, and not only by the opponent itself."""
    game, pos = ctx.game, state.log.position
    who = state.opponent or "The AI"
    for number, move in enumerate(line):
        legal = ctx.expect(state).legal if number == 0 else game.legal_moves(pos)
        if move not in legal:
            at = "" if len(line) == 1 else f" (its move {number + 1} of {len(line)})"
            shown = _shown(game, pos, move)
            return f"{who}: answered {what}{at}, {shown}, not legal here. Nothing of it was committed."
        pos = game.play(pos, move)
    return None


def _shown(game: Game[P, M], pos: P, move: M) -> str:
    """An illegal move in words: in the game's notation if it can be written so, else its value (bounded)."""
    try:
        return game.format_move(pos, move)
    except Exception:  # an illegal move may be anything: what it is, not a crash, is said
        return quoted(repr(move))


def _read(ctx: Context[P, M], state: State[P, M], event: Reading) -> State[P, M]:
    if event.values == state.reading:
        return state
    expect = ctx.expect(state)
    differing = frozenset(expect.differing(event.values))
    old = state.reading or event.values
    changed = [i for i, (a, b) in enumerate(zip(old, event.values, strict=True)) if a != b]
    evidence = state.evidence
    if _returned(ctx, state, event.t):
        # The board stood settled on the committed position: what hands did before is no evidence against
        # the move they start now (two pieces lifted and put back, then a move made, is that move alone).
        evidence = evidence.put_back()
    evidence = evidence.observe(event.t, state.differing, differing, changed)
    state = replace(
        state,
        reading=event.values,
        differing=differing,
        evidence=evidence,
        changed_at=event.t,
        hint=(),
    )
    if state.asking is not None:
        state = _watch_taps(ctx, state)
    return state


def in_hand_order(
    choices: Sequence[Candidate[Hashable]], evidence: Evidence
) -> tuple[Candidate[Hashable], ...]:
    """The choices the hands' order agrees with first, so that the one shown is the move made as far as the
    sensors can tell: a turn lands its piece before it puts the object that follows (a Desdemona queen
    before its shot, an amazon before its arrow), so a choice whose piece lands on a cell filled after
    the cell it puts an object on goes later.  Otherwise the order stays."""

    def out_of_order(choice: Candidate[Hashable]) -> int:
        lands = [s.target for s in choice.steps if s.do is Do.MOVE and s.target is not None]
        puts = [s.target for s in choice.steps if s.do is Do.PUT and s.target is not None]
        filled = {cell: evidence.first_left(cell) for cell in (*lands, *puts)}
        return sum(
            1
            for land in lands
            for put in puts
            if (a := filled[land]) is not None and (b := filled[put]) is not None and a > b
        )

    return tuple(sorted(choices, key=out_of_order))


def _returned(ctx: Context[P, M], state: State[P, M], t: int) -> bool:
    """Whether the reading that stood until ``t`` was the committed position's, settled: a hand that put
    everything back and let go.  A turn starts afresh from there."""
    return not state.differing and t - state.changed_at >= ctx.settings.settle_ms


def _watch_taps(ctx: Context[P, M], state: State[P, M]) -> State[P, M]:
    """While asking, a cell lifted and put back (or touched with a piece) answers.

    A tap on a cell that only some choices change picks among those; any other
    tap shows the next choice.  Confirm takes the one shown.
    """
    asking = state.asking
    assert asking is not None
    assert state.reading is not None
    moved = {i for i, (a, b) in enumerate(zip(asking.base, state.reading, strict=True)) if a != b}
    if moved:
        return replace(state, asking=replace(asking, moved=asking.moved | moved))
    tapped = asking.moved
    if not tapped:
        return state
    asking = replace(asking, moved=frozenset())
    everywhere = frozenset.intersection(*(c.changed for c in asking.choices))
    picked = [c for c in asking.choices if tapped & (c.changed - everywhere)]
    if len(picked) == 1:
        return replace(state, asking=replace(asking, choices=tuple(picked), highlight=0))
    return replace(state, asking=replace(asking, highlight=asking.highlight + 1))


def _press(ctx: Context[P, M], state: State[P, M], button: Button, effects: list[Effect[P]]) -> State[P, M]:
    if button is Button.CONFIRM and ctx.offering(state):
        effects.append(TakeOver())
        return _prepared(ctx, replace(state, stopped=None, opponent=None), effects)
    if button is Button.CONFIRM and isinstance(state.end, Agreeing):
        return _agree(ctx, state, effects)
    if button is Button.CONFIRM:
        chosen = _confirmable(ctx, state)
        return state if chosen is None else _commit(ctx, state, chosen, effects)
    if button is Button.PASS:
        chosen = passable(ctx, state)
        return state if chosen is None else _commit(ctx, state, chosen, effects)
    if button is Button.TAKE_BACK:
        return _take_back(ctx, state, effects)
    if button is Button.NEW_GAME:
        return _new_game(ctx, state, effects)
    if (
        ctx.hints
        and state.ai == IDLE
        and not ctx.offering(state)
        and not ctx.game.is_over(state.log.position)
    ):
        effects.append(AskHint(state.log.version, state.log.position))
        return replace(state, hinting=True)
    return state


def _confirmable(ctx: Context[P, M], state: State[P, M]) -> Candidate[Hashable] | None:
    """What Confirm takes now: the choice shown, or the one move the board shows now that waits for it."""
    if state.away is not None or state.thinking or state.reading is None:
        return None
    if state.asking is not None:  # the board must still show the moves asked about, not a hand at work
        return state.asking.shown if state.reading == state.asking.base else None
    verdict = ctx.verdict(state)
    if verdict.seen in (Seen.CONFIRM, Seen.MATCH) and verdict.match is not None:
        return verdict.match
    return None


def passable(ctx: Context[P, M], state: State[P, M]) -> Candidate[Hashable] | None:
    """What Pass plays now: in a game with a voluntary pass, the one legal move that changes no cell, while
    the player (not the AI) is to move and the board shows the committed position (a stone already put down
    is a move under way, not a pass)."""
    game, pos = ctx.game, state.log.position
    if not game.table.voluntary_pass or state.away is not None or state.ai != IDLE:
        return None
    if state.reading is None or state.differing or state.asking is not None or ctx.ai_to_move(state):
        return None
    passes = tuple(move for move in game.legal_moves(pos) if not game.changed_cells(pos, move))
    return ctx.expect(state).candidate_for(passes) if len(passes) == 1 else None


def _settled(ctx: Context[P, M], state: State[P, M], effects: list[Effect[P]]) -> State[P, M]:
    """Act on the reading as it stands (commit, ask, wait), then say what the board wants.

    Once is enough: a commit is of the reading's own position, so the board then shows the committed one,
    and a forced move after it is played by the commit itself (``_prepared``)."""
    state = _evaluate(ctx, state, effects)
    verdict = None
    if state.reading is not None and state.away is None and not state.thinking:
        verdict = ctx.verdict(state)
    intent = ctx.describe(ctx, state, verdict)
    return replace(state, intent=intent, shown_for=(state.log.version, state.pending))


def _evaluate(ctx: Context[P, M], state: State[P, M], effects: list[Effect[P]]) -> State[P, M]:
    if state.reading is None or not isinstance(state.end, ByRules):
        # The stones taken off while agreeing (or agreed dead) are the phase's to read (``taken_off``):
        # the board without them may look like an earlier position, or the start, but is neither.
        return state
    tracker = ctx.tracker(state)
    if state.away is not None:
        left = tracker.restore(state.away.objects, state.reading, state.evidence, state.now)
        if left or state.differing:
            return state
        state = replace(state, away=None, evidence=Evidence(), wary=False)
        forced = _forced(ctx, state)  # a pass that waited for the board to be set up
        if forced is not None:
            return _commit(ctx, state, forced, effects)
    verdict = ctx.verdict(state)
    stable = state.now - state.changed_at
    settled = stable >= ctx.settings.settle_ms
    if state.thinking or ctx.offering(state):
        # Nobody may play the AI's side by hand (it thinks, or the built-in AI is offered in the place of an
        # opponent that stopped): only a take-back by hand is taken meanwhile.
        undo = verdict.match is not None and verdict.match.route is not Route.MOVES
        if verdict.seen is Seen.MATCH and undo and settled:
            return _commit(ctx, state, verdict.match, effects)  # type: ignore[arg-type]
        return replace(state, wary=True) if verdict.seen is not Seen.IN_SYNC and settled else state
    if verdict.seen is Seen.MATCH and verdict.match is not None and settled:
        return _commit(ctx, state, verdict.match, effects)
    if verdict.seen is Seen.AMBIGUOUS and settled and state.asking is None:
        return replace(
            state, asking=Asking(in_hand_order(verdict.choices, state.evidence), state.reading or ())
        )
    if state.asking is not None and settled and state.reading != state.asking.base:
        return replace(state, asking=None)  # the board moved on: the question no longer stands
    if verdict.seen is Seen.MISMATCH and settled:
        pair = ctx.two_moves(state)
        if pair is not None:
            # Both moves made (the first finished late): the reply too, unless it is the AI's to make,
            # which then sees the board differ from the position it is asked about and says so.
            middle = ctx.game.play(state.log.position, pair.moves[0])
            by_hand = ctx.game.to_move(middle) != ctx.settings.ai_side
            first = pair if by_hand else ctx.expect(state).candidate_for(pair.moves[:1])
            return _commit(ctx, state, first, effects)
        return replace(state, wary=True)
    return state


# --- changes of the committed position ---------------------------------------------------------------
def _commit(
    ctx: Context[P, M], state: State[P, M], candidate: Candidate[Hashable], effects: list[Effect[P]]
) -> State[P, M]:
    """Commit a candidate of the current expectations (never one of an older position)."""
    expect = ctx.expect(state)
    if candidate.basis != expect.basis:
        return state
    game, log = ctx.game, state.log
    history, moves = list(log.history), list(log.moves)
    if candidate.back:
        del history[-candidate.back :]
        del moves[-candidate.back :]
        effects.append(TookBack(candidate.back) if candidate.route is Route.TAKE_BACK else NewGame())
    pos = history[-1]
    for move in candidate.moves:
        legal = expect.legal if pos is expect.position else game.legal_moves(pos)
        if move not in legal:  # cannot happen: candidates are legal moves of this position
            raise AssertionError(f"not legal here: {game.format_move(pos, move)}")
        text = game.format_move(pos, move)
        pos = game.play(pos, move)
        history.append(pos)
        moves.append(text)
        effects.append(Played(text, len(moves)))
    state = _changed(state, Log(tuple(history), tuple(moves), log.version + 1))
    return _prepared(ctx, state, effects)


def _changed(state: State[P, M], log: Log[P], away: Away | None = None) -> State[P, M]:
    """A new committed position: everything derived from the old one is dropped."""
    return replace(
        state,
        log=log,
        ai=IDLE,
        hinting=False,
        hint=(),
        away=away,
        asking=None,
        evidence=Evidence(),
        wary=False,
        differing=frozenset(),
        end=BY_RULES,
    )


def _prepared(ctx: Context[P, M], state: State[P, M], effects: list[Effect[P]]) -> State[P, M]:
    """After a change of position: re-read the board against it, play a forced pass, wake the AI."""
    if state.reading is not None:
        expect = ctx.expect(state)
        differing = frozenset(expect.differing(state.reading))
        state = replace(state, differing=differing, evidence=Evidence().observe(state.now, (), differing))
    forced = _forced(ctx, state)
    if forced is not None:
        return _commit(ctx, state, forced, effects)
    game, pos = ctx.game, state.log.position
    proposed = game.table.dead_proposal(game, pos) if game.is_over(pos) else None
    if proposed is not None:
        names = game.geometry.names
        return replace(state, end=Agreeing(frozenset(names.index(n) for n in proposed)))
    if ctx.ai_to_move(state) and state.ai == IDLE and state.stopped is None:
        effects.append(AskAi(state.log.version, state.log.position))
        return replace(state, ai=Thinking())
    return state


def taken_off(ctx: Context[P, M], state: State[P, M]) -> tuple[frozenset[int], frozenset[int]]:
    """While agreeing on dead stones: (the cells of the final position whose stones are off the board,
    the cells that differ from it otherwise - a stone put down or turned - which are mistakes)."""
    if state.reading is None:
        return frozenset(), frozenset()
    off = frozenset(i for i in state.differing if state.reading[i] == ctx.empty)
    return off, state.differing - off


def _agree(ctx: Context[P, M], state: State[P, M], effects: list[Effect[P]]) -> State[P, M]:
    """Confirm while agreeing: the stones off the board are the dead ones, if nothing else differs."""
    off, wrong = taken_off(ctx, state)
    if state.reading is None or wrong:
        return state
    names = ctx.game.geometry.names
    effects.append(AgreedDead(tuple(sorted(names[i] for i in off))))
    return replace(state, end=Agreed(off))


def _take_ai_move(ctx: Context[P, M], state: State[P, M], effects: list[Effect[P]]) -> State[P, M]:
    forced = _forced(ctx, state)  # an AI pass needs no hands
    return _commit(ctx, state, forced, effects) if forced is not None else state


def _forced(ctx: Context[P, M], state: State[P, M]) -> Candidate[Hashable] | None:
    """A move nobody has to make with their hands (a pass) when it is the only one."""
    game, pos = ctx.game, state.log.position
    if game.is_over(pos) or state.away is not None:
        return None
    moves = [state.pending] if state.pending is not None else ctx.expect(state).legal
    if len(moves) != 1:
        return None
    (move,) = moves
    return None if game.changed_cells(pos, move) else ctx.expect(state).candidate_for((move,))


def _take_back(ctx: Context[P, M], state: State[P, M], effects: list[Effect[P]]) -> State[P, M]:
    """Back to the player's previous turn; the LEDs then guide the board back."""
    log, side = state.log, ctx.settings.ai_side
    if not log.moves:
        return state
    plies = 1
    while plies < len(log.moves) and side is not None and ctx.game.to_move(log.history[-1 - plies]) == side:
        plies += 1
    effects.append(TookBack(plies))
    new = Log(log.history[:-plies], log.moves[:-plies], log.version + 1)
    # What an earlier restore had not put back yet is still on the board (a second Take back meanwhile), as
    # are the stones taken off while agreeing the dead ones.
    away = _away(ctx, log.position, new.position, RestoreReason.TAKE_BACK, state.away or _taken(ctx, state))
    return _prepared(ctx, _changed(state, new, away), effects)


def _new_game(ctx: Context[P, M], state: State[P, M], effects: list[Effect[P]]) -> State[P, M]:
    log = state.log
    if not log.moves and state.away is None:
        return state
    effects.append(NewGame())
    new = Log((log.history[0],), (), log.version + 1)
    away = _away(ctx, log.position, new.position, RestoreReason.NEW_GAME, state.away or _taken(ctx, state))
    return _prepared(ctx, _changed(state, new, away), effects)


def _taken(ctx: Context[P, M], state: State[P, M]) -> Away | None:
    """The stones of the final position taken off while agreeing, or agreed dead: not on the board."""
    if isinstance(state.end, Agreed):
        off = state.end.dead
    elif isinstance(state.end, Agreeing):
        off = taken_off(ctx, state)[0]
    else:
        return None
    return Away(RestoreReason.NEW_GAME, {i: () for i in off})


def _away(
    ctx: Context[P, M], left: P, target: P, reason: RestoreReason, still: Away | None = None
) -> Away | None:
    """The objects believed on the board - the position left behind, or what an earlier restore had not put
    back yet (``still``) - where they differ from the position to set up."""
    names = ctx.game.geometry.names
    old, new = ctx.game.cells(left), ctx.game.cells(target)
    board = {i: tuple(old[n]) for i, n in enumerate(names)}
    if still is not None:
        board.update(still.objects)
    objects = {i: stack for i, stack in board.items() if stack != tuple(new[names[i]])}
    return Away(reason, objects) if objects else None


def remaining_of(ctx: Context[P, M], state: State[P, M], moves: Sequence[M]) -> tuple[Step[int], ...]:
    """What is left to do on the board for ``moves`` from the committed position (the AI's, a hint)."""
    expect = ctx.expect(state)
    candidate = expect.candidate_for(tuple(moves))
    reading = state.reading if state.reading is not None else expect.reading
    return ctx.tracker(state).remaining(candidate, reading, state.evidence, state.now)
