"""Which move does this reading show?  The tracker's verdict on one board reading.

The tracker compares a reading (one value per cell, in geometry order), with
the evidence of where hands worked and when, against the candidates of
``Expectations``:

- a candidate whose reading matches, and whose invisible changes have evidence
  that fits the order of the move's steps, is a match; the one that explains
  most of the touched cells wins, a tie is ambiguous (the player is asked);
- a match that a longer turn could still grow into (one Flip Four piece of two,
  a Desdemona shot where a capture could follow on a reed board) waits for the
  confirm button;
- a reading on the way to some legal moves (pieces lifted, part of a turn made)
  is progress: the LEDs show where a lifted piece may go and what is left;
  take-backs and new games are recognised only when complete, never as progress;
- anything else is a mistake, and the tracker says how to put the board back,
  object by object, one step at a time.

It decides nothing about time; the session waits for readings to settle.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Generic, TypeVar

from engines.physical import Thing
from host.tracking.candidates import Candidate, Expectations, Lines, Route
from host.tracking.evidence import MIN_TOUCH_MS, SURE_LANDING_MS, SURE_TOUCH_MS, Evidence
from host.tracking.plan import Do, Step, minus, plan

R = TypeVar("R", bound=Hashable)
MANY = 8  # more moves than this on the way: their common steps are not worth working out


class Proof(Enum):
    """How sure the evidence is that hands made a candidate whose reading the board shows."""

    NONE = "none"  # a change the sensors cannot see has no touch (or none in an order the move allows)
    UNSURE = "unsure"  # only brief touches show it, or a cell the move leaves alone stood changed: ask
    SURE = "sure"


class Seen(Enum):
    """What a reading shows."""

    IN_SYNC = "in_sync"  # the board shows the committed position
    MATCH = "match"  # one candidate, complete: commit it
    CONFIRM = "confirm"  # one candidate that a longer turn could grow into: commit on confirm
    AMBIGUOUS = "ambiguous"  # several candidates the sensors cannot tell apart: ask
    PROGRESS = "progress"  # on the way to some legal moves
    MISMATCH = "mismatch"  # no candidate explains the board: guide it back


@dataclass(frozen=True)
class Verdict(Generic[R]):
    """What the reading shows, with what each kind needs.

    ``lifted`` maps each cell whose objects are in a hand to the cells a legal
    move puts them on; ``next`` are the cells where a legal move consistent with
    the board puts something not there yet; ``todo`` what is left of the one
    move the board is on the way to; ``steps`` how to put a mistake right.
    """

    seen: Seen
    match: Candidate[R] | None = None
    choices: tuple[Candidate[R], ...] = ()
    lifted: Mapping[int, frozenset[int]] = field(default_factory=dict)
    next: frozenset[int] = frozenset()
    todo: tuple[Step[int], ...] = ()
    steps: tuple[Step[int], ...] = ()


class Tracker(Generic[R]):
    """Verdicts for readings against one set of expectations."""

    def __init__(self, expectations: Expectations[R], settled_ms: int = 250) -> None:
        self.expect = expectations
        self.geometry = expectations.game.geometry
        self.settled_ms = settled_ms  # how long a reading stands before the session acts on it
        self._mistakables: dict[int, bool] = {}

    def observe(self, reading: Sequence[R], evidence: Evidence, now: int) -> Verdict[R]:
        differing = self.expect.differing(reading)
        if not differing:
            return Verdict(Seen.IN_SYNC)
        exact = [(c, self.proof(c, evidence, now)) for c in self.expect.exact(reading, differing)]
        if any(c.route is not Route.MOVES for c, _ in exact) and self._consistent(reading, differing):
            # A take-back the board shows that is also a move under way (a capture with the captured
            # knight off and the capturer in the air, the AI's Go capture with the player's stone taken
            # off first) is that move: hands at work on it, not undoing turns (the Take back button does).
            exact = [(c, proof) for c, proof in exact if c.route is Route.MOVES]
        sure = [c for c, proof in exact if proof is Proof.SURE]
        if sure:
            return self._choose(sure, evidence, now)
        unsure = [c for c, proof in exact if proof is Proof.UNSURE]
        if unsure:
            return self._choose(unsure, evidence, now, sure=False)
        consistent = self._consistent(reading, differing)
        if consistent:
            return self._progress(reading, differing, consistent, evidence, now)
        turns = self._turns_to_a_move(reading, differing, evidence, now)
        return Verdict(Seen.MISMATCH, steps=turns or self.guidance(reading))

    # --- matches ---------------------------------------------------------------------------
    def proof(self, c: Candidate[R], evidence: Evidence, now: int) -> Proof:
        """How sure the evidence is that hands made ``c``, whose reading the board shows.

        Every change the sensors cannot see must have been touched, in an order
        the move's steps allow (a capture's landing refilled after the capturer
        was lifted); only touches longer than a knock can read make that sure.
        A cell the move does not change that stood changed for a settled time,
        and that held objects, is evidence against it: it reads as before, but
        what is on it may not be (a queen put back where a stone stood).
        """
        sure = True
        landings = {s.target: s.source for s in c.steps if s.do is Do.MOVE} if c.must_touch else {}
        turned = {s.target for s in c.steps if s.do is Do.TURN} if c.must_touch else set()
        # What hands did before the board last stood as committed proves a change the sensors cannot see
        # only if all of it was on the candidate's cells (an arrow put where its amazon stood, the amazon
        # put down later), or the change is a turn; two amazons lifted and put back prove no arrow.
        earlier = c.changed.issuperset(evidence.earlier_cells())
        for cell in c.must_touch:
            source = landings.get(cell)
            if source is None:
                ms = evidence.longest(cell, now, earlier=earlier or cell in turned)
            else:
                lifted = evidence.left(source)
                if lifted is None:  # its piece never left: it cannot have landed yet
                    return Proof.NONE
                ms = evidence.longest(cell, now, ended_after=lifted, earlier=False)
            if ms < MIN_TOUCH_MS:
                return Proof.NONE
            sure = sure and ms >= (SURE_TOUCH_MS if source is None else SURE_LANDING_MS)
        if sure and any(
            cell not in c.after and self._mistakable(cell) and evidence.stood(cell, self.settled_ms)
            for cell in evidence.touches
        ):
            sure = False
        return Proof.SURE if sure else Proof.UNSURE

    def _mistakable(self, cell: int) -> bool:
        """Whether another object a hand may put on ``cell`` in place of its top one reads as the cell does
        now (a stone where a queen stood, under a reed switch): only then can a cell that reads as before
        hold something else.  A Space Tiles piece lifted and put back on a Hall board reads unlike any
        other; a King of Rings ring is never put down on its own."""
        known = self._mistakables.get(cell)
        if known is None:
            stack = self.expect.stacks[cell]
            table, reading_of = self.expect.game.table, self.expect.reading_of
            known = self._mistakables[cell] = (
                bool(stack)
                and any(
                    thing != stack[-1]
                    and not table.kind(thing.kind).rides  # a ring moves only under its knight
                    and reading_of((*stack[:-1], thing)) == self.expect.reading[cell]
                    for thing in table.things()
                )
            )
        return known

    def _choose(
        self, matches: list[Candidate[R]], evidence: Evidence, now: int, sure: bool = True
    ) -> Verdict[R]:
        """The match that explains most of the touched cells; a tie is asked about.  One that is not
        ``sure``, or that a longer turn could grow into, waits for Confirm."""
        touched = evidence.cells(now)
        best = max(len(c.changed & touched) for c in matches)
        top = [c for c in matches if len(c.changed & touched) == best]
        if len(top) > 1:
            # Moves that read alike may differ in when their pieces could land: a queen cannot have
            # landed on a cell that read so since before it left (a stone shot first).  That only ever
            # picks among moves the board shows, never rules out the last one.
            timely = [c for c in top if not self._landed_before_it_left(c, evidence)]
            if len(timely) != 1:
                return Verdict(Seen.AMBIGUOUS, choices=tuple(top))
            top = timely
        (only,) = top
        waits = not sure or self.growable(only)
        return Verdict(Seen.CONFIRM if waits else Seen.MATCH, match=only)

    def _landed_before_it_left(self, c: Candidate[R], evidence: Evidence) -> bool:
        """Whether a piece ``c`` carries reads on its landing since clearly before it first left its cell
        (by more than a touch, so that two changes in one scan or a bouncing switch never count)."""
        for step in c.steps:
            if step.do is Do.MOVE and step.source is not None and step.target is not None:
                left, arrived = evidence.first_left(step.source), evidence.since.get(step.target)
                if left is not None and arrived is not None and arrived < left - MIN_TOUCH_MS:
                    return True
        return False

    def growable(self, candidate: Candidate[R]) -> bool:
        """Whether a longer legal turn could still grow out of this one by more hand steps.

        The other turn must keep every step of this one as the sensors see it
        (the same object carried the same way, an object put that reads the same)
        and add more: a second Flip Four piece, the stones a capture turns.  A
        King of Rings drop does not grow into a step onto the same square: that
        knight would have come from the board, not the hand.
        """
        if candidate.route is not Route.MOVES:
            return False
        mine = {self._seen_as(s) for s in candidate.steps}
        prefix = candidate.moves[:-1]
        for other in self.expect.covering(candidate.changed):
            if other.moves[:-1] != prefix or not other.changed > candidate.changed:
                continue
            if mine <= {self._seen_as(s) for s in other.steps}:
                return True
        return False

    def _seen_as(self, step: Step[int]) -> tuple[Do, int | None, int | None, Hashable]:
        return step.do, step.source, step.target, self.expect.reading_of(step.things)

    def two_moves(self, reading: Sequence[R], evidence: Evidence, now: int) -> Candidate[R] | None:
        """The one legal move and legal reply whose end ``reading`` shows exactly, if there is one.

        A move finished late (a captured Go stone taken off only after the
        opponent put their stone down) leaves the board showing two moves
        played, not a mistake.  The two together must be sure by the evidence,
        as one move is; where two pairs read alike, None: a pair is never asked
        about.  Costly for a board with many moves (a second set of
        expectations per first move), so the session asks only of a settled
        reading that no single move explains.
        """
        expect = self.expect
        if expect.pending is not None:  # its candidates are the AI's move and each reply already
            return None
        firsts = {n for cell in expect.differing(reading) for n in expect.index(cell)}
        found: list[Candidate[R]] = []
        for first in expect.lines(sorted(firsts)):
            if not all(reading[i] == r for i, r in first.reading.items()):
                continue
            then = expect.after(first)
            for reply in then.exact(reading, then.differing(reading)):
                if not _finished_late(first, reply, evidence):
                    continue
                both = expect.candidate_for((*first.moves, *reply.moves))
                if self.proof(both, evidence, now) is Proof.SURE:
                    found.append(both)
        return found[0] if len(found) == 1 else None

    # --- progress --------------------------------------------------------------------------
    def _consistent(self, reading: Sequence[R], differing: list[int]) -> Sequence[Candidate[R]]:
        """Legal moves that every differing cell is on the way to: changed there, done or lifted."""
        lifted = {i: self._lifted_from(i, reading[i]) is not None for i in differing}
        if len(differing) == 1:  # the commonest reading (a piece lifted, a first object put): sorted once
            (cell,) = differing
            moves = self.expect.cell_moves(cell)
            return Lines(
                self.expect, moves.every if lifted[cell] else moves.by_reading.get(reading[cell], ())
            )
        reading_of = self.expect.reading_of_stack
        out = []
        for c in self.expect.covering(differing):
            after = c.after
            if all(i in after and (lifted[i] or reading[i] == reading_of(after[i])) for i in differing):
                out.append(c)
        return out

    def _lifted_from(self, cell: int, value: R) -> tuple[Thing, ...] | None:
        """The objects in a hand if ``value`` is what ``cell`` reads with its top objects lifted."""
        return self._missing(self.expect.stacks[cell], value)

    def _missing(self, stack: tuple[Thing, ...], value: R) -> tuple[Thing, ...] | None:
        """The top objects of ``stack`` that are gone if it reads ``value``, or None."""
        for keep in range(len(stack)):
            if self.expect.reading_of(stack[:keep]) == value:
                return stack[keep:]
        return None

    def _progress(
        self,
        reading: Sequence[R],
        differing: list[int],
        consistent: Sequence[Candidate[R]],
        evidence: Evidence,
        now: int,
    ) -> Verdict[R]:
        expect = self.expect
        reading_of, committed = expect.reading_of_stack, expect.reading
        lifted: dict[int, frozenset[int]] = {}
        for cell in differing:
            if not self._lifted_from(cell, reading[cell]):
                continue
            landings = self._landings(cell, differing, consistent)
            # Put down already where a legal move takes it, as far as the sensors can see (a knight on a
            # knight reads the same before and after: it is still in the hand until that changes).
            if any(
                reading[j] == reading_of(c.after[j]) != committed[j]
                for j in differing
                for c in landings.get(j, ())
            ):
                continue
            if landings:  # else no legal move carries it: it is taken off (captured) or turned over
                lifted[cell] = frozenset(landings)
        following: frozenset[int] = frozenset()
        if not lifted:  # where a piece may go next, when none is in a hand
            following = frozenset(
                j for c in consistent for j in c.puts if not self._shown(c, j, reading, evidence, now)
            )
        todo: tuple[Step[int], ...] = ()
        if len(consistent) == 1:
            (only,) = consistent
            todo = self.remaining(only, reading, evidence, now)
        elif not (lifted or following) and len(consistent) <= MANY:
            # Nothing to put anywhere: what every one of the moves still needs (a piece to take off).
            first, *others = (self.remaining(c, reading, evidence, now) for c in consistent)
            todo = tuple(step for step in first if all(step in left for left in others))
        choices = () if lifted else tuple(consistent)  # while a piece is in the hand, its targets say it
        return Verdict(Seen.PROGRESS, choices=choices, lifted=lifted, next=following, todo=todo)

    def _landings(
        self, origin: int, differing: list[int], consistent: Sequence[Candidate[R]]
    ) -> Mapping[int, Sequence[Candidate[R]]]:
        """Where the consistent candidates put the top object lifted from ``origin``: not where they turn a
        piece over, and nowhere if they only turn the piece on ``origin`` (a jump over it lands another
        piece like it).  With ``origin`` the only cell off the committed reading, every candidate that
        changes it is consistent, and the landing index sorted once for the cell answers."""
        expect = self.expect
        if len(differing) == 1:
            return {j: Lines(expect, ns) for j, ns in expect.cell_moves(origin).landings.items()}
        before, turned = expect.stacks, expect.turned
        top = before[origin][-1]
        out: dict[int, list[Candidate[R]]] = {}
        for c in consistent:
            after = c.after
            if turned(before[origin], after[origin]):
                continue
            for j, stack in after.items():
                if j != origin and top in stack and top not in before[j] and not turned(before[j], stack):
                    out.setdefault(j, []).append(c)
        return out

    def _shown(self, c: Candidate[R], cell: int, reading: Sequence[R], evidence: Evidence, now: int) -> bool:
        """Whether ``cell`` shows what candidate ``c`` leaves there (see ``shown``)."""
        return shown(reading, cell, c.reading[cell], self.expect.reading[cell], evidence, now)

    def remaining(
        self, c: Candidate[R], reading: Sequence[R], evidence: Evidence, now: int
    ) -> tuple[Step[int], ...]:
        """What is left to do on the board for candidate ``c``.

        A change the sensors cannot see (a tile without a magnet, a stone turned
        under a reed switch) counts as done only once a hand touched its cell, so
        the LEDs keep asking for it until then.
        """
        expect = self.expect
        return tuple(self._left(c.steps, c.reading, expect.reading, expect.stacks, reading, evidence, now))

    def next_step(
        self, c: Candidate[R], reading: Sequence[R], evidence: Evidence, now: int
    ) -> Step[int] | None:
        """The first of ``remaining`` (None when nothing is left), without working out the rest: the LEDs
        light the next step of each of up to 300 moves on the way."""
        expect = self.expect
        left = self._left(c.steps, c.reading, expect.reading, expect.stacks, reading, evidence, now)
        return next(left, None)

    def restore(
        self, away: Mapping[int, tuple[Thing, ...]], reading: Sequence[R], evidence: Evidence, now: int
    ) -> tuple[Step[int], ...]:
        """What is left of putting the board back to the committed position after Take back or New game.

        ``away`` holds the objects believed on the board (the position left
        behind) where they differ from the committed position; the steps come
        from those objects, so a stone to turn back is asked for even where the
        sensors cannot see its side.  Anything else the reading shows out of place
        is guided back as a mistake would be.
        """
        expect = self.expect
        committed = expect.reading
        target = {i: expect.stacks[i] for i in away}
        start = {i: expect.reading_of(stack) for i, stack in away.items()}
        steps = plan(away, target, expect.reversible, self.geometry.distance)
        left = _emptied_first(tuple(self._left(steps, committed, start, away, reading, evidence, now)))
        # What the sensors never feel (a tile without a magnet) is asked for, but holds nothing up.
        if all(committed[c] == start[c] == expect.empty for step in left for c in step.cells):
            left = ()
        others = [i for i in expect.differing(reading) if i not in away]
        return left + self.guidance(reading, others) if others else left

    def _left(
        self,
        steps: Sequence[Step[int]],
        wanted: Mapping[int, R] | Sequence[R],
        start: Mapping[int, R] | Sequence[R],
        objects: Mapping[int, tuple[Thing, ...]] | Sequence[tuple[Thing, ...]],
        reading: Sequence[R],
        evidence: Evidence,
        now: int,
    ) -> Iterator[Step[int]]:
        """The steps (or what is left of each) not yet done, in order: a cell is done when it reads as
        wanted and, where that reading is no change, a hand touched it.  ``objects`` are what stood on
        each cell at the start, so a carried or removed object counts as gone from its cell once the cell
        reads without it."""
        reading_of = self.expect.reading_of

        def done(cell: int) -> bool:
            return shown(reading, cell, wanted[cell], start[cell], evidence, now)

        for step in steps:
            if step.do is Do.MOVE and step.source is not None and step.target is not None:
                there = objects[step.source]
                without = reading_of(there[: len(there) - len(step.things)])
                vacated = done(step.source) or reading[step.source] == without
                if done(step.target) and vacated:
                    continue
                if done(step.target):
                    yield Step(Do.REMOVE, step.source, None, step.things)
                elif vacated:  # lifted already: it is in the hand
                    yield Step(Do.PUT, None, step.target, step.things)
                else:
                    yield step
            elif step.do is Do.REMOVE and step.source is not None:
                # Taken off once the cell reads without it (a captured knight off its rings), even where the
                # move ends with the cell reading as it did (the capturer lands there next), if the sensors
                # can tell it apart at all (a tile taken off a reed board reads as before).
                rest = reading_of(minus(objects[step.source], step.things))
                if not (done(step.source) or reading[step.source] == rest != start[step.source]):
                    yield step
            elif not all(done(cell) for cell in step.cells):  # a put or a turn: its one cell
                yield step

    # --- mistakes --------------------------------------------------------------------------
    def guidance(self, reading: Sequence[R], cells: Sequence[int] | None = None) -> tuple[Step[int], ...]:
        """How to get from ``reading`` back to the committed position, object by object, nearest first.

        Objects missing from a cell are fetched from the nearest cell whose
        reading says they went there; what stands where nothing should is taken
        off; a reversible object showing the wrong side is turned over.
        """
        expect = self.expect
        differing = expect.differing(reading) if cells is None else cells
        return self._guide(reading, differing, expect.stacks, expect.reading)

    def repair(
        self, reading: Sequence[R], evidence: Evidence, back: tuple[Step[int], ...]
    ) -> tuple[Step[int], ...]:
        """The fewest hand steps from ``reading`` to a board play can go on from: ``back`` (the steps to
        the committed position), or fewer that keep what the board already did of a legal move.

        A differing cell that a move changes and that reads as the move leaves
        it, or as its objects lifted, is on the way to that move; the other
        differing cells are put right (back to their objects, or on to the
        move's where the move changes them).  An amazon moved and its arrow
        shot where it cannot reach is put right by taking the arrow off, not by
        moving the amazon back.  Only moves that leave some differing cell as it
        reads are tried; a tie with ``back`` goes to ``back``, and between two
        moves to the one that undoes what hands did last (the arrow shot where
        it cannot go, not the amazon put down before it).  Worked out once a
        mistake stands (the session shows it settled), not for every reading.
        """
        if len(back) < 2:
            return back
        expect = self.expect
        differing = expect.differing(reading)
        lifted = {i: self._lifted_from(i, reading[i]) is not None for i in differing}
        lines: set[int] = set()
        for cell in differing:
            if not lifted[cell]:
                lines.update(expect.cell_moves(cell).by_reading.get(reading[cell], ()))
        reading_of = expect.reading_of_stack
        best, best_key = back, (len(back), 0)
        for c in expect.lines(sorted(lines)):
            after = c.after
            wrong = [
                i for i in differing if not (i in after and (lifted[i] or reading[i] == reading_of(after[i])))
            ]
            if len(wrong) >= len(back):
                continue
            # A piece on its landing while its own cell still holds it came from the box, not this move.
            wrong += [
                target
                for s in c.steps
                if s.do is Do.MOVE and (target := s.target) in lifted and target not in wrong
                if s.source not in lifted
            ]
            if len(wrong) >= len(back):
                continue
            stacks, expected = list(expect.stacks), list(expect.reading)
            for i in wrong:
                if i in after:
                    stacks[i], expected[i] = after[i], reading_of(after[i])
            steps = self._guide(reading, wrong, stacks, expected)
            key = (len(steps), -min(evidence.since.get(i, 0) for i in wrong))
            if len(steps) < len(back) and key < best_key:
                best, best_key = steps, key
        return best

    def guidance_to(
        self, c: Candidate[R], reading: Sequence[R], evidence: Evidence, now: int
    ) -> tuple[Step[int], ...]:
        """How to get from ``reading`` to candidate ``c``'s position (the AI's move after a mistake).

        What the sensors cannot see (a stone to turn on a reed board) is asked
        for as the move's own steps are, until a hand has touched it.
        """
        expect = self.expect
        stacks = list(expect.stacks)
        expected = list(expect.reading)
        for cell, stack in c.after.items():
            stacks[cell] = stack
            expected[cell] = c.reading[cell]
        differing = [i for i, wanted in enumerate(expected) if reading[i] != wanted]
        unseen = [s for s in self.remaining(c, reading, evidence, now) if not set(s.cells) & set(differing)]
        return self._guide(reading, differing, tuple(stacks), tuple(expected)) + tuple(unseen)

    def placements(self, reading: Sequence[R], evidence: Evidence, now: int, thing: Thing) -> frozenset[int]:
        """Where a legal move on the way puts ``thing`` from a hand or the box (a tile from the tray)."""
        differing = self.expect.differing(reading)
        candidates = self._consistent(reading, differing) if differing else self.expect.every()
        return frozenset(
            s.target
            for c in candidates
            for s in self.remaining(c, reading, evidence, now)
            if s.do is Do.PUT and s.target is not None and s.things[-1:] == (thing,)
        )

    def held(self, cell: int, value: R) -> tuple[Thing, ...]:
        """The objects of ``cell`` in a hand, if ``value`` is what the cell reads without them (else none)."""
        return self._lifted_from(cell, value) or ()

    def _guide(
        self,
        reading: Sequence[R],
        differing: Sequence[int],
        stacks: Sequence[tuple[Thing, ...]],
        expected: Sequence[R],
    ) -> tuple[Step[int], ...]:
        """The steps from ``reading`` to the objects ``stacks`` (read as ``expected``) on ``differing``."""
        expect = self.expect
        reading_of = expect.reading_of
        missing: dict[int, tuple[Thing, ...]] = {}
        extra: list[int] = []
        turns: list[Step[int]] = []
        swaps: list[int] = []
        rest = []
        committed = expect.stacks
        for cell in differing:
            # What still stands on the cell of what was there, as far as the reading says (a ring nobody
            # touched under a square a knight should land on): only the rest is missing, so a move is
            # asked for what it must carry and no more.
            here = committed[cell]
            wanted = stacks[cell]
            if here and reading_of(here) == reading[cell] and wanted[: len(here)] == here:
                held: tuple[Thing, ...] | None = wanted[len(here) :]
            else:
                held = self._missing(wanted, reading[cell])
            if held:
                missing[cell] = held
            else:
                rest.append(cell)

        def went_to(cell: int, things: tuple[Thing, ...]) -> bool:
            """Whether ``cell`` reads as its own objects with ``things`` put on top."""
            return reading[cell] == reading_of((*stacks[cell], *things))

        for cell in rest:
            if self._flipped(stacks[cell], reading[cell]) is not None:
                turns.append(Step(Do.TURN, cell, cell, (stacks[cell][-1],)))
            elif any(went_to(cell, things) for things in missing.values()):
                extra.append(cell)  # what is missing elsewhere was put on its objects (a piece on a tile)
            elif stacks[cell] and expected[cell] != expect.empty:
                swaps.append(cell)
            else:
                extra.append(cell)  # on an empty cell, or on objects the sensors cannot feel (a ring)
        # What stands where another object should is taken off first; then the missing objects come back,
        # each from the nearest cell whose reading says it went there, or from the hand or the box.
        steps: list[Step[int]] = [Step(Do.REMOVE, cell, None, ()) for cell in swaps]
        missing.update({cell: stacks[cell] for cell in swaps})
        distance = self.geometry.distance
        nearest_first = (
            sorted(missing, key=lambda m: min(distance(m, x) for x in extra)) if extra else missing
        )
        for cell in nearest_first:
            things = missing[cell]
            sources = [x for x in extra if went_to(x, things)]
            if sources:
                source = min(sources, key=lambda x: distance(x, cell))
                extra.remove(source)
                steps.append(Step(Do.MOVE, source, cell, things))
            else:
                steps.append(Step(Do.PUT, None, cell, things))
        steps.extend(Step(Do.REMOVE, x, None, self._identified(reading[x])) for x in extra)
        steps.extend(turns)
        return tuple(steps)

    def _identified(self, value: R) -> tuple[Thing, ...]:
        """The one object of the game that reads ``value`` alone (to name what must come off), or none."""
        reading_of = self.expect.reading_of
        alike = [t for t in self.expect.game.table.things() if reading_of((t,)) == value]
        return tuple(alike) if len(alike) == 1 else ()

    def _turns_to_a_move(
        self, reading: Sequence[R], differing: list[int], evidence: Evidence, now: int
    ) -> tuple[Step[int], ...]:
        """The turns that make ``reading`` one legal move's, if one move is nearest that way, else none.

        A stone or piece put with the wrong side up (a Hall board sees it) is
        then put right by turning it, not by taking the whole move back.  Where
        a piece and a stone read alike, the move whose piece was put down
        first after it was lifted is the one made: a hand puts down what it
        carries before it shoots.
        """
        if not self.expect.reversible:
            return ()
        reading_of = self.expect.reading_of_stack
        near: dict[int, list[tuple[Step[int], ...]]] = {}
        for c in self.expect.covering(differing):
            turns: list[Step[int]] = []
            for cell, stack in c.after.items():
                if reading[cell] == c.reading[cell]:
                    continue
                top = stack[-1] if stack else None
                if top is None or top.kind not in self.expect.reversible or top.colour is None:
                    break
                if reading_of((*stack[:-1], Thing(top.kind, 1 - top.colour))) != reading[cell]:
                    break
                turns.append(Step(Do.TURN, cell, cell, (top,)))
            else:
                if turns and self.proof(c, evidence, now) is not Proof.NONE:
                    near.setdefault(self._landed_at(c, evidence), []).append(tuple(turns))
        first = near[min(near)] if near else []
        if len(first) != 1:
            return ()
        (turns_of_one,) = first
        return turns_of_one

    def _landed_at(self, c: Candidate[R], evidence: Evidence) -> int:
        """When the last of the candidate's moved pieces was put down (0 if it moved none)."""
        moved = [s.target for s in c.steps if s.do is Do.MOVE and s.target is not None]
        arrivals = [evidence.left(cell) for cell in moved]
        return max((t for t in arrivals if t is not None), default=0)

    def _turned(self, cell: int, value: R) -> Thing | None:
        """The top object turned over, if that is what ``cell`` reads (a Hall board sees the side up)."""
        return self._flipped(self.expect.stacks[cell], value)

    def _flipped(self, stack: tuple[Thing, ...], value: R) -> Thing | None:
        """The top object of ``stack`` turned over, if that is what reads ``value``."""
        if not stack or stack[-1].kind not in self.expect.reversible or stack[-1].colour is None:
            return None

        top = stack[-1]
        assert top.colour is not None
        flipped = Thing(top.kind, 1 - top.colour)
        return flipped if self.expect.reading_of((*stack[:-1], flipped)) == value else None


