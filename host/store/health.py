"""Whether the moves of the game in progress are on the disk: what the page, terminal and log say."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Saved:
    """Every committed move is in the store."""

    path: Path

    def __str__(self) -> str:
        return f"moves are saved in {self.path}"


@dataclass(frozen=True)
class NotSaving:
    """The last write failed: the game goes on in memory and every commit tries again."""

    path: Path
    reason: str
    unsaved: int  # committed moves not in the store yet

    def __str__(self) -> str:
        moves = "1 move" if self.unsaved == 1 else f"{self.unsaved} moves"
        return f"moves are not being saved: {self.path}: {self.reason} ({moves} unsaved, retrying)"


StoreHealth = Saved | NotSaving
