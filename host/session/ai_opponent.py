"""The AI as the session's opponent: engines.ai behind the session's Opponent protocol."""

from __future__ import annotations

from typing import Any

from engines.ai import hint, think
from engines.game import Game


class AiOpponent:
    """Moves at a level and a time (or node budget) per move; hints in a fixed short time."""

    def __init__(
        self, level: int = 10, seconds: float | None = None, nodes: int | None = None, seed: int = 0
    ) -> None:
        self.level = level
        self.seconds = seconds
        self.nodes = nodes
        self.seed = seed

    def choose(self, game: Game[Any, Any], pos: Any) -> Any:
        return think(game, pos, level=self.level, seconds=self.seconds, nodes=self.nodes, seed=self.seed).best

    def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]:
        if self.nodes is not None:
            return list(think(game, pos, nodes=self.nodes, seed=self.seed).pv)
        return list(hint(game, pos, seconds=min(self.seconds or 1.0, 1.0), seed=self.seed).pv)
