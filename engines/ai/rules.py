"""What the searches need of a game: the rules of play, without notation or the physical board.

Every ``Game`` is such a thing; a game's policy may also hand the search a
finer model of the same game (Desdemona's turns as two half-moves, see
``TurnSplit``), which need not know how to write moves or draw boards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from engines.ai.analysis import Analysis
from engines.game import Outcome

if TYPE_CHECKING:
    from engines.ai.policy import Policy

P = TypeVar("P")
M = TypeVar("M")


class Rules(Protocol[P, M]):
    def to_move(self, pos: P) -> int: ...

    def legal_moves(self, pos: P) -> list[M]: ...

    def play(self, pos: P, move: M) -> P: ...

    def outcome(self, pos: P) -> Outcome | None: ...

    def key(self, pos: P) -> int: ...


@dataclass(frozen=True)
class TurnSplit:
    """A position of a game in a model whose moves are parts of the game's turns.

    ``rules`` and ``policy`` are the model's; ``root`` is the searched
    position in it; a turn takes ``parts`` moves of the model (some turns
    fewer), so alpha-beta deepens ``parts`` at a time; ``turns`` turns a line
    of parts from ``root`` into the game's moves, completing a last
    unfinished turn only if it is the first.
    """

    rules: Rules[Any, Any]
    policy: Policy[Any, Any]
    root: Any
    parts: int
    turns: Callable[[Any, list[Any]], list[Any]]

    def whole(self, found: Analysis) -> Analysis:
        """The model's search result as the game's: whole turns, depth in turns."""
        line = self.turns(self.root, found.pv)
        return replace(found, best=line[0], pv=line, depth=found.depth // self.parts)
