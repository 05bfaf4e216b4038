"""The one interface every game implements.

Modelled on OpenSpiel's game/state split and python-chess's small typed API: a
``Game`` object knows the rules and is stateless; positions are immutable values
that the game produces and inspects.  Moves are cheap internal values (ints or
tuples) chosen by each game; text exists only at the edges (``parse_move`` and
``format_move``), so search code never touches strings.

Positions are immutable so that the AI can keep any number of them in a tree or
a transposition table without copying, and so that take-back is just keeping
the previous value.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from engines.geometry import Geometry
from engines.outcome import Outcome as Outcome
from engines.physical import Thing
from engines.table import Table

P = TypeVar("P")
M = TypeVar("M", bound=Hashable)


class MoveError(ValueError):
    """A move text that is malformed or names a move that is not legal here."""


@dataclass(frozen=True)
class Option:
    """A rule option a game declares, as OpenSpiel's games declare their parameters: its name (what
    ``--option`` and a record's ``options:`` header say), its type and default, and a line of help
    for `magboard games --long`.  Every option the games have is a rule switched on by naming it,
    so the one type is an on/off flag, off unless named."""

    name: str
    help: str

    @property
    def kind(self) -> str:
        return "flag, off unless named"


QUOTED = 40  # characters of a move text a message quotes


def quoted(text: str, limit: int = QUOTED) -> str:
    """Text from outside (a move, an engine's answer) as a message quotes it: its first ``limit``
    characters, then its length when longer (a 100 KB move must not make a message of 200 KB)."""
    head = repr(text[:limit])
    return head if len(text) <= limit else f"{head}... ({len(text)} characters)"


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # pickled: see engines/pickling.py
class Game(ABC, Generic[P, M]):
    """The rules of one game: everything else in the project asks these methods.

    Subclasses set ``id``, ``name``, ``geometry``, ``options`` (the rule options
    the game accepts, each an ``Option``; the names chosen are in ``chosen``),
    ``default_board`` (the id of the board file it is best played on: shipped in
    hardware/boards, or in the ``boards/`` folder of the game's own package),
    ``table`` (what the game is at the table: objects, words, drawing; see
    engines/table.py) and ``ai_policy`` ("module:class" of its AI policy,
    imported only when the AI plays it); a Go-family game names in ``gtp`` how it
    speaks the Go Text Protocol (engines/gtp.py), so that a GTP engine can be its
    opponent; a game SGF has a number for names in ``sgf`` how its records are
    written there (engines/sgf.py), so that the Go players' tools read them.
    Compiled with mypyc (README), the class still takes subclasses written in
    Python, and these stay readable on the class.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    geometry: Geometry
    options: ClassVar[tuple[Option, ...]] = ()
    default_board: ClassVar[str]
    table: ClassVar[Table]
    ai_policy: ClassVar[str] = ""
    gtp: ClassVar[str] = ""
    sgf: ClassVar[str] = ""

    def __init__(self, chosen: frozenset[str] = frozenset()) -> None:
        names = {option.name for option in self.options}
        unknown = sorted(chosen - names)
        if unknown:
            known = ", ".join(sorted(names)) or "none"
            raise ValueError(f"{self.id}: unknown option {unknown[0]!r} (known: {known})")
        self.chosen = chosen

    # --- the position --------------------------------------------------------------
    @abstractmethod
    def start(self) -> P:
        """The position before the first move."""

    @abstractmethod
    def to_move(self, pos: P) -> int:
        """The player (0 or 1) whose turn it is."""

    @abstractmethod
    def legal_moves(self, pos: P) -> list[M]:
        """Every legal move; empty exactly when the game is over."""

    @abstractmethod
    def play(self, pos: P, move: M) -> P:
        """The position after ``move``, which must be legal in ``pos`` (not checked: hot path)."""

    @abstractmethod
    def outcome(self, pos: P) -> Outcome | None:
        """The result of a finished game, or None while it goes on."""

    @abstractmethod
    def key(self, pos: P) -> int:
        """A hash of everything that decides the future of the game (for transposition tables)."""

    def count_moves(self, pos: P) -> int:
        """The number of legal moves; games with huge move lists count them without listing."""
        return len(self.legal_moves(pos))

    def score(self, pos: P) -> tuple[int, int] | None:
        """Each player's points so far, for games that count them (None for the others)."""
        return None

    # --- text at the edges ----------------------------------------------------------
    @abstractmethod
    def format_move(self, pos: P, move: M) -> str:
        """The canonical text of ``move`` (RULES.md notation), played from ``pos``."""

    def parse_move(self, pos: P, text: str) -> M:
        """The legal move whose canonical text is ``text``.

        Raises MoveError saying whether the text is malformed or names an
        illegal move.  The default implementation first checks the syntax (so a
        typo gets a message about notation, not legality), then matches the
        canonical form against the legal moves.
        """
        canonical = self.normalise_move_text(text)
        moves = self.legal_moves(pos)
        if not moves:
            raise MoveError("not legal: the game is over")
        for move in moves:
            if self.format_move(pos, move) == canonical:
                return move
        raise MoveError(f"not legal here: {self.why_illegal(pos, canonical)}")

    @abstractmethod
    def normalise_move_text(self, text: str) -> str:
        """Check the syntax of a move text and return its canonical spelling.

        Raises MoveError naming what is wrong with the text (unknown cell, bad
        separator, ...).  Legality is not checked here.
        """

    def why_illegal(self, pos: P, canonical: str) -> str:
        """A short reason why a well-formed move text is not legal (games may say more)."""
        return "no legal move has that text"

    # --- the physical board ------------------------------------------------------------
    @abstractmethod
    def cells(self, pos: P) -> Mapping[str, tuple[Thing, ...]]:
        """For every cell name of ``geometry``, the physical objects on it, bottom to top."""

    def changed_cells(self, pos: P, move: M) -> tuple[int, ...]:
        """The cells (geometry indices) whose objects ``move`` changes.

        The move tracker asks this of every legal move after every commit to
        index the moves by the cells they change, so it must be cheap: games with
        many moves compute it from the move itself.  This default compares the
        objects of the two positions.
        """
        return tuple(self.changes(pos, move))

    def changes(self, pos: P, move: M) -> Mapping[int, tuple[Thing, ...]]:
        """For each cell ``move`` changes, the objects on it afterwards (bottom to top)."""
        before, after = self.cells(pos), self.cells(self.play(pos, move))
        return {i: after[n] for i, n in enumerate(self.geometry.names) if before[n] != after[n]}

    def hands(self, pos: P) -> Mapping[int, Mapping[str, int]]:
        """Objects each player holds off the board, by kind (for trays and LED prompts)."""
        return {0: {}, 1: {}}

    def render(self, pos: P) -> str:
        """A drawing of the position for a terminal."""
        from engines.render import render_cells

        return render_cells(self.geometry, self.cells(pos))

    # --- conveniences built on the above ------------------------------------------------
    def is_over(self, pos: P) -> bool:
        return self.outcome(pos) is not None

    def line_texts(self, pos: P, line: Sequence[M]) -> list[str]:
        """A line of moves from ``pos`` (a principal variation) in canonical notation, each move read in
        the position it is played from."""
        texts = []
        for move in line:
            texts.append(self.format_move(pos, move))
            pos = self.play(pos, move)
        return texts

    def play_texts(self, texts: Sequence[str], pos: P | None = None) -> P:
        """Play canonical move texts in order; MoveError names the ply (1-based) that failed."""
        current = self.start() if pos is None else pos
        for ply, text in enumerate(texts, start=1):
            try:
                move = self.parse_move(current, text)
            except MoveError as exc:
                raise MoveError(f"ply {ply}: move {quoted(text)}: {exc}") from None
            current = self.play(current, move)
        return current

    def legal_texts(self, pos: P) -> list[str]:
        """The legal moves as sorted canonical texts (the command line's view)."""
        return sorted(self.format_move(pos, m) for m in self.legal_moves(pos))
