"""A corpus of human hands, generated and measured: how often the board takes the move a person meant.

For one board build: random legal games, every move made by a simulated player
(host/sim/human.py) whose intended move is known, fed to the session as the
firmware would report it, in simulated time (no sleeps): each cell's reading
changes a debounce time (plus a reed contact's bounce, or half a Hall magnet's
ramp) after the objects on it change, and a change undone within that time is
never reported, as the firmware's debounce does.  The live loop's clock ticks
every TICK_S.  The player answers the board as a person would: Confirm when it
asks to confirm the move they made, a tap on their cell and Confirm when it asks
to choose, and the board's own guidance, step by step, after an illegal move.

Each move is counted once: ``intended`` (the board took the move meant, asking
nothing), ``asked`` (it asked first), ``wrong`` (it took another move),
``stalled`` (nothing taken 5 s after the board showed the move's end), or
``unknowable`` (another legal move ends in the same reading on this build: the
sensors cannot tell them apart, so the board must ask; counted apart, with the
reason).  ``extra_steps`` adds up the repair steps the board shows beyond the
fewest hand actions that put the board right.  Every move's actions, including
the answers and the guidance followed, are kept as a ``magboard play --script``.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines.game import Game
from engines.physical import Thing
from engines.table import Role
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import BoardSpec
from host.session.intent import Choose, Confirm, Kind, Mistake, Step
from host.session.live import TICK_S
from host.session.session import Event, EventKind, Session, Settings
from host.sim.hands import Hands
from host.sim.human import Habits, Hand, act
from host.sim.script import Action, format_action
from host.sim.virtual_board import SensorPhysics
from host.tracking.plan import Do

STALL_MS = 5000  # nothing taken this long after the board showed the move's end: stalled
TICK_MS = round(TICK_S * 1000)
LOOK_MS = 400  # a player looks at the board this long after a hand step before the next
MAX_REPAIRS = 12  # guidance steps followed before the player gives up on the board's guidance
THINK_MS = (200, 1500)  # the player to move looks at the board before the hands go out
EARLIER = 5  # a board reading as one of the positions this far back (or the start) is a take-back

Stacks = dict[str, list[Thing]]


def latency_ms(board: BoardSpec) -> int:
    """How long after the objects on a cell change the firmware reports its new reading."""
    physics = SensorPhysics()
    settle_us = physics.ramp_us // 2 if board.sensor.analog else physics.bounce_us
    return board.sensor.debounce_ms + settle_us // 1000


class FastBoard:
    """The objects on a board and what the firmware reports of them, in simulated time.

    The hands of ``magboard play --script`` (host/sim/hands.py) carry out the actions, sleeping in this
    board's time, so a script replays as it was played here; every action is kept, as a script, in
    ``log``."""

    def __init__(self, session: Session[Any, Any], model: SensorModel, board: BoardSpec, t: int = 0) -> None:
        self.session = session
        self.model = model
        self.board = board
        self.names = session.game.geometry.names
        self.latency = latency_ms(board)
        self.stacks: Stacks = {n: list(s) for n, s in session.game.cells(session.position).items()}
        self.raw = {n: model.reading_of(tuple(self.stacks[n])) for n in self.names}
        self.since = dict.fromkeys(self.names, t)
        self.reported = dict(self.raw)
        self.t = t
        self.next_tick = t + TICK_MS
        self.lock = contextlib.nullcontext()
        self.hands = Hands(self, sleep=lambda s: self.advance(self.t + round(s * 1000)))
        self.log: list[Action] = []
        self.answers: list[int] = []  # which actions of the log answered the board
        self.session.on_reading(t, [self.reported[n] for n in self.names])

    # --- time -----------------------------------------------------------------------------------
    def advance(self, until: int) -> None:
        """Let time pass to ``until``: readings reported as they settle, the clock ticking."""
        while True:
            due = [(self.since[n] + self.latency, n) for n in self.names if self.raw[n] != self.reported[n]]
            report = min(due)[0] if due else None
            if report is not None and report <= until and report <= self.next_tick:
                for when, name in due:
                    if when == report:
                        self.reported[name] = self.raw[name]
                self.session.on_reading(report, [self.reported[n] for n in self.names])
                continue
            if self.next_tick <= until:
                self.session.on_tick(self.next_tick)
                self.next_tick += TICK_MS
                continue
            break
        self.t = until

    def wait(self, ms: int) -> None:
        self.log.append(act("wait", ms=ms))
        self.advance(self.t + ms)

    # --- what the hands touch (host/sim/hands.py's Table and Objects) ------------------------------
    @property
    def virtual(self) -> FastBoard:
        return self

    @property
    def buttons(self) -> FastBoard:
        return self

    def press(self, button: str) -> None:
        self.session.on_button(self.t, button)

    def stack(self, cell: str) -> tuple[Thing, ...]:
        return tuple(self.stacks[cell])

    def lift(self, cell: str) -> Thing:
        stack = self.stacks[cell]
        if not stack:
            raise ValueError(f"cell {cell} is empty: nothing to lift")
        self._set(cell, stack[:-1])
        return stack[-1]

    def place(self, cell: str, thing: Thing) -> None:
        self._set(cell, [*self.stacks[cell], thing])

    def tidy(self, cells: Mapping[str, Sequence[Thing]]) -> None:
        """Put right what the sensors cannot see (rings forgotten at the last move) without a hand, so that
        each move's script starts from its position as the store resumes it."""
        for name in self.names:
            if list(cells[name]) != self.stacks[name]:
                assert self.model.reading_of(tuple(cells[name])) == self.raw[name], name
                self.stacks[name] = list(cells[name])

    def _set(self, cell: str, stack: list[Thing]) -> None:
        self.stacks[cell] = stack
        value = self.model.reading_of(tuple(stack))
        if value != self.raw[cell]:
            self.raw[cell] = value
            self.since[cell] = self.t

    def answer(self, action: Action) -> None:
        """An action that answers the board's question (Confirm, a tap to choose): kept apart as well, so
        that a script can be written without the answers."""
        self.answers.append(len(self.log))
        self.do(action)

    def do(self, action: Action) -> None:
        """One action, carried out by host/sim/hands.py's hands in this board's time (ValueError: it cannot
        be done)."""
        self.log.append(action)
        self.hands.act(action)

    def run(self, actions: Sequence[Action]) -> None:
        for action in actions:
            self.do(action)

    def follow(self, step: Step) -> None:
        """Carry out one step of the board's guidance, as the player reads it (a carried stack goes whole)."""
        self.do(act("step", ms=200))
        count = len(step.things)
        if step.do is Do.MOVE:
            assert step.source is not None and step.target is not None
            count = min(count, len(self.stacks[step.source]))  # rings the board only believes are there
            things = self.stacks[step.source][len(self.stacks[step.source]) - count :]
            for _ in range(count):
                self.do(act("lift", step.source))
            for thing in things:
                self.do(act("place", step.target, thing=thing))
        elif step.do is Do.PUT:
            assert step.target is not None
            for thing in step.things:
                self.do(act("place", step.target, thing=thing))
        elif step.do is Do.REMOVE:
            assert step.source is not None
            for _ in range(min(count, len(self.stacks[step.source]))):
                self.do(act("remove", step.source))
        else:
            assert step.target is not None
            self.do(act("turn", step.target))


