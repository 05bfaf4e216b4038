"""The hand movements that turn one position into another on the physical board.

Used where a move has to be made by simulated hands: a move typed at the
simulated board, the page's "Set up the board", and the tests' players.  A
hand reaches only the top of a stack, so each changed cell is taken down to
what it keeps and built up again in order: the rings a knight carries go
under it, and an object under another is reached by lifting what lies on it
first, whatever the board holds (a ring put on a knight, rings in another
order).  Objects taken off that another cell needs are carried there; the
rest go to the box, and what is still missing comes from it.  ``rng``
shuffles the order, as different people's hands would.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from engines.game import Game, M, P
from engines.physical import Thing
from engines.table import Role, Table
from host.reach.script import Action

Stack = tuple[Thing, ...]


def hand_actions(
    game: Game[P, M],
    before: Mapping[str, Stack],
    after: Mapping[str, Stack],
    rng: random.Random | None = None,
) -> list[Action]:
    """Script actions (line 0) that make the board go from ``before`` to ``after``."""
    table = game.table
    reversible = table.kinds(Role.REVERSIBLE)
    off: dict[str, Stack] = {}  # what each cell loses, bottom to top
    on: dict[str, Stack] = {}  # what it gains, bottom to top
    turns: list[Action] = []
    for cell in before:
        old = tuple(before[cell])
        new = arranged(table, old, tuple(after[cell]))
        kept = _common(old, new)
        gone, come = old[kept:], new[kept:]
        if len(gone) == len(come) == 1 and _turned(gone[0], come[0], reversible):
            turns.append(Action(0, "turn", (cell,)))
        elif gone or come:
            off[cell], on[cell] = gone, come
    needed = Counter(t for stack in on.values() for t in stack)
    carried: Counter[Thing] = Counter()
    taken: dict[str, list[Action]] = {}  # each cell's objects off, top first: lifted if needed, else removed
    for cell, gone in off.items():
        taken[cell] = []
        for thing in reversed(gone):
            lift = carried[thing] < needed[thing]
            carried[thing] += lift
            taken[cell].append(Action(0, "lift" if lift else "remove", (cell,)))
    # Carried objects land first (where they were going), then what comes from the box or a hand.
    order = sorted(on, key=lambda cell: not any(carried[t] for t in on[cell]))
    places = [Action(0, "place", (cell,), thing) for cell in order for thing in on[cell]]
    if rng is not None:
        rng.shuffle(turns)
        cells = list(taken)
        rng.shuffle(cells)
        taken = {cell: taken[cell] for cell in cells}
    if rng is not None and rng.random() >= 0.5:
        return [*_peel(taken, "lift"), *turns, *places]
    return [*_peel(taken, "remove"), *places, *turns]


def arranged(table: Table, old: Sequence[Thing], new: Stack) -> Stack:
    """``new`` with its riding objects (a knight's rings) in the order ``old`` has them where it has them.

    The game does not tell carried objects' order apart, so a hand keeps the
    order it finds instead of rebuilding a stack the game holds the same.
    """
    rides = table.kinds_riding
    riders = [t for t in new if t.kind in rides]
    if not riders:
        return new
    left = Counter(riders)
    ordered: list[Thing] = []
    for thing in old:
        if left[thing]:
            left[thing] -= 1
            ordered.append(thing)
    for thing in riders:
        if left[thing]:
            left[thing] -= 1
            ordered.append(thing)
    rest = iter(ordered)
    return tuple(next(rest) if t.kind in rides else t for t in new)


def _common(a: Stack, b: Stack) -> int:
    """How many objects from the bottom two stacks share."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _turned(gone: Thing, come: Thing, reversible: frozenset[str]) -> bool:
    return gone.kind == come.kind and gone.kind in reversible and gone.colour != come.colour


def _peel(taken: dict[str, list[Action]], first: str) -> list[Action]:
    """Every cell's actions, each cell top first, those of verb ``first`` as early as the stacks allow."""
    queues = {cell: list(actions) for cell, actions in taken.items()}
    out: list[Action] = []
    verb = first
    while any(queues.values()):
        progressed = False
        for actions in queues.values():
            while actions and actions[0].verb == verb:
                out.append(actions.pop(0))
                progressed = True
        if not progressed:
            verb = "lift" if verb == "remove" else "remove"
    return out
