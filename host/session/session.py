"""A game on the board: readings and buttons in, committed moves and LED scenes out.

The session owns the game in progress.  It feeds each reading to the tracker,
waits for readings to settle where the tracker asks for patience, commits and
journals moves, asks the AI for its move and lights what the player should see.
It is driven by explicit times (``t_ms``) and never sleeps, so the tests can
replay a whole game in milliseconds and the live loop can drive it from the
serial link and a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from engines.game import Game
from engines.physical import Thing
from host.session.journal import Journal
from host.session.lights import FAST, SLOW, STEADY, Light
from host.tracking.candidates import Candidate, Expectations
from host.tracking.tracker import AMBIGUOUS, CONFIRM, MATCH, MISMATCH, PROGRESS, Step, Tracker, Verdict

BUTTONS = ("confirm", "new_game", "hint", "take_back")


class Opponent(Protocol):
    """Chooses moves for the AI's side (and hints for the player's)."""

    def choose(self, game: Game[Any, Any], pos: Any) -> Any: ...

    def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]: ...


@dataclass
class Settings:
    settle_ms: int = 250  # a reading counts as settled after this long unchanged
    quick_ms: int = 100  # a complete, unambiguous turn is taken after this long
    ai_side: int | None = 1  # None: two humans
    # The AI thinks on a worker thread so that the LEDs and the tracker stay live meanwhile;
    # tests of the session's logic alone turn this off to get the move at once.
    think_in_background: bool = True


@dataclass
class Event:
    """Something the session did, for the scripted mode's JSON lines and for tests."""

    t_ms: int
    kind: str  # commit, takeback, newgame, scene, over
    data: dict[str, Any] = field(default_factory=dict)