# --- the fewest hand actions -------------------------------------------------------------------
def fewest_actions(
    game: Game[Any, Any], now: Mapping[str, Sequence[Thing]], goal: Mapping[str, Sequence[Thing]],
    hidden: frozenset[str],
) -> int:  # fmt: skip
    """The fewest hand actions (lift-and-place of a stack, put, remove, turn) from ``now`` to ``goal``,
    ignoring the objects the sensors cannot see: each cell keeps what it shares from the bottom; an
    object taken off one cell and wanted on another is one carry (a stack that rides together too)."""
    reversible = game.table.kinds(Role.REVERSIBLE)
    rides = game.table.kinds_riding
    gone: dict[str, list[Thing]] = {}
    come: dict[str, list[Thing]] = {}
    turns = 0
    for cell in now:
        a = [t for t in now[cell] if t.kind not in hidden]
        b = [t for t in goal[cell] if t.kind not in hidden]
        k = 0
        while k < min(len(a), len(b)) and a[k] == b[k]:
            k += 1
        off, on = a[k:], b[k:]
        if len(off) == len(on) == 1 and off[0].kind == on[0].kind in reversible:
            turns += 1  # the same object, the other side up (a stack keeps its order)
        elif off or on:
            gone[cell], come[cell] = off, on
    pool: Counter[Thing] = Counter(t for s in gone.values() for t in s if t.kind not in rides)
    actions = turns
    for things in come.values():
        for thing in things:
            if thing.kind in rides:
                continue  # carried with the piece it rides on, or put with it
            if pool[thing]:
                pool[thing] -= 1
            actions += 1  # a carry or a put
    actions += sum(pool.values())  # what is left over goes to the box
    riders_only = [c for c in come if come[c] and all(t.kind in rides for t in come[c])]
    actions += len(riders_only)
    return actions


