"""Which move does this reading show?  The tracker's verdict on one board reading.

The tracker compares a reading (one value per cell, in geometry order) and the
set of cells touched since the last commit with the candidates of
``Expectations``:

- a candidate whose reading matches, and whose invisible changes were touched,
  is a match; the one that explains most of the touched cells wins, a tie is
  ambiguous (the player is asked);
- a match that a longer turn could still grow into (one Flip Four piece of two,
  a Desdemona shot where a capture could follow) waits for the confirm button;
- a reading on the way to some candidates (pieces lifted, part of a turn made)
  is progress: the LEDs show where a lifted piece may go and what is left;
- anything else is a mistake, and the tracker says how to put the board back,
  one step at a time, pairing missing and extra objects by distance.

It decides nothing about time; the session waits for readings to settle.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from host.tracking.candidates import Candidate, Expectations

R = TypeVar("R", bound=Hashable)


@dataclass(frozen=True)
class Step:
    """One instruction for the player: from ``source`` and/or onto ``target`` (cell indices)."""

    action: str  # move, put, remove, turn (the same object, other side up) or replace
    source: int | None
    target: int | None


@dataclass(frozen=True)
class Verdict(Generic[R]):
    """What the reading shows.  ``kind`` is one of KINDS; the other fields belong to some kinds."""

    kind: str
    match: Candidate[R] | None = None
    choices: tuple[Candidate[R], ...] = ()
    lifted: dict[int, frozenset[int]] = field(default_factory=dict)
    todo: tuple[Step, ...] = ()
    steps: tuple[Step, ...] = ()


IN_SYNC = "in_sync"  # the board shows the committed position
MATCH = "match"  # one candidate, complete: commit it
CONFIRM = "confirm"  # one candidate that a longer turn could grow into: commit on confirm
AMBIGUOUS = "ambiguous"  # several candidates the sensors cannot tell apart: ask
PROGRESS = "progress"  # on the way to some candidates
MISMATCH = "mismatch"  # no candidate explains the board: guide it back
KINDS = (IN_SYNC, MATCH, CONFIRM, AMBIGUOUS, PROGRESS, MISMATCH)


class Tracker(Generic[R]):
    """Verdicts for readings against one set of expectations."""

    def __init__(self, expectations: Expectations[R]) -> None:
        self.expect = expectations
        self.geometry = expectations.game.geometry

    def observe(self, reading: tuple[R, ...], touched: Iterable[int] = ()) -> Verdict[R]:
        touched_set = frozenset(touched)
        if reading == self.expect.reading and not touched_set:
            return Verdict(IN_SYNC)  # nothing happened: no need to look at the candidates
        differing = self.expect.differing(reading)
        matches = [c for c in self.expect.exact(reading) if c.changed and c.must_touch <= touched_set]
        if matches:
            return self._choose(matches, touched_set)
        if not differing:
            return Verdict(IN_SYNC)
        consistent = self._consistent(reading, differing)
        if consistent:
            return self._progress(reading, differing, consistent, touched_set)
        return Verdict(MISMATCH, steps=tuple(self.guidance(reading)))

    # --- matches -----------------------------------------------------------------------
    def _choose(self, matches: list[Candidate[R]], touched: frozenset[int]) -> Verdict[R]:
        best = max(len(c.changed & touched) for c in matches)
        top = [c for c in matches if len(c.changed & touched) == best]
        if len(top) > 1:
            return Verdict(AMBIGUOUS, choices=tuple(top))
        only = top[0]
        return Verdict(CONFIRM if self.growable(only) else MATCH, match=only)

    def growable(self, candidate: Candidate[R]) -> bool:
        """Whether a turn that keeps everything this one did and changes more could still follow."""
        if candidate.back:
            return False
        prefix, done = candidate.moves[:-1], candidate.changed
        return any(
            other.changed > done
            and len(other.moves) == len(candidate.moves)
            and other.moves[:-1] == prefix
            and all(other.reading[i] == candidate.reading[i] for i in done)
            for other in self.expect.candidates
        )

    # --- progress ----------------------------------------------------------------------
    def _consistent(self, reading: tuple[R, ...], differing: list[int]) -> list[Candidate[R]]:
        """Candidates that every differing cell is on the way to (changed there, done or lifted)."""
        empty = self.expect.empty
        return [
            c
            for c in self.expect.candidates
            if all(i in c.changed and (reading[i] == c.reading[i] or reading[i] == empty) for i in differing)
        ]

    def _progress(
        self,
        reading: tuple[R, ...],
        differing: list[int],
        consistent: list[Candidate[R]],
        touched: frozenset[int],
    ) -> Verdict[R]:
        expect = self.expect
        lifted: dict[int, frozenset[int]] = {}
        for cell in differing:
            if reading[cell] != expect.empty or not expect.stacks[cell]:
                continue
            top = expect.stacks[cell][-1]
            lifted[cell] = frozenset(
                j
                for c in consistent
                if cell in c.changed
                for j in c.changed
                if j != cell and top in c.stacks[j] and top not in expect.stacks[j]
            )
        todo: tuple[Step, ...] = ()
        if len(consistent) == 1:
            todo = tuple(self.remaining(consistent[0], reading, touched))
        return Verdict(PROGRESS, choices=tuple(consistent), lifted=lifted, todo=todo)

    def remaining(self, c: Candidate[R], reading: tuple[R, ...], touched: frozenset[int]) -> list[Step]:
        """What is left to do on the board for candidate ``c``.

        A change the sensors cannot see (a tile without a magnet, a stone turned
        under a reed switch) counts as done only once its cell was touched, so
        the LEDs keep asking for it until then.
        """
        empty = self.expect.empty
        steps = []
        for i in sorted(c.changed):
            visible = c.reading[i] != self.expect.reading[i]
            if reading[i] == c.reading[i] and (visible or i in touched):
                continue  # done, as far as the sensors can tell
            if c.reading[i] == empty and not c.stacks[i]:
                steps.append(Step("remove", i, None))
            elif reading[i] == empty:
                steps.append(Step("put", None, i))
            else:
                steps.append(Step(self._change(i, c.stacks[i]), i, i))
        return self._carried(steps, c)

    def _carried(self, steps: list[Step], c: Candidate[R]) -> list[Step]:
        """A remove and a put of the same object are one move: lift it here, put it there."""
        before = self.expect.stacks
        out = list(steps)
        for removal in [s for s in steps if s.action == "remove" and s.source is not None]:
            assert removal.source is not None
            thing = before[removal.source][-1] if before[removal.source] else None
            puts = [
                s for s in out
                if s.action == "put" and s.target is not None and c.stacks[s.target][-1:] == (thing,)
            ]  # fmt: skip
            if thing is None or not puts:
                continue
            target = min(puts, key=lambda s: self.geometry.distance(removal.source or 0, s.target or 0))
            out.remove(removal)
            out[out.index(target)] = Step("move", removal.source, target.target)
        return out

    # --- mistakes -----------------------------------------------------------------------
    def guidance(self, reading: tuple[R, ...]) -> list[Step]:
        """How to get from ``reading`` back to the committed position, nearest pairs first."""
        expected, empty = self.expect.reading, self.expect.empty
        pairs = list(enumerate(zip(expected, reading, strict=True)))
        missing = [i for i, (e, r) in pairs if r == empty != e]
        extra = [i for i, (e, r) in pairs if e == empty != r]
        wrong = [i for i, (e, r) in pairs if empty not in (e, r) and e != r]
        steps: list[Step] = []
        while missing and extra:
            _, source, target = min((self.geometry.distance(x, m), x, m) for x in extra for m in missing)
            steps.append(Step("move", source, target))
            extra.remove(source)
            missing.remove(target)
        steps.extend(Step("put", None, m) for m in missing)
        steps.extend(Step("remove", x, None) for x in extra)
        steps.extend(Step("turn", w, w) for w in wrong)
        return steps

    def _change(self, cell: int, stack: tuple[object, ...]) -> str:
        """What a cell that keeps something needs: an object put on top ('put'), the top taken off
        ('remove'), the same object showing its other side ('turn'), or another object ('replace')."""
        old = self.expect.stacks[cell]
        if len(stack) > len(old) and stack[: len(old)] == old:
            return "put"
        if len(stack) < len(old) and old[: len(stack)] == stack:
            return "remove"
        same_kind = bool(old and stack) and getattr(old[-1], "kind", None) == getattr(stack[-1], "kind", None)
        return "turn" if same_kind else "replace"
