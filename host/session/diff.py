"""The hand movements that turn one position into another on the physical board.

Used where a move has to be made by simulated hands: a move typed at the
simulated board, the page's "Set up the board", and the tests' players.  The
steps come from the same object plan the LEDs and the words use
(host/tracking/plan.py); here they become script actions.  ``rng`` shuffles
the order, as different people's hands would.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engines.game import Game
from engines.physical import Thing
from engines.table import Role
from host.session.script import Action
from host.tracking.plan import Do, plan

Stack = tuple[Thing, ...]


def hand_actions(
    game: Game[Any, Any],
    before: Mapping[str, Stack],
    after: Mapping[str, Stack],
    rng: random.Random | None = None,
) -> list[Action]:
    """Script actions (line 0) that make the board go from ``before`` to ``after``."""
    index = game.geometry.index
    changed = {cell: tuple(after[cell]) for cell in before if tuple(before[cell]) != tuple(after[cell])}
    olds = {cell: tuple(before[cell]) for cell in changed}
    steps = plan(
        olds,
        changed,
        game.table.kinds(Role.REVERSIBLE),
        lambda a, b: game.geometry.distance(index[a], index[b]),
    )
    removes: list[Action] = []
    lifts: list[Action] = []
    places: list[Action] = []
    turns: list[Action] = []
    for step in steps:
        if step.do is Do.TURN:
            assert step.target is not None
            turns.append(Action(0, "turn", (step.target,)))
        elif step.do is Do.REMOVE:
            assert step.source is not None
            removes.extend(Action(0, "remove", (step.source,)) for _ in step.things)
        elif step.do is Do.MOVE:
            assert step.source is not None and step.target is not None
            lifts.extend(Action(0, "lift", (step.source,)) for _ in step.things)
            places.extend(Action(0, "place", (step.target,), thing) for thing in step.things)
        else:
            assert step.target is not None
            places.extend(Action(0, "place", (step.target,), thing) for thing in step.things)
    if rng is not None:
        rng.shuffle(turns)
        rng.shuffle(removes)
    # Carried objects: lift each from its cell before placing it anywhere (placing names the object).
    if rng is None or rng.random() < 0.5:
        return [*removes, *lifts, *places, *turns]
    return [*lifts, *removes, *turns, *places]
