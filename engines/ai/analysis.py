"""What a search found: the answer the terminal, the session and `magboard analyse` show."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.pickling import by_fields


@dataclass(frozen=True)
class Analysis:
    """The result of one search.

    ``value`` is in [-1, 1] from the view of the side to move in the searched
    position (1: a proven or certain win).  ``pv`` starts with ``best``.
    ``depth`` is the deepest completed iteration for alpha-beta (in turns) and
    the length of the principal variation in the tree for MCTS (``algorithm``
    says which); ``simulations`` is the number of MCTS simulations (0 for
    alpha-beta).  ``nodes`` counts the positions the search produced with
    ``play``.  ``proven`` says that ``value`` is exact: a forced win or loss,
    or a tree searched to the end.
    """

    best: Any
    value: float
    pv: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0
    algorithm: str = ""
    proven: bool = False
    simulations: int = 0

    def __reduce__(self) -> tuple[type[Analysis], tuple[object, ...]]:
        return by_fields(self)

    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0
