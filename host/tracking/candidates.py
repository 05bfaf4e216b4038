"""What the board may show next: every position the player can be heading for.

The sensors report only what they feel, never moves.  So after each commit the
tracker lists the positions the player may be setting up - every legal
successor, the two previous positions (a take-back) and, while the AI's move is
waiting to be carried out, that move and every reply to it - and works out once
what each would look like to this board's sensors.  Matching a settled reading
is then a comparison with that list, whatever order the hands worked in.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engines.game import Game
from engines.physical import Thing

R = TypeVar("R", bound=Hashable)  # one cell's reading
Stack = tuple[Thing, ...]


@dataclass(frozen=True, eq=False)
class Candidate(Generic[R]):
    """One position the board may be showing, and how to get there from the committed one.

    ``moves`` are played after taking ``back`` plies back.  ``changed`` are the
    cells whose objects differ from the committed position; ``must_touch`` the
    changed cells that read the same before and after (a knight captured by a
    knight, a stone turned under a reed switch): the sensors only know they were
    changed if a hand lifted something there on the way.
    """

    moves: tuple[Any, ...]
    back: int
    position: Any
    reading: tuple[R, ...]
    stacks: tuple[Stack, ...]
    changed: frozenset[int]
    must_touch: frozenset[int]
    label: str


class Expectations(Generic[R]):
    """The committed position, its sensor reading, and every candidate with its reading."""

    def __init__(
        self,
        game: Game[Any, Any],
        reading_of: Callable[[Stack], R],
        empty: R,
        history: Sequence[Any],
        pending: Any | None = None,
        takebacks: int = 2,
    ) -> None:
        self.game = game
        self.reading_of = reading_of
        self.empty = empty
        self.history = list(history)
        self.position = self.history[-1]
        self.pending = pending
        self.stacks = self._stacks(self.position)
        self.reading = tuple(reading_of(s) for s in self.stacks)
        self.candidates: list[Candidate[R]] = []
        if pending is not None:
            after_ai = game.play(self.position, pending)
            self._add((pending,), 0, after_ai)
            ai_stacks = self._stacks(after_ai)
            for reply in game.legal_moves(after_ai):
                after_reply = game.play(after_ai, reply)
                if self._stacks(after_reply) != ai_stacks:  # a pass needs no hands: it is not a reply
                    self._add((pending, reply), 0, after_reply)
        else:
            for move in game.legal_moves(self.position):
                self._add((move,), 0, game.play(self.position, move))
        for back in range(1, min(takebacks, len(self.history) - 1) + 1):
            self._add((), back, self.history[-1 - back])
        self._by_reading: dict[tuple[R, ...], list[Candidate[R]]] = {}
        for candidate in self.candidates:
            self._by_reading.setdefault(candidate.reading, []).append(candidate)

    def _stacks(self, pos: Any) -> tuple[Stack, ...]:
        cells = self.game.cells(pos)
        return tuple(tuple(cells[name]) for name in self.game.geometry.names)

    def _add(self, moves: tuple[Any, ...], back: int, pos: Any) -> None:
        stacks = self._stacks(pos)
        reading = tuple(self.reading_of(s) for s in stacks)
        changed = frozenset(i for i, (a, b) in enumerate(zip(self.stacks, stacks, strict=True)) if a != b)
        must_touch = frozenset(i for i in changed if reading[i] == self.reading[i] != self.empty)
        self.candidates.append(
            Candidate(moves, back, pos, reading, stacks, changed, must_touch, self._label(moves, back))
        )

    def _label(self, moves: tuple[Any, ...], back: int) -> str:
        if back:
            return f"take back {back}"
        pos, texts = self.position, []
        for move in moves:
            texts.append(self.game.format_move(pos, move))
            pos = self.game.play(pos, move)
        return " ".join(texts)

    def exact(self, reading: tuple[R, ...]) -> list[Candidate[R]]:
        """The candidates whose expected reading is ``reading``."""
        return self._by_reading.get(reading, [])

    def differing(self, reading: tuple[R, ...]) -> list[int]:
        """The cells where ``reading`` differs from the committed position's reading."""
        return [i for i, (a, b) in enumerate(zip(self.reading, reading, strict=True)) if a != b]
