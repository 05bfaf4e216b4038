"""What the board may show next: every position the player can be heading for, found from the reading.

The sensors report only what they feel, never moves.  So after each commit the
tracker may have to compare a reading with every legal successor, the two
previous positions (a take-back) and the start position (a new game set up on
the board) - and, while the AI's move waits to be carried out, that move and
every reply to it.  Working out what each of those would look like to the
sensors costs far too much on a Raspberry Pi for a position with 2,000 moves, so
nothing is worked out in advance but the cells each move changes (which the game
answers from the move alone).  A reading then selects the few candidates that
change the cells where it differs from the committed position, and only those
are worked out - once, and kept until the next commit.  A reading that differs
at one cell only (a piece lifted) may concern 800 moves: those are sorted once,
by what they leave on the cell and where they carry its piece, so that the
lights of every later lift there cost what they light.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from itertools import repeat
from typing import Any, Generic, TypeVar, overload

from engines.game import Game
from engines.physical import Thing
from host.tracking.plan import Step, minus, plan

R = TypeVar("R", bound=Hashable)  # one cell's reading
Stack = tuple[Thing, ...]
# What a candidate was made for: the version of the committed position (the session's log counts every
# change) and the AI's move waiting there, if any.  Values, not identities: a candidate holds no reference
# to the expectations that hold it, so a position's candidates are freed with them by reference counting.
Basis = tuple[int, Any]


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
    the objects is worked out when first asked for.  ``basis`` is the
    (version, AI's waiting move) of the position it was made for: the session
    commits it only while that is still the committed position's.
    """

    __slots__ = (
        "_changed",
        "_committed",
        "_must_touch",
        "_puts",
        "_reading",
        "_steps",
        "after",
        "back",
        "basis",
        "moves",
        "route",
    )

    def __init__(
        self,
        route: Route,
        moves: tuple[Any, ...],
        back: int,
        after: Mapping[int, Stack],
        committed: Committed[R],
        basis: Basis,
    ) -> None:
        self.route = route
        self.moves = moves
        self.back = back
        self.after = after
        self.basis = basis
        self._committed = committed
        self._changed: frozenset[int] | None = None
        self._reading: dict[int, R] | None = None
        self._must_touch: frozenset[int] | None = None
        self._puts: tuple[int, ...] | None = None
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
            reading_of = self._committed.reading_of_stack
            self._reading = {i: reading_of(stack) for i, stack in self.after.items()}
        return self._reading

    @property
    def must_touch(self) -> frozenset[int]:
        if self._must_touch is None:
            committed, empty = self._committed.reading, self._committed.empty
            self._must_touch = frozenset(i for i, r in self.reading.items() if r == committed[i] != empty)
        return self._must_touch

    @property
    def puts(self) -> tuple[int, ...]:
        """The cells this candidate puts an object on that was not there (a turned-over top is no put)."""
        if self._puts is None:
            puts = self._committed.puts
            before = self._committed.stacks
            self._puts = tuple(i for i, stack in self.after.items() if puts(before[i], stack))
        return self._puts

    @property
    def label(self) -> str:
        """The moves as text, or the take-back: for messages and logs."""
        return self._committed.label(self)

    @property
    def steps(self) -> tuple[Step[int], ...]:
        """What hands do to make this candidate from the committed position, object by object."""
        if self._steps is None:
            self._steps = self._committed.plan(self.after)
        return self._steps

    def shows(self, reading: Sequence[R], differing: Iterable[int]) -> bool:
        """Whether ``reading`` is exactly this candidate's reading (``differing``: where it differs from the
        committed position's)."""
        after = self.after
        if not all(i in after for i in differing):
            return False
        if self._reading is not None:
            return all(reading[i] == r for i, r in self._reading.items())
        reading_of = self._committed.reading_of_stack
        return all(reading[i] == reading_of(stack) for i, stack in after.items())


class Lines(Sequence[Candidate[R]]):
    """Candidates by line number, each made when first looked at: the moves of a lifted Desdemona queen
    number 800 or more, and while it is in the hand they are counted, not looked at."""

    def __init__(self, source: Expectations[R], numbers: Sequence[int]) -> None:
        self.source = source
        self.numbers = numbers

    def __len__(self) -> int:
        return len(self.numbers)

    @overload
    def __getitem__(self, index: int) -> Candidate[R]: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Candidate[R]]: ...

    def __getitem__(self, index: int | slice) -> Candidate[R] | Sequence[Candidate[R]]:
        if isinstance(index, slice):
            return self.source.lines(self.numbers[index])
        (only,) = self.source.lines((self.numbers[index],))
        return only

    def __iter__(self) -> Iterator[Candidate[R]]:
        return iter(self.source.lines(self.numbers))