class Session:
    def __init__(
        self,
        game: Game[Any, Any],
        reading_of: Callable[[tuple[Thing, ...]], Hashable],
        empty: Hashable,
        *,
        opponent: Opponent | None = None,
        journal: Journal | None = None,
        settings: Settings | None = None,
        history: Sequence[Any] | None = None,
        moves: Sequence[str] = (),
    ) -> None:
        self.game = game
        self.reading_of = reading_of
        self.empty = empty
        self.opponent = opponent
        self.journal = journal
        self.settings = settings or Settings()
        self.names = game.geometry.names
        self.history: list[Any] = list(history) if history else [game.start()]
        self.moves: list[str] = list(moves)
        self.events: list[Event] = []
        self.listeners: list[Callable[[Event], None]] = []
        self.pending: Any | None = None
        self.hint_line: list[Any] = []
        self.reading: tuple[Hashable, ...] | None = None
        self.since_ms = 0
        self.now_ms = 0
        self.touched: set[int] = set()
        self.asking: tuple[Candidate[Hashable], ...] = ()
        self.ask_base: tuple[Hashable, ...] | None = None
        self.ask_moved: set[int] = set()
        self.highlight = 0
        self.scene: dict[str, Light] = {}
        self.verdict: Verdict[Hashable] | None = None
        # After a take-back or new game by button the board still shows the old position,
        # which is a legal successor again: nothing is matched until the board is restored.
        self.restoring = False
        self.thinking: Future[Any] | None = None
        self.hinting: tuple[int, Future[list[Any]]] | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai")
        self._prepare()

    # --- inputs --------------------------------------------------------------------------
    def on_reading(self, t_ms: int, reading: Sequence[Hashable]) -> None:
        """A new debounced reading of every cell, in geometry order."""
        value = tuple(reading)
        self.now_ms = t_ms
        if value != self.reading:
            if self.reading is not None:
                pairs = zip(self.reading, value, strict=True)
                self.touched.update(i for i, (a, b) in enumerate(pairs) if a != b)
            else:
                self.touched.update(self.expect.differing(value))
            self.reading = value
            self.since_ms = t_ms
            self.hint_line = []
            if self.asking:
                self._watch_taps(value)
        self._evaluate()

    def on_tick(self, t_ms: int) -> None:
        """Time passes: readings settle, and the candidates get listed while the player thinks."""
        self.now_ms = t_ms
        if not self.expect.ready:
            self.expect.build()
        self._evaluate()

    def on_button(self, t_ms: int, name: str) -> None:
        self.now_ms = t_ms
        if name == "confirm":
            if self.shown_choice is not None:
                self._commit(self.shown_choice)
            elif self.verdict is not None and self.verdict.kind == CONFIRM and self.verdict.match is not None:
                self._commit(self.verdict.match)
        elif name == "take_back":
            self._take_back()
        elif name == "new_game":
            self._new_game()
        elif name == "hint":
            self._hint()
        else:
            raise ValueError(f"unknown button {name!r} (known: {', '.join(BUTTONS)})")
        self._evaluate()

    # --- the game ---------------------------------------------------------------------------
    @property
    def position(self) -> Any:
        return self.history[-1]

    def _prepare(self) -> None:
        """Fresh expectations for the committed position; the AI starts thinking if it is its turn."""
        self.pending = None
        self.touched = set()
        self.asking = ()
        self.hint_line = []
        self.thinking = None
        self._expect_pending()
        forced = self._forced()
        if forced is not None:
            self._commit(forced)
            return
        pos = self.position
        if not self.game.is_over(pos) and self._ai_to_move() and self.opponent is not None:
            if self.settings.think_in_background:
                self.thinking = self._worker.submit(self.opponent.choose, self.game, pos)
            else:
                self._take_ai_move(self.opponent.choose(self.game, pos))

    def _expect_pending(self) -> None:
        """Expectations for the committed position and the AI's move, if it has one."""
        self.expect: Expectations[Hashable] = Expectations(
            self.game, self.reading_of, self.empty, self.history, self.pending, takebacks=2
        )
        self.tracker = Tracker(self.expect)

    def _take_ai_move(self, move: Any) -> None:
        self.pending = move
        self._expect_pending()
        forced = self._forced()  # an AI pass needs no hands
        if forced is not None:
            self._commit(forced)

    def _collect_ai_move(self) -> None:
        """Take the AI's move once its thinking is done."""
        if self.thinking is None or not self.thinking.done():
            return
        future, self.thinking = self.thinking, None
        self._take_ai_move(future.result())

    @property
    def opponent_seconds(self) -> float | None:
        """How long the AI may think per move, if it says."""
        return getattr(self.opponent, "seconds", None)

    def close(self) -> None:
        """Stop thinking (the AI's move, if any, is dropped: the journal has every commit)."""
        self._worker.shutdown(wait=False, cancel_futures=True)

    def _ai_to_move(self) -> bool:
        return self.settings.ai_side is not None and self.game.to_move(self.position) == self.settings.ai_side

    def _forced(self) -> Candidate[Hashable] | None:
        """A move nobody has to make with their hands (a pass) when it is the only one."""
        if self.game.is_over(self.position):
            return None
        moves = [self.pending] if self.pending is not None else self.game.legal_moves(self.position)
        if len(moves) != 1:
            return None
        only = self.expect.candidate_for((moves[0],))
        return None if only.changed else only

    def _commit(self, candidate: Candidate[Hashable]) -> None:
        if candidate.back:
            del self.history[-candidate.back :]
            del self.moves[-candidate.back :]
            if self.journal is not None:
                self.journal.takeback(candidate.back)
            self._emit("takeback", plies=candidate.back)
        pos = self.position
        for move in candidate.moves:
            text = self.game.format_move(pos, move)
            pos = self.game.play(pos, move)
            if self.journal is not None:
                self.journal.move(text)
            self.history.append(pos)
            self.moves.append(text)
            self._emit("commit", move=text, ply=len(self.moves))
        outcome = self.game.outcome(pos)
        if outcome is not None:
            self._emit("over", winner=outcome.winner, score=list(outcome.score) if outcome.score else None)
        self._prepare()

    def _take_back(self) -> None:
        """Back to the player's previous turn; the LEDs then guide the board back."""
        plies = 1
        while (
            plies < len(self.moves)
            and self.settings.ai_side is not None
            and (self.game.to_move(self.history[-1 - plies]) == self.settings.ai_side)
        ):
            plies += 1
        if plies > len(self.moves):
            return
        del self.history[-plies:]
        del self.moves[-plies:]
        if self.journal is not None:
            self.journal.takeback(plies)
        self._emit("takeback", plies=plies)
        self.restoring = True
        self._prepare()

    def _new_game(self) -> None:
        self.history = [self.game.start()]
        self.moves = []
        if self.journal is not None:
            self.journal.new_game()
        self._emit("newgame")
        self.restoring = True
        self._prepare()

    def _hint(self) -> None:
        """Ask the AI for the best move here; it is lit (dimmed) when the answer comes."""
        if self.opponent is None or self.game.is_over(self.position) or self.pending is not None:
            return
        if self.settings.think_in_background:
            future = self._worker.submit(self.opponent.hint, self.game, self.position)
            self.hinting = (len(self.moves), future)
        else:
            self.hint_line = self.opponent.hint(self.game, self.position)

    def _collect_hint(self) -> None:
        """Show a hint once found, unless the game moved on meanwhile."""
        if self.hinting is None or not self.hinting[1].done():
            return
        (asked_at, future), self.hinting = self.hinting, None
        if asked_at == len(self.moves) and self.pending is None:
            self.hint_line = future.result()

    # --- judging readings --------------------------------------------------------------------
    def _evaluate(self) -> None:
        self._collect_ai_move()
        self._collect_hint()
        if self.reading is None:
            self._show(self._idle_scene())
            return
        if self.restoring or self.thinking is not None:
            if self.reading != self.expect.reading:
                self._show(self._mistake_scene(self.tracker.guidance(self.reading)))
                return
            self.restoring = False
            if self.thinking is not None:
                self._show(self._idle_scene())
                return
        verdict = self.tracker.observe(self.reading, self.touched)
        self.verdict = verdict
        stable = self.now_ms - self.since_ms
        settled = stable >= self.settings.settle_ms
        if verdict.kind == MATCH and verdict.match is not None and stable >= self.settings.quick_ms:
            self._commit(verdict.match)
            self._evaluate()
            return
        if verdict.kind == AMBIGUOUS and settled and not self.asking:
            self.asking = verdict.choices
            self.ask_base = self.reading
            self.ask_moved = set()
            self.highlight = 0
        if self.asking:
            self._show(self._ask_scene())
        elif verdict.kind == CONFIRM and verdict.match is not None:
            self._show(self._confirm_scene(verdict.match))
        elif verdict.kind == PROGRESS:
            self._show(self._progress_scene(verdict))
        elif verdict.kind == MISMATCH and settled:
            self._show(self._mistake_scene(verdict.steps))
        elif verdict.kind == MISMATCH:
            return  # a hand is still at work: keep what is lit
        else:
            self._show(self._idle_scene())

    def _watch_taps(self, reading: tuple[Hashable, ...]) -> None:
        """While asking, a cell lifted and put back (or touched with a piece) answers.

        A tap on a cell that only some choices change picks among those; any
        other tap shows the next choice.  Confirm takes the one shown.
        """
        assert self.ask_base is not None
        moved = {i for i, (a, b) in enumerate(zip(self.ask_base, reading, strict=True)) if a != b}
        if moved:
            self.ask_moved |= moved
            return
        tapped, self.ask_moved = self.ask_moved, set()
        if not tapped:
            return
        everywhere = frozenset.intersection(*(c.changed for c in self.asking))
        picked = [c for c in self.asking if tapped & (c.changed - everywhere)]
        if len(picked) == 1:
            self._commit(picked[0])
        else:
            self.highlight = (self.highlight + 1) % len(self.asking)

    @property
    def shown_choice(self) -> Candidate[Hashable] | None:
        """The choice the LEDs show while asking (confirm takes it)."""
        return self.asking[self.highlight % len(self.asking)] if self.asking else None

    # --- scenes ------------------------------------------------------------------------------
    def _idle_scene(self) -> dict[str, Light]:
        outcome = self.game.outcome(self.position)
        if outcome is not None:
            cells = self.game.cells(self.position)
            return {
                name: Light("result", SLOW)
                for name, stack in cells.items()
                if stack and (outcome.winner is None or stack[-1].colour == outcome.winner)
            }
        if self.pending is not None:
            return self._move_lights(self.pending, SLOW, dim=False)
        if self.hint_line:
            return self._move_lights(self.hint_line[0], SLOW, dim=True)
        return {}

    def _move_lights(self, move: Any, blink: str, dim: bool) -> dict[str, Light]:
        """What is left to do on the board for ``move`` from the committed position."""
        candidate = self.expect.candidate_for((move,))
        reading = self.reading if self.reading is not None else self.expect.reading
        steps = self.tracker.remaining(candidate, reading, frozenset(self.touched))
        return self._step_lights(steps, blink, dim)

    def _progress_scene(self, verdict: Verdict[Hashable]) -> dict[str, Light]:
        scene: dict[str, Light] = {}
        for cell, targets in verdict.lifted.items():
            scene[self.names[cell]] = Light("lift", STEADY)
            for target in targets:
                scene[self.names[target]] = Light("put", STEADY)
        if self.pending is not None:
            scene.update(self._move_lights(self.pending, SLOW, dim=False))
        scene.update(self._step_lights(verdict.todo, SLOW))
        return scene

    def _confirm_scene(self, match: Candidate[Hashable]) -> dict[str, Light]:
        return {self.names[i]: Light("choose", SLOW) for i in match.changed}

    def _ask_scene(self) -> dict[str, Light]:
        """The choice shown: where carried objects would have gone (put), what else it changes (choose)."""
        choice = self.shown_choice
        assert choice is not None
        before = self.expect.stacks
        carried = {before[i][-1] for i in choice.changed if before[i] and before[i] != choice.stacks[i]}
        scene = {}
        for cell in choice.changed:
            stack = choice.stacks[cell]
            landed = bool(stack) and stack[-1] in carried and stack[-1] not in before[cell]
            scene[self.names[cell]] = Light("put", STEADY) if landed else Light("choose", SLOW)
        return scene

    def _mistake_scene(self, steps: Sequence[Step]) -> dict[str, Light]:
        scene: dict[str, Light] = {}
        for index, step in enumerate(steps):
            if index == 0:
                scene.update(self._step_lights([step], FAST))
            else:
                for cell in (step.source, step.target):
                    if cell is not None:
                        scene[self.names[cell]] = Light("wrong", STEADY, dim=True)
        return scene

    def _step_lights(self, steps: Sequence[Step], blink: str, dim: bool = False) -> dict[str, Light]:
        """Lights for instructions: lift and put for a move, and one colour for each other kind."""
        scene: dict[str, Light] = {}
        meaning = {"put": "put", "remove": "remove", "turn": "turn", "replace": "remove"}
        for step in steps:
            if step.action == "move":
                assert step.source is not None and step.target is not None
                scene[self.names[step.source]] = Light("lift", blink, dim)
                scene[self.names[step.target]] = Light("put", blink, dim)
            else:
                cell = step.target if step.target is not None else step.source
                assert cell is not None
                scene.setdefault(self.names[cell], Light(meaning[step.action], blink, dim))
        return scene

    def _show(self, scene: dict[str, Light]) -> None:
        if scene != self.scene:
            self.scene = scene
            lights = {cell: [light.meaning, light.blink, light.dim] for cell, light in sorted(scene.items())}
            self._emit("scene", lights=lights)

    def _emit(self, kind: str, **data: Any) -> None:
        event = Event(self.now_ms, kind, data)
        self.events.append(event)
        for listener in self.listeners:
            listener(event)