# --- measuring ---------------------------------------------------------------------------------
@dataclass
class Outcome:
    """What became of one move."""

    verdict: str  # intended, asked, wrong, stalled, unknowable
    intended: str
    committed: list[str]
    kinds: list[str]
    script: list[Action]
    history: list[str]  # the moves before it (where its script starts)
    side: int | None  # the player's side against the AI (None: two players)
    ai_move: bool  # the move was the AI's, made by the player's hands
    meant: list[str] = field(default_factory=list)  # every move the script means (two for a late capture)
    reason: str = ""
    extra_steps: int = 0
    grows: bool = False  # another legal move goes on from this one's end (Corpus.could_grow)
    answers: list[int] = field(default_factory=list)  # which actions of the script answered the board

    @property
    def failed(self) -> bool:
        """Wrong, stalled, over-guided, or asked about a move that nothing could grow from."""
        asked = self.verdict == "asked" and not self.grows
        return self.verdict in ("wrong", "stalled") or self.extra_steps > 0 or asked


@dataclass
class Tally:
    board: str
    moves: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    extra_steps: int = 0
    by_kind: dict[str, Counter[str]] = field(default_factory=dict)
    failures: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.moves += 1
        self.counts[outcome.verdict] += 1
        self.extra_steps += outcome.extra_steps
        if outcome.verdict == "unknowable":
            self.reasons[outcome.reason] += 1
        for kind in outcome.kinds or ["plain"]:
            self.by_kind.setdefault(kind, Counter())[outcome.verdict] += 1
        self.counts["could_grow"] += outcome.grows
        self.counts["asked_could_grow"] += outcome.grows and outcome.verdict == "asked"
        if outcome.failed:
            self.failures.append(outcome)

    def summary(self) -> dict[str, object]:
        knowable = self.moves - self.counts["unknowable"]
        return {
            "board": self.board,
            "moves": self.moves,
            "intended": self.counts["intended"],
            "asked": self.counts["asked"],
            "wrong": self.counts["wrong"],
            "stalled": self.counts["stalled"],
            "unknowable": self.counts["unknowable"],
            "extra_steps": self.extra_steps,
            "could_grow": self.counts["could_grow"],
            "asked_could_grow": self.counts["asked_could_grow"],
            "intended_pct": round(100 * self.counts["intended"] / knowable, 2) if knowable else None,
            "unknowable_reasons": dict(self.reasons.most_common()),
            "by_kind": {k: dict(v) for k, v in sorted(self.by_kind.items())},
        }


