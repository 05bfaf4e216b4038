"""What the board may show next: every position the player can be heading for.

The sensors report only what they feel, never moves.  So after each commit the
tracker lists the positions the player may be setting up - every legal
successor, the two previous positions (a take-back), the start position (a new game
set up on the board) and, while the AI's move is
waiting to be carried out, that move and every reply to it - and works out once
what each would look like to this board's sensors.  Matching a settled reading
is then a comparison with that list, whatever order the hands worked in.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import ne
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
    source: Expectations[R]

    @property
    def label(self) -> str:
        """The moves as text, or the take-back: for messages and logs."""
        return self.source.label(self.moves, self.back)


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
        self._cells = range(game.geometry.size)
        self.stacks = self._stacks(self.position)
        self.reading = tuple(reading_of(s) for s in self.stacks)
        self.takebacks = takebacks
        self._candidates: list[Candidate[R]] | None = None
        self._by_reading: dict[tuple[R, ...], list[Candidate[R]]] = {}

    @property
    def ready(self) -> bool:
        """Whether the candidates are listed (``build`` has run)."""
        return self._candidates is not None

    @property
    def candidates(self) -> list[Candidate[R]]:
        if self._candidates is None:
            self.build()
        assert self._candidates is not None
        return self._candidates

    def build(self) -> None:
        """List every candidate and index them by reading.

        This is the expensive part (thousands of positions for some games), so
        the session runs it while the player thinks, after the LEDs have been
        updated for the committed move, not on the way to them.
        """
        if self._candidates is not None:
            return
        game, found = self.game, []
        if self.pending is not None:
            after_ai = game.play(self.position, self.pending)
            found.append(self._make((self.pending,), 0, after_ai))
            ai_stacks = self._stacks(after_ai)
            for reply in game.legal_moves(after_ai):
                after_reply = game.play(after_ai, reply)
                if self._stacks(after_reply) != ai_stacks:  # a pass needs no hands: it is not a reply
                    found.append(self._make((self.pending, reply), 0, after_reply))
        else:
            moves = game.legal_moves(self.position)
            found.extend(self._make((move,), 0, game.play(self.position, move)) for move in moves)
        played = len(self.history) - 1
        for back in range(1, min(self.takebacks, played) + 1):
            found.append(self._make((), back, self.history[-1 - back]))
        if played > self.takebacks:  # the start position set up again: a new game
            found.append(self._make((), played, self.history[0]))
        for candidate in found:
            self._by_reading.setdefault(candidate.reading, []).append(candidate)
        self._candidates = found

    def candidate_for(self, moves: tuple[Any, ...]) -> Candidate[R]:
        """The candidate of these moves from the committed position, listed or not."""
        if self._candidates is not None:
            for candidate in self._candidates:
                if candidate.moves == moves and not candidate.back:
                    return candidate
        pos = self.position
        for move in moves:
            pos = self.game.play(pos, move)
        return self._make(moves, 0, pos)

    def _stacks(self, pos: Any) -> tuple[Stack, ...]:
        return tuple(map(self.game.cells(pos).__getitem__, self.game.geometry.names))

    def _make(self, moves: tuple[Any, ...], back: int, pos: Any) -> Candidate[R]:
        stacks = self._stacks(pos)
        changed = frozenset(compress(self._cells, map(ne, self.stacks, stacks)))
        values = list(self.reading)
        for i in changed:
            values[i] = self.reading_of(stacks[i])
        reading = tuple(values)
        must_touch = frozenset(i for i in changed if reading[i] == self.reading[i] != self.empty)
        return Candidate(moves, back, pos, reading, stacks, changed, must_touch, self)

    def label(self, moves: tuple[Any, ...], back: int) -> str:
        if back:
            return f"take back {back}"
        pos, texts = self.position, []
        for move in moves:
            texts.append(self.game.format_move(pos, move))
            pos = self.game.play(pos, move)
        return " ".join(texts)

    def exact(self, reading: tuple[R, ...]) -> list[Candidate[R]]:
        """The candidates whose expected reading is ``reading``."""
        self.build()
        return self._by_reading.get(reading, [])

    def differing(self, reading: tuple[R, ...]) -> list[int]:
        """The cells where ``reading`` differs from the committed position's reading."""
        return [i for i, (a, b) in enumerate(zip(self.reading, reading, strict=True)) if a != b]
