"""What the searches need of a game: the rules of play, without notation or the physical board.

Every ``Game`` is such a thing; a game's policy may also hand the search a
finer model of the same game (Desdemona's turns as two half-moves, see
``engines.ai.policy.TurnSplit``), which need not know how to write moves or draw boards.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from engines.game import Outcome

P = TypeVar("P")
M = TypeVar("M")


class Rules(Protocol[P, M]):
    def to_move(self, pos: P) -> int: ...

    def legal_moves(self, pos: P) -> list[M]: ...

    def play(self, pos: P, move: M) -> P: ...

    def outcome(self, pos: P) -> Outcome | None: ...

    def key(self, pos: P) -> int: ...