class Corpus:
    """Random games on one board build, each move by simulated hands, measured (module docstring)."""

    def __init__(self, game: Game[Any, Any], board: BoardSpec, seed: int, habits: Habits | None = None,
                 ai: bool = True) -> None:  # fmt: skip
        self.game = game
        self.board = board
        self.model = SensorModel(board)
        self.rng = random.Random(seed)
        self.hand = Hand(game, board, habits or Habits(), random.Random(seed + 1))
        self.ai = ai
        self.names = game.geometry.names
        self.hidden = frozenset(k for k, spec in board.objects.items() if spec.magnet == "none")
        self.tally = Tally(board.id)
        self._ends: dict[int, dict[frozenset[tuple[int, Hashable]], list[Any]]] = {}
        self._started: tuple[int | None, tuple[Hashable, ...]] = (None, ())

    def read(self, stacks: Mapping[str, Sequence[Thing]]) -> tuple[Hashable, ...]:
        return tuple(self.model.reading_of(tuple(stacks[n])) for n in self.names)

    def run(self, moves: int, progress: Callable[[Tally], None] | None = None) -> Tally:
        while self.tally.moves < moves:
            self.play_game(moves - self.tally.moves)
            if progress is not None:
                progress(self.tally)
        return self.tally

    def session(self, history: list[Any], texts: list[str], ai_side: int | None) -> Session[Any, Any]:
        opponent = Scripted(None, self.rng) if ai_side is not None else None  # random moves
        settings = Settings(ai_side=ai_side, think_in_background=False)
        return Session(
            self.game, self.model.reading_of, Reading.EMPTY, opponent=opponent, history=history, moves=texts,
            settings=settings,
        )  # fmt: skip

    def play_game(self, budget: int) -> None:
        """One game from the start (or until ``budget`` moves): returns when it is over."""
        game = self.game
        ai_side = self.rng.choice((None, 0, 1)) if self.ai else None
        history: list[Any] = [game.start()]
        texts: list[str] = []
        session = self.session(history, texts, ai_side)
        board = FastBoard(session, self.model, self.board)
        board.wait(500)
        played = 0
        while played < budget and not game.is_over(history[-1]):
            pos = history[-1]
            # The AI's move waiting to be made by hand, or a random legal one.
            move = session.pending if session.pending is not None else self.rng.choice(game.legal_moves(pos))
            late = ai_side is None and budget - played >= 2  # a late capture counts two moves
            outcomes = self.play_late(session, board, history, texts, move) if late else []
            if not outcomes:
                outcomes = [self.play_move(session, board, history, texts, move)]
            for outcome in outcomes:
                self.tally.add(outcome)
                played += 1
                history.append(game.play_texts([outcome.intended], history[-1]))
                texts.append(outcome.intended)
            ok = all(o.verdict not in ("wrong", "stalled") for o in outcomes)
            ok = ok and session.moves[: len(texts)] == texts
            if ok and len(session.moves) > len(texts):  # the AI's moves that no hand makes (a pass)
                history[:], texts[:] = list(session.history), session.moves
            if not ok:
                # Sit down again at the intended game, the board set up as it should be.
                session.close()
                session = self.session(list(history), list(texts), ai_side)
                t = board.t + 1000
                board = FastBoard(session, self.model, self.board, t)
                board.wait(500)
        session.close()

    def end_of(self, pos: Any, move: Any) -> frozenset[tuple[int, Hashable]]:
        """How ``move``'s end reads where it differs from ``pos``'s: (cell index, reading) pairs."""
        start = self._start(pos)
        changes = self.game.changes(pos, move)
        return frozenset(
            (i, r) for i, stack in changes.items() if (r := self.model.reading_of(tuple(stack))) != start[i]
        )

    def _start(self, pos: Any) -> tuple[Hashable, ...]:
        key = self.game.key(pos)
        if self._started[0] != key:
            self._started = (key, self.read(self.game.cells(pos)))
        return self._started[1]

    def ends(self, pos: Any) -> dict[frozenset[tuple[int, Hashable]], list[Any]]:
        """The legal moves of ``pos`` by how their ends read (kept for the position last asked about)."""
        key = self.game.key(pos)
        ends = self._ends.get(key)
        if ends is None:
            ends = {}
            for other in self.game.legal_moves(pos):
                ends.setdefault(self.end_of(pos, other), []).append(other)
            self._ends = {key: ends}
        return ends

    def could_grow(self, pos: Any, move: Any) -> bool:
        """Whether another legal move goes on from where ``move`` ends: reads as it does on every cell it
        changes, and changes more (a second piece of a Flip Four turn): once ``move`` is made, only the
        player knows whether the turn is over, so the board may rightly ask them to confirm it."""
        mine = self.end_of(pos, move)
        if not mine:  # a pass, made with the Pass button, not by hands
            return False
        return any(mine < other for other in self.ends(pos))

    def unknowable(self, pos: Any, move: Any) -> str:
        """Why the sensors cannot tell ``move`` from another legal move of ``pos`` ('' if they can)."""
        game = self.game
        text = game.format_move(pos, move)
        rivals = [
            t for m in self.ends(pos)[self.end_of(pos, move)] if (t := game.format_move(pos, m)) != text
        ]
        if not rivals:
            return ""
        mine, theirs = game.cells(game.play(pos, move)), game.cells(game.play_texts([rivals[0]], pos))
        cells = [n for n in self.names if tuple(mine[n]) != tuple(theirs[n])]
        if all(sorted(str(t) for t in mine[n] if t.kind not in self.hidden)
               == sorted(str(t) for t in theirs[n] if t.kind not in self.hidden) for n in cells):  # fmt: skip
            return "another move differs only in objects without a magnet"
        if all(sorted(t.kind for t in mine[n]) == sorted(t.kind for t in theirs[n]) for n in cells):
            return "another move differs only in colours the sensors do not see"
        return "another move leaves the same reading (objects the sensors read alike)"

    def play_move(self, session: Session[Any, Any], board: FastBoard, history: list[Any], texts: list[str],
                  move: Any) -> Outcome:  # fmt: skip
        game = self.game
        pos = history[-1]
        text = game.format_move(pos, move)
        board.tidy(game.cells(pos))
        now = {n: tuple(s) for n, s in board.stacks.items()}
        ai_move = session.pending == move
        mistake: list[Action] = []
        if self.rng.random() < self.hand.habits.mistake:
            mistake = self.hand.illegal(now, pos, self.model.reading_of)
        earlier = [game.cells(p) for p in [history[0], *history[-EARLIER:-1]]]
        plan = self.hand.plan(now, pos, move, mistake, earlier)
        kinds = plan.kinds
        reason = self.unknowable(pos, move)
        events: list[Event] = []
        session.listeners.append(events.append)
        board.log, board.answers = [], []
        extra = 0
        try:
            board.wait(self.rng.randint(*THINK_MS))
            if plan.mistake:
                board.run(plan.mistake)
                board.wait(self.rng.randint(1200, 2000))
                extra = self.repair(session, board, pos, move)
                now = {n: tuple(s) for n, s in board.stacks.items()}
                plan = self.hand.plan(now, pos, move, earlier=earlier)  # from the board as the repair left it
                kinds = ["mistake", *plan.kinds]
            board.run(plan.move)
            asked = self.finish(session, board, [move], events)
        except ValueError as exc:  # a plan the hands could not carry out: a bug of the generator
            done = "; ".join(map(format_action, board.log))
            raise RuntimeError(f"{self.board.id} {text}: {exc}; actions {done}") from exc
        finally:
            session.listeners.remove(events.append)
        committed = self.took(events)
        if reason:
            verdict = "unknowable"
        elif committed and (committed[0] != text or not self.by_ai(history, committed)):
            verdict = "wrong"
        elif not committed:
            verdict = "stalled"
        else:
            verdict = "asked" if asked else "intended"
        side = None if session.settings.ai_side is None else 1 - session.settings.ai_side
        script = list(board.log)
        grows = not reason and self.could_grow(pos, move)
        return Outcome(
            verdict, text, committed, kinds, script, list(texts), side, ai_move, [text], reason, extra, grows,
            list(board.answers),
        )  # fmt: skip

    def by_ai(self, history: list[Any], committed: list[str]) -> bool:
        """Whether the commits after the first are moves no hand makes (the AI's pass)."""
        pos = self.game.play_texts(committed[:1], history[-1])
        for text in committed[1:]:
            if text.startswith("take back"):
                return False
            move = self.game.parse_move(pos, text)
            if self.game.changed_cells(pos, move):
                return False
            pos = self.game.play(pos, move)
        return True

    def repair(self, session: Session[Any, Any], board: FastBoard, pos: Any, move: Any) -> int:
        """Follow the board's guidance after an illegal move until it no longer shows a mistake; the
        steps it first showed beyond the fewest."""
        extra = -1
        for _ in range(MAX_REPAIRS):
            intent = session.intent
            if not isinstance(intent, Mistake) or intent.step is None:
                break
            if extra < 0:
                shown = 1 + len(intent.later)
                now = {n: tuple(s) for n, s in board.stacks.items()}
                # An acceptable board: the committed position, or the end of the move meant.
                goals = (self.game.cells(pos), self.game.cells(self.game.play(pos, move)))
                fewest = min(fewest_actions(self.game, now, goal, self.hidden) for goal in goals)
                extra = max(0, shown - fewest)
            try:
                board.follow(intent.step)
            except (ValueError, IndexError):
                break
            board.wait(LOOK_MS)
        board.wait(LOOK_MS)
        return max(extra, 0)

    def finish(
        self, session: Session[Any, Any], board: FastBoard, moves: list[Any], events: list[Event]
    ) -> bool:
        """Wait for the board to take the moves, answering it as a player would; whether it asked."""
        asked = False
        for _ in range(STALL_MS // 100):
            done = sum(e.kind in (EventKind.COMMIT, EventKind.TAKEBACK) for e in events)
            if done >= len(moves):
                break
            move = moves[done]
            text = self.game.format_move(session.position, move)
            intent = session.intent
            if intent.kind in (Kind.CONFIRM, Kind.CHOOSE):
                asked = True
            shown = intent.move if isinstance(intent, Confirm) else getattr(intent, "shown", None)
            if shown == text:
                board.answer(act("press", button="confirm"))
            elif isinstance(intent, Choose) and text in intent.choices:
                board.answer(act("tap", self.tap_cell(session, move, intent)))
            board.wait(100)
        return asked

    def play_late(self, session: Session[Any, Any], board: FastBoard, history: list[Any], texts: list[str],
                  move: Any) -> list[Outcome]:  # fmt: skip
        """A capture finished late (two players), or nothing if this move is not one: the captured objects
        stay on the board while the next player makes a random legal move, and are taken off after it."""
        game, hand = self.game, self.hand
        pos = history[-1]
        after = game.play(pos, move)
        if self.rng.random() >= hand.habits.late_capture or game.is_over(after):
            return []
        board.tidy(game.cells(pos))
        now = {n: tuple(s) for n, s in board.stacks.items()}
        earlier = [game.cells(p) for p in [history[0], *history[-EARLIER:-1]]]
        first = hand.plan(now, pos, move, earlier=earlier)
        steps, owed = hand.defer_captures(first.move, now)
        if not owed:
            return []
        reply = self.rng.choice(game.legal_moves(after))
        texts2 = [game.format_move(pos, move), game.format_move(after, reply)]
        events: list[Event] = []
        session.listeners.append(events.append)
        board.log, board.answers = [], []
        try:
            board.wait(self.rng.randint(*THINK_MS))
            board.run(steps)
            board.wait(self.rng.randint(*THINK_MS))
            now = {n: tuple(s) for n, s in board.stacks.items()}
            second = hand.plan(now, after, reply, earlier=[*earlier, game.cells(pos)])
            board.run(hand.at_last(second.move, owed))
            asked = self.finish(session, board, [move, reply], events)
        finally:
            session.listeners.remove(events.append)
        committed = self.took(events)
        out = []
        for i, (p, m, text) in enumerate(((pos, move, texts2[0]), (after, reply, texts2[1]))):
            reason = self.unknowable(p, m)
            mine = committed[i : i + 1]
            verdict = "unknowable" if reason else "stalled" if not mine else "wrong" if mine != [text] else (
                "asked" if asked else "intended")  # fmt: skip
            kinds = ["late_capture", *(first.kinds if i == 0 else second.kinds)]
            grows = not reason and self.could_grow(p, m)
            script, answers = list(board.log), list(board.answers)
            outcome = Outcome(
                verdict, text, committed, kinds, script, list(texts), None, False, texts2, reason
            )
            outcome.grows, outcome.answers = grows, answers
            out.append(outcome)
        return out

    @staticmethod
    def took(events: list[Event]) -> list[str]:
        """The moves committed and the take-backs made, in order."""
        return [
            str(e.data["move"]) if e.kind is EventKind.COMMIT else f"take back {e.data['plies']}"
            for e in events
            if e.kind in (EventKind.COMMIT, EventKind.TAKEBACK)
        ]

    def tap_cell(self, session: Session[Any, Any], move: Any, intent: Choose) -> str:
        """The cell a player taps to say which move they made: one their move changed that another
        choice leaves alone, where they put something down."""
        game, pos = self.game, session.position
        mine = {self.names[i] for i in game.changed_cells(pos, move)}
        others: set[str] = set()
        for choice in intent.choices:
            if choice != game.format_move(pos, move):
                others |= {self.names[i] for i in game.changed_cells(pos, game.parse_move(pos, choice))}
        only = sorted(mine - others) or sorted(mine)
        return only[0]


def script_text(
    outcome: Outcome, game: Game[Any, Any], board: BoardSpec, name: str, answered: bool = True
) -> str:
    """The failing move as a ``magboard play --script`` file, with how to replay it from its position
    (without the player's answers to the board unless ``answered``)."""
    store = f"/tmp/{name}.sqlite3"
    extra = f"; {outcome.extra_steps} repair steps beyond the fewest" if outcome.extra_steps else ""
    side = "--humans" if outcome.side is None else f"--side {outcome.side}"
    fast = f"python benchmarks/hands.py --game {game.id} --board {board.id} --replay {name}.script"
    if outcome.side is not None:
        fast += f" --side {outcome.side}"
    if outcome.ai_move:
        fast += f" --ai-move {outcome.intended}"
    facts = {
        "game": game.id, "board": board.id, "side": outcome.side, "ai_move": outcome.ai_move,
        "meant": outcome.meant or [outcome.intended], "took": outcome.committed, "verdict": outcome.verdict,
    }  # fmt: skip
    lines = [
        f"# {board.id}: {outcome.verdict} - meant {outcome.intended}, took {outcome.committed or 'nothing'}",
        f"# kinds of hand: {', '.join(outcome.kinds) or 'plain'}{extra}",
        f"# starts after the {len(outcome.history)} moves of {name}.journal; replay in simulated time with",
        f"#   {fast}",
        "# or on the simulated board (its firmware, link and clock; times then vary by a few ms):",
        f"#   magboard history --journal {store} import {name}.journal",
        f"#   magboard play {game.id} --board {board.id} {side} --no-browser --journal {store} \\",
        f"#     --script {name}.script",
    ]
    if outcome.ai_move:
        lines.append("# (the move is the AI's, made by hand: magboard play's own AI may choose another)")
    if not answered and outcome.answers:
        lines.append("# the player's answers (Confirm, taps) are left out: the board should not have asked")
    lines += [f"# corpus: {json.dumps(facts)}", "step 100", "wait 500"]
    skip = set() if answered else set(outcome.answers)
    for action in (
        a for i, a in enumerate(outcome.script) if i not in skip
    ):  # waits one after another as one
        if action.verb == "wait" and lines[-1].startswith("wait "):
            lines[-1] = f"wait {int(lines[-1].split()[1]) + action.ms}"
        else:
            lines.append(format_action(action))
    return "\n".join(lines) + "\n"


def journal_text(outcome: Outcome, game: Game[Any, Any]) -> str:
    """The game up to the failing move in the old journal format, which ``magboard history import`` takes."""
    return "\n".join([f"game: {game.id}", "---", *(f"move {m}" for m in outcome.history)]) + "\n"


# The kind a failure is filed under: the first of its kinds in this order, the likeliest cause first.
CAUSES = (
    "mistake", "hesitate", "two_lifted", "put_back", "late_capture", "knock", "nudge", "wrong_cell", "slide",
    "invisible_left", "invisible_late", "order",
)  # fmt: skip


def write_failures(tally: Tally, game: Game[Any, Any], board: BoardSpec, seed: int, out: Path) -> list[Path]:
    """Each failing move's script and starting position, in OUT/VERDICT/KIND (``extra_steps`` for a move
    taken as meant after guidance longer than the fewest steps; KIND the likeliest cause of its kinds)."""
    written = []
    for number, outcome in enumerate(tally.failures):
        verdict = outcome.verdict if outcome.verdict in ("wrong", "stalled", "asked") else "extra_steps"
        kind = next((k for k in CAUSES if k in outcome.kinds), "plain")
        group = out / verdict / kind
        group.mkdir(parents=True, exist_ok=True)
        name = f"{board.id}-s{seed}-{number:04d}"
        (group / f"{name}.journal").write_text(journal_text(outcome, game))
        path = group / f"{name}.script"
        path.write_text(script_text(outcome, game, board, name, answered=outcome.verdict != "asked"))
        written.append(path)
    return written


class Scripted:
    """The AI's side in a replay: plays the move given, then random legal ones."""

    def __init__(self, text: str | None, rng: random.Random) -> None:
        self.text = text
        self.rng = rng

    def start(self, game: Game[Any, Any]) -> None:
        """Nothing to get ready."""

    def choose(self, game: Game[Any, Any], pos: Any) -> Any:
        text, self.text = self.text, None
        return self.rng.choice(game.legal_moves(pos)) if text is None else game.parse_move(pos, text)

    def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]:
        return [self.rng.choice(game.legal_moves(pos))]


