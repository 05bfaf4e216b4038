"""What the board may show next: every position the player can be heading for, found from the reading.

The sensors report only what they feel, never moves.  So after each commit the
tracker may have to compare a reading with every legal successor, the two
previous positions (a take-back) and the start position (a new game set up on
the board) - and, while the AI's move waits to be carried out, that move and
every reply to it.  Working out what each of those would look like to the
sensors costs far too much on a Raspberry Pi for a position with 2,000 moves, so
nothing is worked out in advance but an index from each cell to the moves that
change it (which the game answers from the move alone).  A reading then selects
the few candidates that change the cells where it differs from the committed
position, and only those are worked out - once, and kept until the next commit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from enum import Enum
from functools import cached_property
from typing import Any, Generic, TypeVar

from engines.game import Game
from engines.physical import Thing
from host.tracking.plan import Step, plan

R = TypeVar("R", bound=Hashable)  # one cell's reading
Stack = tuple[Thing, ...]


class Route(Enum):
    """How a candidate is reached: by moves, or by undoing them (recognised, never lit as a target)."""

    MOVES = "moves"
    TAKE_BACK = "take_back"
    NEW_GAME = "new_game"


class Candidate(Generic[R]):
    """One position the board may be showing, and how it differs from the committed one.

    ``moves`` are played after taking ``back`` plies back.  ``after`` holds the
    objects of every ``changed`` cell, ``reading`` their sensor reading;
    ``must_touch`` are the changed cells that read the same before and after (a
    knight captured by a knight, a stone turned under a reed switch): the sensors
    only know they were changed if a hand worked there.  A reading makes
    hundreds of candidates and looks at few of them closely, so everything but
    the objects is worked out when first asked for.
    """

    __slots__ = ("_changed", "_must_touch", "_reading", "_steps", "after", "back", "moves", "route", "source")

    def __init__(
        self,
        route: Route,
        moves: tuple[Any, ...],
        back: int,
        after: Mapping[int, Stack],
        source: Expectations[R],
    ) -> None:
        self.route = route
        self.moves = moves
        self.back = back
        self.after = after
        self.source = source
        self._changed: frozenset[int] | None = None
        self._reading: dict[int, R] | None = None
        self._must_touch: frozenset[int] | None = None
        self._steps: tuple[Step[int], ...] | None = None

    def __repr__(self) -> str:
        return f"Candidate({self.label!r})"

    @property
    def changed(self) -> frozenset[int]:
        if self._changed is None:
            self._changed = frozenset(self.after)
        return self._changed

    @property
    def reading(self) -> Mapping[int, R]:
        if self._reading is None:
            reading_of = self.source.reading_of_stack
            self._reading = {i: reading_of(stack) for i, stack in self.after.items()}
        return self._reading

    @property
    def must_touch(self) -> frozenset[int]:
        if self._must_touch is None:
            committed, empty = self.source.reading, self.source.empty
            self._must_touch = frozenset(i for i, r in self.reading.items() if r == committed[i] != empty)
        return self._must_touch

    @property
    def label(self) -> str:
        """The moves as text, or the take-back: for messages and logs."""
        return self.source.label(self)

    @property
    def steps(self) -> tuple[Step[int], ...]:
        """What hands do to make this candidate from the committed position, object by object."""
        if self._steps is None:
            self._steps = self.source.plan(self.after)
        return self._steps

    def shows(self, reading: Sequence[R], differing: Iterable[int]) -> bool:
        """Whether ``reading`` is exactly this candidate's reading (``differing``: where it differs from the
        committed position's)."""
        after = self.after
        if not all(i in after for i in differing):
            return False
        if self._reading is not None:
            return all(reading[i] == r for i, r in self._reading.items())
        reading_of = self.source.reading_of_stack
        return all(reading[i] == reading_of(stack) for i, stack in after.items())


