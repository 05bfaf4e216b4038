"""Turns searched as two half-moves of the same player: what the games that split their turns share.

A game whose turn is a piece's move and then a second act from where it
landed (Desdemona's shot or capture, the Amazons' arrow) offers alpha-beta
some 2,000 whole turns a node but only some 80 first halves and 25 second
ones; a policy's ``split_turns`` hands the search such a model
(engines/ai/policy.py, ``TurnSplit``).  Both halves are ordered by the
history of the cut-offs they caused, first halves after the last two that
did (killers), and a line of half-moves is turned back into whole turns.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from engines.ai.policy import Policy
from engines.ai.rules import Rules

P = TypeVar("P")
NO_MOVE = -1


class HalfRules(Rules[P, int], Protocol):
    def mid_turn(self, pos: P) -> bool:
        """Whether ``pos`` waits for the second half of a turn."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # pickled: see engines/pickling.py
class CutoffHistory:
    """For each side, how often (weighted by depth) each half-move refuted a position, and the killers.

    Killers are the last two first halves that refuted a sibling: a
    refutation of one sibling usually refutes the next.  A policy keeps one
    per search, so that a search depends only on its seed and budget.
    """

    def __init__(self) -> None:
        # counts[side][half-move]: a defaultdict, so that its __getitem__ is a sort key without a lambda.
        self.counts: tuple[defaultdict[int, int], defaultdict[int, int]] = (
            defaultdict(int),
            defaultdict(int),
        )
        self.killers = ([NO_MOVE, NO_MOVE], [NO_MOVE, NO_MOVE])

    def cutoff(self, side: int, move: int, depth: int, first_half: bool) -> None:
        self.counts[side][move] += depth * depth
        if first_half:
            killers = self.killers[side]
            if killers[0] != move:
                killers[1] = killers[0]
                killers[0] = move

    def first_halves(self, side: int, moves: list[int]) -> list[int]:
        """``moves`` (first halves) by their history, the killers first."""
        ordered = sorted(moves, key=self.counts[side].__getitem__, reverse=True)
        for killer in reversed(self.killers[side]):
            if killer in moves:
                ordered.remove(killer)
                ordered.insert(0, killer)
        return ordered


def whole_turns(rules: HalfRules[Any], policy: Policy[Any, int], root: Any, parts: list[int]) -> list[int]:
    """The game's moves of a line of half-moves from ``root``; the two halves of a turn or-ed together.

    A line that stops after a first half ends with that unfinished turn
    dropped, unless it is the first, which is completed with the best second
    half by the ordering, so that there is always a move to play.  A first
    half that ends the turn by itself (a pass) is a whole turn.
    """
    turns: list[int] = []
    pos = root
    halves = iter(parts)
    for part in halves:
        pos = rules.play(pos, part)
        if rules.mid_turn(pos):
            second = next(halves, None)
            if second is None:
                if turns:
                    break
                second = policy.order(pos, rules.legal_moves(pos))[0]
            pos = rules.play(pos, second)
            part |= second
        turns.append(part)
    return turns