def replay(
    game: Game[Any, Any], board: BoardSpec, texts: Sequence[str], actions: Sequence[Action],
    side: int | None = None, ai_move: str | None = None,
) -> list[Event]:  # fmt: skip
    """What the session does when a script's actions are carried out, in simulated time, at the position
    ``texts`` reach (``side``: the player's against the AI, whose move waiting may be ``ai_move``)."""
    history = [game.start()]
    for text in texts:
        history.append(game.play_texts([text], history[-1]))
    opponent = None if side is None else Scripted(ai_move, random.Random(0))
    settings = Settings(ai_side=None if side is None else 1 - side, think_in_background=False)
    session = Session(
        game, SensorModel(board).reading_of, Reading.EMPTY, opponent=opponent, history=history,
        moves=list(texts), settings=settings,
    )  # fmt: skip
    events: list[Event] = []
    session.listeners.append(events.append)
    fast = FastBoard(session, SensorModel(board), board)
    fast.run(actions)
    fast.wait(1000)
    session.close()
    return events


def script_facts(text: str) -> dict[str, Any]:
    """What a script written by ``script_text`` says of itself: game, board, side, ai_move, meant, took."""
    for line in text.splitlines():
        if line.startswith("# corpus: "):
            facts: dict[str, Any] = json.loads(line.removeprefix("# corpus: "))
            return facts
    raise ValueError("not a script of the corpus: no '# corpus:' line")
