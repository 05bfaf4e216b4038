"""The AI as the session's opponent: engines.ai behind the session's Opponent protocol."""

from __future__ import annotations

from engines.ai import hint, start_workers, think
from engines.game import Game, M, P


class AiOpponent:
    """Moves at a level and a time (or node budget) per move; hints in a fixed short time.  A timed
    search shares its work with ``workers`` processes in all (default: one per core)."""

    def __init__(
        self,
        level: int = 10,
        seconds: float | None = None,
        nodes: int | None = None,
        seed: int = 0,
        workers: int | None = None,
    ) -> None:
        self.level = level
        self.seconds = seconds
        self.nodes = nodes
        self.seed = seed
        self.workers = workers

    def start(self, game: Game[P, M]) -> None:
        # Hints search at the highest level, whatever the AI plays at.
        start_workers(game, nodes=self.nodes, workers=self.workers)

    def choose(self, game: Game[P, M], pos: P) -> M:
        level, seconds, nodes, seed, workers = self.level, self.seconds, self.nodes, self.seed, self.workers
        best: M = think(game, pos, level=level, seconds=seconds, nodes=nodes, seed=seed, workers=workers).best
        return best

    def hint(self, game: Game[P, M], pos: P) -> list[M]:
        if self.nodes is not None:
            return list(think(game, pos, nodes=self.nodes, seed=self.seed).pv)
        seconds = min(self.seconds or 1.0, 1.0)
        return list(hint(game, pos, seconds=seconds, seed=self.seed, workers=self.workers).pv)