PENDING = -1  # the line number of the AI's waiting move itself


@dataclass(frozen=True)
class CellMoves(Generic[R]):
    """The move candidates that change one cell, by line number, sorted by what they do: worked out the
    first time a reading differs at that cell alone (a piece lifted, a first stone put down), and kept
    until the next commit, so that each such reading costs what it lights rather than what the position's
    moves number.  Candidates are made only for the lines asked for (``Expectations.lines``).

    ``every`` change the cell; ``by_reading`` are those by the reading they leave on it; ``alone`` those
    whose reading differs from the committed one at this cell only (the only ones a reading differing
    here alone can show); ``landings`` where each carries the cell's top object to (a landing index).
    """

    every: tuple[int, ...]
    by_reading: Mapping[R, tuple[int, ...]]
    alone: tuple[int, ...]
    landings: Mapping[int, tuple[int, ...]]


class Committed(Generic[R]):
    """The committed position as the sensors see it: each cell's objects and reading, and what follows
    from them about any candidate (its readings, its steps, its text).  It holds no candidate, so the
    candidates can hold it."""

    def __init__(
        self,
        game: Game[Any, Any],
        reading_of: Callable[[Stack], R],
        empty: R,
        position: Any,
        reversible: frozenset[str],
    ) -> None:
        self.game = game
        self.reading_of = reading_of
        self.empty = empty
        self.position = position
        self.reversible = reversible
        cells = game.cells(position)
        self.named: tuple[tuple[str, Stack], ...] = tuple(
            (name, tuple(cells[name])) for name in game.geometry.names
        )
        self.stacks: tuple[Stack, ...] = tuple(stack for _, stack in self.named)
        self.reading: tuple[R, ...] = tuple(reading_of(s) for s in self.stacks)
        self._known: dict[int, tuple[Stack, R]] = {}
        self._minus: dict[tuple[int, int], tuple[Stack, Stack, Stack]] = {}

    def reading_of_stack(self, stack: Stack) -> R:
        """The reading of a cell's objects (games reuse a few stack values: remembered by identity, with the
        stack, which keeps that identity its own while it is remembered)."""
        known = self._known.get(id(stack))
        if known is None:
            known = self._known[id(stack)] = (stack, self.reading_of(stack))
        return known[1]

    def minus(self, stack: Stack, other: Stack) -> Stack:
        """``plan.minus`` remembered by the stacks' identities (with the stacks, so that they stay theirs):
        planning every move on the way compares the same few stacks over and over."""
        key = (id(stack), id(other))
        known = self._minus.get(key)
        if known is None:
            known = self._minus[key] = (stack, other, minus(stack, other))
        return known[2]

    def turned(self, old: Stack, new: Stack) -> bool:
        """Whether ``new`` is ``old`` with its top object turned over (a reversible stone or piece)."""
        return (
            len(old) == len(new) > 0
            and old[:-1] == new[:-1]
            and old[-1].kind == new[-1].kind
            and old[-1].colour != new[-1].colour
            and old[-1].kind in self.reversible
        )

    def puts(self, old: Stack, new: Stack) -> bool:
        """Whether ``new`` holds an object ``old`` lacks, other than its top object turned over."""
        return bool(self.minus(new, old)) and not self.turned(old, new)

    def plan(self, after: Mapping[int, Stack]) -> tuple[Step[int], ...]:
        """The object steps from the committed position to ``after`` (changed cells only)."""
        before = {i: self.stacks[i] for i in after}
        return plan(before, after, self.reversible, self.game.geometry.distance, self.minus)

    def label(self, candidate: Candidate[R]) -> str:
        if candidate.route is Route.TAKE_BACK:
            return f"take back {candidate.back}"
        if candidate.route is Route.NEW_GAME:
            return "new game"
        return " ".join(self.game.line_texts(self.position, candidate.moves))


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
        version: int = 0,
    ) -> None:
        self.game = game
        self.reading_of = reading_of
        self.empty = empty
        self.history = tuple(history)
        self.position = self.history[-1]
        self.pending = pending
        self.basis: Basis = (version, pending)
        self.takebacks = takebacks
        self.reversible = reversible
        self.committed = committed = Committed(game, reading_of, empty, self.position, reversible)
        self.stacks = committed.stacks
        self.reading = committed.reading
        self.reading_of_stack = committed.reading_of_stack
        self.turned = committed.turned
        self.puts = committed.puts
        self.plan = committed.plan
        self._made: dict[int, Candidate[R]] = {}
        self._covering: dict[frozenset[int], list[Candidate[R]]] = {}
        self._lists: dict[int, list[int]] = {}
        self._cells: dict[int, CellMoves[R]] = {}
        self._pending: Candidate[R] | None = None

    # --- the moves, indexed by the cells they change ----------------------------------------
    @cached_property
    def legal(self) -> list[Any]:
        """The legal moves of the committed position, listed once."""
        return self.game.legal_moves(self.position)

    @cached_property
    def _after_pending(self) -> Any:
        return self.game.play(self.position, self.pending)

    @cached_property
    def _last(self) -> list[Any]:
        """The last move of every line a candidate may be: each legal move, or each reply to the AI's move
        (a line is that reply after the AI's move)."""
        if self.pending is None:
            return self.legal
        after = self._after_pending
        return [reply for reply in self.game.legal_moves(after) if self.game.changed_cells(after, reply)]

    @cached_property
    def changed(self) -> list[tuple[int, ...]]:
        """The cells each line's last move changes, by line number (the game answers from the move alone).
        Worked out once per commit; a cell's lines are found from it when a reading first needs them."""
        pos = self.position if self.pending is None else self._after_pending
        return list(map(self.game.changed_cells, repeat(pos), self._last))

    def index(self, cell: int) -> list[int]:
        """The lines (by number) whose last move changes ``cell``."""
        known = self._lists.get(cell)
        if known is None:
            known = self._lists[cell] = [n for n, cells in enumerate(self.changed) if cell in cells]
        return known

    @property
    def ready(self) -> bool:
        """Whether the moves' changed cells are worked out (the session does it right after the LEDs are
        updated)."""
        return "changed" in self.__dict__

    def build(self) -> None:
        """Work out the moves' changed cells now (the session does this while the player thinks)."""
        _ = self.changed

    # --- candidates ------------------------------------------------------------------------------
    def covering(self, cells: Iterable[int]) -> list[Candidate[R]]:
        """The move candidates that may change every one of ``cells`` (a superset of those that do).

        A reading that differs at cells D can only show, or be on the way to, a
        move that changes all of D: the moves that change one cell of D and, by
        their changed cells, every other, are the only ones worked out.  While the
        AI's move waits, its candidate comes first, and a reply only if it changes
        every cell of D that the AI's move does not.
        """
        key = frozenset(cells)
        known = self._covering.get(key)
        if known is None:
            known = self._covering[key] = self.lines(self._numbers(key))
        return known

    def _numbers(self, cells: frozenset[int]) -> Sequence[int]:
        """The lines that may change every one of ``cells``, by number (``covering``)."""
        wanted = set(cells)
        found: list[int] = []
        if self.pending is not None:
            found.append(PENDING)
            wanted -= self.pending_candidate.changed
        if not wanted:
            return found
        # One cell's lines (one already found if any, the shortest), kept where they change the others.
        lists = self._lists
        found_already = [cell for cell in wanted if cell in lists]
        first = min(found_already, key=lambda c: len(lists[c])) if found_already else min(wanted)
        numbers = self.index(first)
        changed = self.changed
        for cell in wanted - {first}:
            numbers = [n for n in numbers if cell in changed[n]]
        found.extend(numbers)
        return found

    def lines(self, numbers: Iterable[int]) -> list[Candidate[R]]:
        """The candidates of these lines, each made once (without a call per candidate: a lifted
        Desdemona queen may need 800 of them)."""
        made, last, changes, pos = self._made, self._last, self.game.changes, self.position
        committed, basis = self.committed, self.basis
        found: list[Candidate[R]] = []
        for n in numbers:
            c = made.get(n)
            if c is None:
                if self.pending is not None:
                    c = self._reply(n)
                else:
                    move = last[n]
                    c = made[n] = Candidate(Route.MOVES, (move,), 0, changes(pos, move), committed, basis)
            found.append(c)
        return found

    def cell_moves(self, cell: int) -> CellMoves[R]:
        """The lines that change ``cell``, sorted by what they do (worked out once a position)."""
        known = self._cells.get(cell)
        if known is None:
            known = self._cells[cell] = self._sort(cell)
        return known

    def _afters(self, numbers: Sequence[int]) -> Iterable[tuple[int, Mapping[int, Stack]]]:
        """Each line's number and the objects it leaves on the cells it changes (from its candidate if
        made, else from the game, without making one).  One at a time: 800 of them kept at once would
        only make work for the garbage collector."""
        if self.pending is not None:
            reply = self._reply
            return ((n, reply(n).after) for n in numbers)
        made, last, changes, pos = self._made, self._last, self.game.changes, self.position
        return (
            (n, known.after if (known := made.get(n)) is not None else changes(pos, last[n])) for n in numbers
        )

    def _sort(self, cell: int) -> CellMoves[R]:
        # One pass, kept tight (a lifted Desdemona queen has 800 moves or more).  Games reuse a few stack
        # values, so what a stack means is worked out once and kept by its identity (with the stack, so
        # that the identity stays its own): on this cell, the group of its reading and whether the top
        # object leaves in a hand (not turned over in place); on another cell, whether it reads unlike the
        # committed reading there, and the landing group of that cell if the top object lands there.
        before, committed, reading_of, turned = self.stacks, self.reading, self.reading_of_stack, self.turned
        stack = before[cell]
        top = stack[-1] if stack else None
        every: list[int] = []
        alone: list[int] = []
        by_reading: dict[R, list[int]] = {}
        landings: dict[int, list[int]] = {}
        here: dict[int, tuple[Stack, list[int], bool]] = {}
        elsewhere: list[dict[int, tuple[Stack, bool, list[int] | None]]] = [{} for _ in before]
        keep, keep_alone = every.append, alone.append
        for n, after in self._afters(self._numbers(frozenset((cell,)))):
            mine = after.get(cell)
            if mine is None:  # the AI's waiting move, which leaves this cell alone
                continue
            keep(n)
            known = here.get(id(mine))
            if known is None:  # (``here`` keeps ``mine``, so no other stack has its identity)
                group = by_reading.setdefault(reading_of(mine), [])
                known = here[id(mine)] = (mine, group, top is not None and not turned(stack, mine))
            known[1].append(n)
            carried = known[2]
            visible = False
            for j, there in after.items():
                if j == cell:
                    continue
                seen = elsewhere[j]
                effect = seen.get(id(there))
                if effect is None:
                    old = before[j]
                    lands = (
                        top is not None
                        and top in there
                        and (not old or (top not in old and not turned(old, there)))
                    )
                    landing = landings.setdefault(j, []) if lands else None
                    effect = seen[id(there)] = (there, reading_of(there) != committed[j], landing)
                if effect[1]:
                    visible = True
                if carried and effect[2] is not None:
                    effect[2].append(n)
            if not visible:
                keep_alone(n)
        return CellMoves(
            tuple(every),
            {r: tuple(ns) for r, ns in by_reading.items()},
            tuple(alone),
            {j: tuple(ns) for j, ns in landings.items() if ns},
        )

    def every(self) -> list[Candidate[R]]:
        """Every move candidate (the AI's waiting move and each reply to it): costly, for rare questions."""
        found = [self.pending_candidate] if self.pending is not None else []
        return found + self.lines(range(len(self._last)))

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
        pos = self.position
        for move in moves:
            pos = self.game.play(pos, move)
        return self._make(Route.MOVES, moves, 0, pos)

    def after(self, candidate: Candidate[R]) -> Expectations[R]:
        """The expectations of the position ``candidate``'s moves lead to, as if they were committed: its
        replies only (no history, so no take-back or new game: those are this position's own)."""
        pos = self.position
        for move in candidate.moves:
            pos = self.game.play(pos, move)
        # Version -1: a position never committed, so none of its candidates is ever taken for a move.
        return Expectations(
            self.game, self.reading_of, self.empty, (pos,), reversible=self.reversible, version=-1
        )

    def exact(self, reading: Sequence[R], differing: Sequence[int]) -> list[Candidate[R]]:
        """The candidates (moves first, then take-backs) whose reading is ``reading``."""
        if not differing:
            return []
        if len(differing) == 1:
            (cell,) = differing
            value, reading_of = reading[cell], self.reading_of_stack
            found = [c for c in self.lines(self.cell_moves(cell).alone) if reading_of(c.after[cell]) == value]
        else:
            found = [c for c in self.covering(differing) if c.shows(reading, differing)]
        return found + [c for c in self.undoing if c.shows(reading, differing)]

    def _reply(self, number: int) -> Candidate[R]:
        """The candidate of line ``number`` while the AI's move waits: that move, or it and a reply."""
        if number == PENDING:
            return self.pending_candidate
        made = self._made.get(number)
        if made is None:
            move = self._last[number]
            after = self.game.play(self._after_pending, move)
            made = self._made[number] = self._make(Route.MOVES, (self.pending, move), 0, after)
        return made

    def _make(self, route: Route, moves: tuple[Any, ...], back: int, pos: Any) -> Candidate[R]:
        cells = self.game.cells(pos)
        after = {
            i: stack
            for i, (name, old) in enumerate(self.committed.named)
            if (stack := tuple(cells[name])) != old
        }
        return Candidate(route, moves, back, after, self.committed, self.basis)

    def differing(self, reading: Sequence[R]) -> list[int]:
        """The cells where ``reading`` differs from the committed position's reading."""
        return [i for i, (a, b) in enumerate(zip(self.reading, reading, strict=True)) if a != b]
