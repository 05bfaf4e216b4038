"""When a search must stop: a wall-clock deadline, a node budget, or both.

Searches poll ``exhausted`` once per position they produce, so the overshoot
is one node's work; a node budget makes a search deterministic for a seed.
"""

from __future__ import annotations

import time


class OutOfBudget(Exception):
    """Raised inside a search to unwind it when the budget is spent."""


class Budget:
    __slots__ = ("deadline", "max_nodes", "nodes", "started")

    def __init__(
        self, seconds: float | None = None, nodes: int | None = None, deadline: float | None = None
    ) -> None:
        """``deadline`` (a ``time.perf_counter`` instant, shared by worker processes) beats ``seconds``."""
        self.started = time.perf_counter()
        self.deadline = (
            deadline if deadline is not None else (None if seconds is None else self.started + seconds)
        )
        self.max_nodes = nodes
        self.nodes = 0

    def exhausted(self) -> bool:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def spend(self) -> None:
        """Count one node; raise OutOfBudget when the budget is gone."""
        self.nodes += 1
        if self.exhausted():
            raise OutOfBudget

    def elapsed(self) -> float:
        return time.perf_counter() - self.started