class Expectations(Generic[R]):
    """The committed position, its sensor reading, and its candidates, worked out on demand."""

    def __init__(
        self,
        game: Game[Any, Any],
        reading_of: Callable[[Stack], R],
        empty: R,
        history: Sequence[Any],
        pending: Any | None = None,
        takebacks: int = 2,
        reversible: frozenset[str] = frozenset(),
    ) -> None:
        self.game = game
        self.reading_of = reading_of
        self.empty = empty
        self.history = tuple(history)
        self.position = self.history[-1]
        self.pending = pending
        self.takebacks = takebacks
        self.reversible = reversible
        names = game.geometry.names
        cells = game.cells(self.position)
        self.stacks: tuple[Stack, ...] = tuple(tuple(cells[name]) for name in names)
        self.reading: tuple[R, ...] = tuple(reading_of(s) for s in self.stacks)
        self._made: dict[int, Candidate[R]] = {}
        self._known: dict[int, tuple[Stack, R]] = {}
        self._covering: dict[frozenset[int], list[Candidate[R]]] = {}
        self._pending: Candidate[R] | None = None

    # --- the moves, indexed by the cells they change ----------------------------------------
    @cached_property
    def _after_pending(self) -> Any:
        return self.game.play(self.position, self.pending)

    @cached_property
    def _lines(self) -> list[tuple[Any, ...]]:
        """Every line of moves a candidate may be: the legal moves, or the AI's move and each reply."""
        if self.pending is None:
            return [(move,) for move in self.game.legal_moves(self.position)]
        after = self._after_pending
        return [
            (self.pending, reply)
            for reply in self.game.legal_moves(after)
            if self.game.changed_cells(after, reply)
        ]

    @cached_property
    def index(self) -> dict[int, list[int]]:
        """For each cell, the lines (by number) whose last move changes it.  Built once per commit."""
        game = self.game
        out: dict[int, list[int]] = {}
        pos = self.position if self.pending is None else self._after_pending
        for number, line in enumerate(self._lines):
            for cell in game.changed_cells(pos, line[-1]):
                out.setdefault(cell, []).append(number)
        return out

    @property
    def ready(self) -> bool:
        """Whether the index is built (the session builds it right after the LEDs are updated)."""
        return "index" in self.__dict__

    def build(self) -> None:
        """Build the index now (the session does this while the player thinks)."""
        _ = self.index

    # --- candidates ------------------------------------------------------------------------------
    def covering(self, cells: Iterable[int]) -> list[Candidate[R]]:
        """The move candidates that may change every one of ``cells`` (a superset of those that do).

        A reading that differs at cells D can only show, or be on the way to, a
        move that changes all of D: the index gives the moves that change each
        cell, and only the moves in all of those lists are worked out.  While the
        AI's move waits, its candidate comes first, and a reply only if it changes
        every cell of D that the AI's move does not.
        """
        key = frozenset(cells)
        known = self._covering.get(key)
        if known is None:
            known = self._covering[key] = self._cover(key)
        return known

    def _cover(self, cells: frozenset[int]) -> list[Candidate[R]]:
        wanted = set(cells)
        found: list[Candidate[R]] = []
        if self.pending is not None:
            found.append(self.pending_candidate)
            wanted -= self.pending_candidate.changed
            if not wanted:
                return found
        index = self.index
        lists = sorted((index.get(cell, ()) for cell in wanted), key=len)
        if not lists or not lists[0]:
            return found
        numbers = set(lists[0]).intersection(*lists[1:])
        found.extend(self._line(n) for n in sorted(numbers))
        return found

    def every(self) -> list[Candidate[R]]:
        """Every move candidate (the AI's waiting move and each reply to it): costly, for rare questions."""
        found = [self.pending_candidate] if self.pending is not None else []
        return found + [self._line(n) for n in range(len(self._lines))]

    @cached_property
    def undoing(self) -> list[Candidate[R]]:
        """The take-backs and the new game: matched when the board shows them, never lit as targets.

        Where two of them leave the same objects (a pass between them changed nothing), the board can only
        mean the nearer one: the farther is left out rather than asked about.
        """
        played = len(self.history) - 1
        found = [
            self._make(Route.TAKE_BACK, (), back, self.history[-1 - back])
            for back in range(1, min(self.takebacks, played) + 1)
        ]
        if played > self.takebacks:
            found.append(self._make(Route.NEW_GAME, (), played, self.history[0]))
        return [c for i, c in enumerate(found) if all(c.after != nearer.after for nearer in found[:i])]

    @property
    def pending_candidate(self) -> Candidate[R]:
        """The AI's waiting move as a candidate (there must be one)."""
        if self._pending is None:
            self._pending = self._make(Route.MOVES, (self.pending,), 0, self._after_pending)
        return self._pending

    def candidate_for(self, moves: tuple[Any, ...]) -> Candidate[R]:
        """The candidate of these moves from the committed position (a hint, a forced move)."""
        if self.pending is not None and moves == (self.pending,):
            return self.pending_candidate
        pos = self.position
        for move in moves:
            pos = self.game.play(pos, move)
        return self._make(Route.MOVES, moves, 0, pos)

    def exact(self, reading: Sequence[R], differing: Sequence[int]) -> list[Candidate[R]]:
        """The candidates (moves first, then take-backs) whose reading is ``reading``."""
        if not differing:
            return []
        found = [c for c in self.covering(differing) if c.shows(reading, differing)]
        return found + [c for c in self.undoing if c.shows(reading, differing)]

    def _line(self, number: int) -> Candidate[R]:
        made = self._made.get(number)
        if made is None:
            line = self._lines[number]
            if self.pending is None:
                after = self.game.changes(self.position, line[0])
                made = self._from_changes(Route.MOVES, line, 0, after)
            else:
                made = self._make(Route.MOVES, line, 0, self.game.play(self._after_pending, line[-1]))
            self._made[number] = made
        return made

    def _make(self, route: Route, moves: tuple[Any, ...], back: int, pos: Any) -> Candidate[R]:
        cells = self.game.cells(pos)
        after = {
            i: stack
            for i, (name, old) in enumerate(zip(self.game.geometry.names, self.stacks, strict=True))
            if (stack := tuple(cells[name])) != old
        }
        return self._from_changes(route, moves, back, after)

    def _from_changes(
        self, route: Route, moves: tuple[Any, ...], back: int, after: Mapping[int, Stack]
    ) -> Candidate[R]:
        return Candidate(route, moves, back, after, self)

    def reading_of_stack(self, stack: Stack) -> R:
        """The reading of a cell's objects (games reuse a few stack values: remembered by identity)."""
        known = self._known.get(id(stack))
        if known is not None and known[0] is stack:
            return known[1]
        value = self.reading_of(stack)
        self._known[id(stack)] = (stack, value)
        return value

    def plan(self, after: Mapping[int, Stack]) -> tuple[Step[int], ...]:
        """The object steps from the committed position to ``after`` (changed cells only)."""
        before = {i: self.stacks[i] for i in after}
        return plan(before, after, self.reversible, self.game.geometry.distance)

    def label(self, candidate: Candidate[R]) -> str:
        if candidate.route is Route.TAKE_BACK:
            return f"take back {candidate.back}"
        if candidate.route is Route.NEW_GAME:
            return "new game"
        return " ".join(self.game.line_texts(self.position, candidate.moves))

    def differing(self, reading: Sequence[R]) -> list[int]:
        """The cells where ``reading`` differs from the committed position's reading."""
        return [i for i, (a, b) in enumerate(zip(self.reading, reading, strict=True)) if a != b]