def _finished_late(first: Candidate[R], reply: Candidate[R], evidence: Evidence) -> bool:
    """Whether hands made ``first`` and then ``reply`` with ``first`` finished only after the reply began:
    everything ``first`` puts down was there before anything of the reply, and a cell of ``first`` changed
    after that (a captured stone taken off late).  A first move complete before the reply began would have
    been committed, or confirmed, on its own: a board that shows two such moves is a mistake."""
    began = [evidence.first_left(cell) for cell in first.puts]
    replied = [evidence.first_left(cell) for cell in reply.changed - first.changed]
    if not began or not replied or None in began or None in replied:
        return False
    start = min(t for t in replied if t is not None)
    last = max(evidence.since.get(cell, 0) for cell in first.changed)
    return max(t for t in began if t is not None) < start < last


def shown(reading: Sequence[R], cell: int, wanted: R, start: R, evidence: Evidence, now: int) -> bool:
    """Whether ``cell`` is done: it reads as ``wanted`` and, where that reading is no change from
    ``start``, a hand touched it (the sensors cannot tell it was changed otherwise)."""
    return reading[cell] == wanted and (wanted != start or evidence.touched(cell, now))


def _emptied_first(steps: tuple[Step[int], ...]) -> tuple[Step[int], ...]:
    """The steps but those that put something on a cell that still holds objects to leave it: those
    come once it is emptied, so no green light asks for a cell that is not free yet.  All of them if that
    leaves none (objects that must trade places)."""
    emptying = {s.source for s in steps if s.do in (Do.MOVE, Do.REMOVE)}
    ready = tuple(s for s in steps if not (s.do in (Do.MOVE, Do.PUT) and s.target in emptying))
    return ready or steps
