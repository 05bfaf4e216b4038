"""What a search found: the answer the terminal, the session and `magboard analyse` show."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Analysis:
    """The result of one search.

    ``value`` is in [-1, 1] from the view of the side to move in the searched
    position (1: a proven or certain win).  ``pv`` starts with ``best``.
    ``depth`` is the deepest completed iteration for alpha-beta and the number
    of simulations for MCTS (``algorithm`` says which).  ``nodes`` counts the
    positions the search produced with ``Game.play``.  ``proven`` says that
    ``value`` is exact: a forced win or loss, or a tree searched to the end.
    """

    best: Any
    value: float
    pv: list[Any] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0
    algorithm: str = ""
    proven: bool = False
