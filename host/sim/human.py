"""How people move pieces: a move's physical actions as a player's hands would make them.

Written from watching hands at a board, not from the tracker (nothing here asks the
tracker what it would accept): a player does a move's parts in whatever order comes to
hand (the arrow before the amazon, the captured stone off before or after the capturer
lands), hesitates (lifts two pieces and puts both back, or one piece where it was),
knocks a neighbour off its cell and back or nudges it to the next cell and back (a hand's
knock lasts 30-150 ms), slides a piece across the cells on its way, puts it on a wrong
cell and corrects it at once, handles the objects the sensors cannot see (a knight's
rings) after the rest or forgets them, and sometimes makes an illegal move, which the
board then guides them to put right (benchmarks/corpus.py follows that guidance).

Every plan is a list of script actions (host/sim/script.py), so a generated move can be
written out as a ``magboard play --script`` file.  ``step`` lines give each action its
own time: a person takes 80-300 ms per lift or place.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Generic

from engines.game import Game, M, P
from engines.physical import Thing
from engines.table import Role
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import BoardSpec
from host.sim.diff import hand_actions
from host.sim.script import Action

Stack = tuple[Thing, ...]
Cells = Mapping[str, Stack]

KNOCK_MS = (30, 150)  # a neighbour knocked off its cell by a hand falls back this fast (the brief's range)
STEP_MS = (80, 300)  # one lift or place of an unhurried hand
SLIDE_STEP_MS = (60, 300)  # a slide rests half this on each cell it crosses (at most 150 ms)
WRONG_MS = (80, 220)  # a piece put on the wrong cell is seen and moved on within this
PAUSE_MS = (300, 1200)  # a pause of thought with the hands off the board (longer than the board's settle)
HOLD_MS = (150, 900)  # pieces held in the air while hesitating
MISTAKE_REST_MS = (1200, 2000)  # an illegal move stands until the player looks at the board


@dataclass(frozen=True)
class Habits:
    """How often each kind of hand happens in a move (independent chances)."""

    order: float = 0.5  # the move's parts in a random order instead of lifts first
    hesitate: float = 0.05  # two own pieces lifted and both put back, then the move
    put_back: float = 0.05  # the moving piece lifted, put back where it was, then the move
    two_lifted: float = 0.05  # another piece lifted with the moving one, and put back
    knock: float = 0.08  # a neighbour knocked off its cell and back while the move is made
    nudge: float = 0.04  # a neighbour nudged to the next cell and back
    slide: float = 0.15  # a piece slid across the cells on its way
    wrong_cell: float = 0.05  # a piece put on a cell next to its target, corrected at once
    invisible_late: float = 0.3  # objects the sensors cannot see handled after the rest
    invisible_left: float = 0.05  # objects the sensors cannot see forgotten (put right at a later move)
    mistake: float = 0.03  # an illegal move first, put right by following the board
    late_capture: float = 0.2  # captured objects left on the board until after the next player's move

    def only(self, kind: str) -> Habits:
        """These habits with every kind off but ``kind`` (always), for tests of one kind."""
        values = {f.name: 0.0 for f in fields(self)}
        values[kind] = 1.0
        return Habits(**values)


KINDS = tuple(f.name for f in fields(Habits))


@dataclass
class MovePlan:
    """A move as hands make it: ``mistake`` first (then the board's guidance), then ``move``."""

    kinds: list[str] = field(default_factory=list)
    mistake: list[Action] = field(default_factory=list)
    move: list[Action] = field(default_factory=list)


def act(verb: str, *cells: str, thing: Thing | None = None, ms: int = 0, button: str = "") -> Action:
    return Action(0, verb, tuple(cells), thing, ms, button)


class Hand(Generic[P, M]):
    """One simulated player's hands on one board build."""

    def __init__(self, game: Game[P, M], board: BoardSpec, habits: Habits, rng: random.Random) -> None:
        self.game = game
        self.board = board
        self.habits = habits
        self.rng = rng
        self.names = game.geometry.names
        self.invisible = frozenset(k for k, spec in board.objects.items() if spec.magnet == "none")
        self.owned = game.table.kinds(Role.OWNED)
        self.model = SensorModel(board)

    # --- the plan of one move ----------------------------------------------------------------
    def plan(
        self, now: Cells, pos: P, move: M, mistake: Sequence[Action] = (), earlier: Sequence[Cells] = ()
    ) -> MovePlan:
        """The actions that make ``move`` from the board ``now`` (which may differ from ``pos`` in objects
        the sensors cannot see), with this player's habits; ``mistake`` the illegal move to make first.

        ``earlier`` are the game's positions before: pieces lifted in hesitation never leave the board
        reading as one of them, which to the sensors is the player taking moves back."""
        game, rng, h = self.game, self.rng, self.habits
        target = game.cells(game.play(pos, move))
        out = MovePlan()
        if mistake:
            out.kinds.append("mistake")
            out.mistake = list(mistake)
        base = hand_actions(game, now, target)
        changed = {n for n in self.names if tuple(now[n]) != tuple(target[n])}
        if not base:  # a move that changes no cell (a pass): the Pass button
            out.move = [act("press", button="pass")]
            return out
        actions = base
        if rng.random() < h.order:
            out.kinds.append("order")
            actions = self._shuffled(actions, now)
        if self.invisible and rng.random() < h.invisible_late:
            later = self._invisible_late(actions, now, target)
            if later is not None:
                out.kinds.append("invisible_late")
                actions = later
        if self.invisible and rng.random() < h.invisible_left:
            left = self._invisible_left(actions, now)
            if left is not None:
                out.kinds.append("invisible_left")
                actions = left
        steps = self._timed(actions)
        end = carried_out(now, steps)
        changes: tuple[tuple[str, Callable[[], list[Action] | None]], ...] = (
            ("slide", lambda: self._slide(steps, now, changed)),
            ("wrong_cell", lambda: self._wrong_cell(steps, now, changed)),
            ("two_lifted", lambda: self._two_lifted(steps, now, changed)),
            ("knock", lambda: self._knock(steps, now, nudge=False)),
            ("nudge", lambda: self._knock(steps, now, nudge=True)),
        )
        for kind, change in changes:
            if rng.random() < getattr(h, kind) and (changed_steps := change()) is not None:
                if _ends(now, changed_steps) != end:  # a hand cannot do it so: a bug of this module
                    raise AssertionError(f"{kind} of {list(map(str, steps))} does not end as the move")
                out.kinds.append(kind)
                steps = changed_steps
        before: list[Action] = []
        looks_back = {self.read(e) for e in earlier}
        hes = None
        if rng.random() < h.hesitate:
            movable = {self.names[c] for m in game.legal_moves(pos) for c in game.changed_cells(pos, m)}
            hes = self._hesitate(now, game.to_move(pos), {n for n in movable if now[n]}, looks_back)
        if hes is not None:
            out.kinds.append("hesitate")
            before += hes
        if rng.random() < h.put_back and (back := self._put_back(steps, now, looks_back)) is not None:
            out.kinds.append("put_back")
            before += back
        out.move = before + steps
        return out

    def defer_captures(self, steps: list[Action], now: Cells) -> tuple[list[Action], set[str]]:
        """``steps`` without taking off what the move captures (objects with a magnet it removes from cells
        it does nothing else to), and those cells: a player who leaves captured stones on the board."""
        worked = Counter(a.cells[0] for a in steps if a.cells)
        owed = set()
        kept: list[Action] = []
        for action in steps:
            cell = action.cells[0] if action.cells else ""
            if action.verb == "remove" and worked[cell] == 1 and self._visible(now[cell][-1]):
                owed.add(cell)
                if kept and kept[-1].verb == "step":
                    kept.pop()
                continue
            kept.append(action)
        return kept, owed

    @staticmethod
    def at_last(steps: list[Action], cells: set[str]) -> list[Action]:
        """``steps`` with every action on ``cells`` (and the step time before it) done last, after a pause:
        the captures owed from the move before."""
        rest: list[Action] = []
        late: list[Action] = []
        for action in steps:
            if action.cells and action.cells[0] in cells:
                late += [rest.pop()] if rest and rest[-1].verb == "step" else []
                late.append(action)
            else:
                rest.append(action)
        return [*rest, act("wait", ms=PAUSE_MS[0]), *late] if late else steps

    def illegal(self, now: Cells, pos: P, reading_of: object) -> list[Action]:
        """An illegal move, as a player makes one: one of the mover's pieces put on an empty cell where no
        legal move of ``pos`` puts it (empty if there is none); ``reading_of`` reads a stack."""
        game, rng = self.game, self.rng
        side = game.to_move(pos)
        read = reading_of  # a SensorModel.reading_of
        assert callable(read)
        ends = set()
        for move in game.legal_moves(pos):
            after = game.cells(game.play(pos, move))
            ends.add(tuple(read(tuple(after[n])) for n in self.names))
        start = tuple(read(tuple(now[n])) for n in self.names)
        sources = [n for n in self.names if now[n] and self._own(now[n][-1], side)]
        empties = [n for n in self.names if not now[n]]
        rng.shuffle(sources)
        for source in sources[:6]:
            for target in rng.sample(empties, min(8, len(empties))):
                stacks = {n: tuple(now[n]) for n in self.names}
                stacks[source], stacks[target] = stacks[source][:-1], (now[source][-1],)
                reading = tuple(read(stacks[n]) for n in self.names)
                if reading not in ends and reading != start:
                    return self._timed([act("lift", source), act("place", target, thing=now[source][-1])])
        return []

    # --- kinds -------------------------------------------------------------------------------
    def _shuffled(self, actions: list[Action], now: Cells) -> list[Action]:
        """The same actions in a random order a hand can do them in: each cell's own in order (a hand
        reaches only the top of a stack), and an object placed only once lifted if it is carried."""
        queues: dict[str, list[Action]] = {}
        for action in actions:
            queues.setdefault(action.cells[0], []).append(action)
        lifted: Counter[Thing] = Counter()
        carried = Counter(t for t in self._things(actions, now) if t is not None)
        out: list[Action] = []
        while any(queues.values()):
            ready = []
            for cell, queue in queues.items():
                if not queue:
                    continue
                head = queue[0]
                thing = head.thing
                if head.verb == "place" and thing is not None and carried[thing] > lifted[thing]:
                    continue  # its object is still on another cell
                ready.append(cell)
            if not ready:  # only places of carried objects not yet lifted: cannot happen with whole moves
                return actions
            cell = self.rng.choice(ready)
            action = queues[cell].pop(0)
            if action.verb == "lift":
                thing = self._top_after(out, now, cell)
                lifted[thing] += 1
            out.append(action)
        return out

    def _things(self, actions: Sequence[Action], now: Cells) -> list[Thing | None]:
        """The object each lift takes (None for other actions), by replaying them on ``now``."""
        stacks = {n: list(now[n]) for n in self.names}
        out: list[Thing | None] = []
        for action in actions:
            cell = action.cells[0] if action.cells else None
            if action.verb == "lift" and cell is not None:
                out.append(stacks[cell].pop())
            elif action.verb == "remove" and cell is not None:
                stacks[cell].pop()
                out.append(None)
            elif action.verb == "place" and cell is not None and action.thing is not None:
                stacks[cell].append(action.thing)
                out.append(None)
            else:
                out.append(None)
        return out

    def _top_after(self, done: Sequence[Action], now: Cells, cell: str) -> Thing:
        stacks = carried_out(now, done)
        return stacks[cell][-1]

    def _timed(self, actions: Sequence[Action]) -> list[Action]:
        """Each action with its own time: a ``step`` line before it."""
        out: list[Action] = []
        for action in actions:
            out += [act("step", ms=self.rng.randint(*STEP_MS)), action]
        return out

    def _own(self, thing: Thing, side: int) -> bool:
        return thing.kind in self.owned and thing.colour == side and self._visible(thing)

    def _visible(self, thing: Thing | None) -> bool:
        return thing is not None and thing.kind not in self.invisible

    def _invisible_late(self, actions: list[Action], now: Cells, target: Cells) -> list[Action] | None:
        """The actions on objects the sensors cannot see moved after the rest, a pause later, where the
        stacks still come out right (rings put back on a knight already landed)."""
        things = self._things(actions, now)
        hidden = [
            i for i, (a, t) in enumerate(zip(actions, things, strict=True))
            if not self._visible(t if a.verb == "lift" else a.thing) and a.verb in ("lift", "place", "remove")
        ]  # fmt: skip
        if a_remove := [i for i in hidden if actions[i].verb == "remove"]:
            hidden = [i for i in hidden if i not in a_remove or self._removed_hidden(actions, now, i)]
        if not hidden or len(hidden) == len(actions):
            return None
        moved = [actions[i] for i in hidden]
        kept = [a for i, a in enumerate(actions) if i not in set(hidden)]
        candidate = [*kept, act("wait", ms=self.rng.randint(*PAUSE_MS)), *moved]
        try:
            final = carried_out(now, candidate)
        except (IndexError, ValueError):
            return None
        if not all(self.game.table.same_stack(tuple(final[n]), tuple(target[n])) for n in self.names):
            return None
        return candidate

    def _removed_hidden(self, actions: list[Action], now: Cells, index: int) -> bool:
        stacks = carried_out(now, actions[:index])
        cell = actions[index].cells[0]
        return not self._visible(stacks[cell][-1])

    def _invisible_left(self, actions: list[Action], now: Cells) -> list[Action] | None:
        """The last action, if it only puts (or takes off) an object the sensors cannot see, forgotten."""
        last = actions[-1]
        if last.verb == "place" and not self._visible(last.thing):
            return actions[:-1]
        if last.verb == "remove" and not self._visible(carried_out(now, actions[:-1])[last.cells[0]][-1]):
            return actions[:-1]
        return None

    def _carries(self, steps: list[Action], now: Cells) -> list[tuple[int, int]]:
        """(lift index, place index) of each object carried from one cell to another and put on top
        there, with no other action on either cell between."""
        things = self._things(steps, now)
        out = []
        for i, (action, thing) in enumerate(zip(steps, things, strict=True)):
            if action.verb != "lift" or thing is None:
                continue
            for j in range(i + 1, len(steps)):
                other = steps[j]
                if other.cells and other.cells[0] in (action.cells[0],) and other.verb != "step":
                    break
                if other.verb == "place" and other.thing == thing and other.cells[0] != action.cells[0]:
                    between = steps[i + 1 : j]
                    if not any(b.cells and b.cells[0] == other.cells[0] for b in between):
                        out.append((i, j))
                    break
        return out

    def _free(self, now: Cells, changed: set[str]) -> set[str]:
        return {n for n in self.names if not now[n] and n not in changed}

    def _path(self, source: str, target: str, free: set[str]) -> list[str] | None:
        """The cells a piece slid from ``source`` to ``target`` crosses, each nearer the target; None if
        the way is blocked (a hand lifts a piece over others, it does not slide it through them)."""
        geo = self.game.geometry
        here, goal = geo.cell(source), geo.cell(target)
        path: list[str] = []
        while True:
            nearer = [c for c in geo.neighbours(here) if geo.distance(c, goal) < geo.distance(here, goal)]
            if not nearer:
                return None
            if goal in nearer:
                return path
            options = [c for c in nearer if self.names[c] in free]
            if not options:
                return None
            here = self.rng.choice(options)
            path.append(self.names[here])

    def _slide(self, steps: list[Action], now: Cells, changed: set[str]) -> list[Action] | None:
        free = self._free(now, changed)
        for i, j in self.rng.sample(self._carries(steps, now), len(self._carries(steps, now))):
            source, target = steps[i].cells[0], steps[j].cells[0]
            path = self._path(source, target, free)
            if not path:
                continue
            slide = act("slide", source, *path, target)
            rest = act("step", ms=self.rng.randint(*SLIDE_STEP_MS))
            return [*steps[:i], rest, slide, *steps[i + 1 : j], *steps[j + 1 :]]
        return None

    def _wrong_cell(self, steps: list[Action], now: Cells, changed: set[str]) -> list[Action] | None:
        free = self._free(now, changed)
        geo = self.game.geometry
        places = [j for j, a in enumerate(steps) if a.verb == "place" and self._visible(a.thing)]
        self.rng.shuffle(places)
        for j in places:
            target = steps[j].cells[0]
            near = [self.names[c] for c in geo.neighbours(geo.cell(target)) if self.names[c] in free]
            if not near:
                continue
            wrong = self.rng.choice(near)
            # A step line is the time of each action after it: the piece rests WRONG_MS on the wrong cell.
            start = j - 1 if j and steps[j - 1].verb == "step" else j
            fix = [
                act("step", ms=self.rng.randint(*WRONG_MS)),
                act("place", wrong, thing=steps[j].thing),
                act("step", ms=self.rng.randint(*STEP_MS)),
                act("lift", wrong),
                steps[j],
            ]
            return [*steps[:start], *fix, *steps[j + 1 :]]
        return None

    def _two_lifted(self, steps: list[Action], now: Cells, changed: set[str]) -> list[Action] | None:
        """Another own piece lifted along with the moving one, and put back where it was."""
        carries = self._carries(steps, now)
        if not carries:
            return None
        i, _ = carries[0]
        stacks = carried_out(now, steps[: i + 1])
        lifted = self._things(steps, now)[i]
        owner = None if lifted is None else lifted.colour
        if owner is None:
            return None
        others = [n for n in self.names if n not in changed and stacks[n] and self._own(stacks[n][-1], owner)]
        if not others:
            return None
        other = self.rng.choice(others)
        extra = [
            act("step", ms=self.rng.randint(*HOLD_MS)),
            act("lift", other),
            act("step", ms=self.rng.randint(*STEP_MS)),
            act("place", other, thing=stacks[other][-1]),
        ]
        return [*steps[: i + 1], *extra, *steps[i + 1 :]]

    def _knock(self, steps: list[Action], now: Cells, nudge: bool) -> list[Action] | None:
        """A neighbour of the cells the move works on knocked off and back (or nudged to the next cell and
        back) at a moment while the move is under way."""
        # After the first action (or before it, for a one-action move), up to as the hand leaves the board.
        acts = [i for i, a in enumerate(steps) if a.verb not in ("step", "wait")]
        moments = [*(acts[1:] or acts), len(steps)]
        at = self.rng.choice(moments)
        stacks = carried_out(now, steps[:at])
        geo = self.game.geometry
        worked = {c for a in steps for c in a.cells}
        near = {self.names[c] for w in worked for c in geo.neighbours(geo.cell(w))}
        cells = sorted(n for n in near | worked if stacks[n] and self._visible(stacks[n][-1]))
        if not cells:
            return None
        cell = self.rng.choice(cells)
        thing = stacks[cell][-1]
        ms = self.rng.randint(*KNOCK_MS)
        if not nudge:
            bump = [act("step", ms=0), act("lift", cell), act("wait", ms=ms), act("place", cell, thing=thing)]
        else:
            empty = [self.names[c] for c in geo.neighbours(geo.cell(cell)) if not stacks[self.names[c]]]
            if not empty:
                return None
            to = self.rng.choice(empty)
            bump = [
                act("step", ms=0), act("lift", cell), act("place", to, thing=thing), act("wait", ms=ms),
                act("lift", to), act("place", cell, thing=thing),
            ]  # fmt: skip
        step = next((a for a in reversed(steps[:at]) if a.verb == "step"), act("step", ms=100))
        return [*steps[:at], *bump, step, *steps[at:]]

    def read(self, cells: Cells) -> tuple[Reading, ...]:
        return tuple(self.model.reading_of(tuple(cells[n])) for n in self.names)

    def _lifted_reads_back(
        self, now: Cells, cells: Sequence[str], looks_back: set[tuple[Reading, ...]]
    ) -> bool:
        """Whether the board with the top objects of ``cells`` lifted reads as an earlier position."""
        stacks = {n: tuple(s) for n, s in now.items()}
        for cell in cells:
            stacks[cell] = stacks[cell][:-1]
        return self.read(stacks) in looks_back

    def _hesitate(
        self, now: Cells, side: int, movable: set[str], looks_back: set[tuple[Reading, ...]]
    ) -> list[Action] | None:
        """Two of the mover's pieces that a legal move could move, lifted together and put back."""
        own = [n for n in sorted(movable) if self._own(now[n][-1], side)]
        own = [n for n in own if not self._lifted_reads_back(now, (n,), looks_back)]
        pairs = [
            (a, b) for a in own for b in own if a < b and not self._lifted_reads_back(now, (a, b), looks_back)
        ]
        if not pairs:
            return None
        first, second = self.rng.choice(pairs)
        if self.rng.random() < 0.5:
            first, second = second, first
        return [
            act("step", ms=self.rng.randint(*STEP_MS)), act("lift", first), act("lift", second),
            act("wait", ms=self.rng.randint(*HOLD_MS)),
            act("place", second, thing=now[second][-1]), act("place", first, thing=now[first][-1]),
            act("wait", ms=self.rng.randint(*PAUSE_MS)),
        ]  # fmt: skip

    def _put_back(
        self, steps: list[Action], now: Cells, looks_back: set[tuple[Reading, ...]]
    ) -> list[Action] | None:
        lifts = [a.cells[0] for a in steps if a.verb in ("lift", "slide") and now[a.cells[0]]]
        lifts = [cell for cell in lifts if not self._lifted_reads_back(now, (cell,), looks_back)]
        if not lifts:
            return None
        cell = lifts[0]  # before the move starts: the piece it lifts first, put back where it stands
        return [
            act("step", ms=self.rng.randint(*STEP_MS)), act("lift", cell),
            act("wait", ms=self.rng.randint(*HOLD_MS)), act("place", cell, thing=now[cell][-1]),
            act("wait", ms=self.rng.randint(*PAUSE_MS)),
        ]  # fmt: skip


def carried_out(now: Cells, actions: Sequence[Action]) -> dict[str, list[Thing]]:
    """The stacks after ``actions`` on ``now`` (timing aside): what a plan leaves on the board.

    IndexError when an action lifts from an empty cell, ValueError when a place has nothing to put."""
    stacks = {n: list(s) for n, s in now.items()}
    held: list[Thing] = []
    for action in actions:
        cell = action.cells[0] if action.cells else ""
        if action.verb == "lift":
            held.append(stacks[cell].pop())
        elif action.verb == "remove":
            stacks[cell].pop()
        elif action.verb == "place":
            if action.thing is not None:
                if action.thing in held:
                    held.remove(action.thing)
                stacks[cell].append(action.thing)
            elif held:
                stacks[cell].append(held.pop())
            else:
                raise ValueError("nothing in the hand to place")
        elif action.verb == "turn":
            top = stacks[cell].pop()
            stacks[cell].append(Thing(top.kind, None if top.colour is None else 1 - top.colour))
        elif action.verb == "slide":
            thing = stacks[cell].pop()
            stacks[action.cells[-1]].append(thing)
    return stacks


def _ends(now: Cells, actions: Sequence[Action]) -> dict[str, list[Thing]] | None:
    """What ``actions`` leave on ``now``, or None if a hand cannot carry them out."""
    try:
        return carried_out(now, actions)
    except (IndexError, ValueError):
        return None
