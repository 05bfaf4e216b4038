"""The rules: Black and White place a stone of their own in turn; three in a row wins, a full board draws."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from engines.game import Game, MoveError
from engines.geometry import square_grid
from engines.outcome import Outcome
from engines.physical import Thing
from engines.table import Drawing, Ending, GameView, Look, Noun, ObjectKind, Role, Table

Position = tuple[tuple[int | None, ...], int]  # each square's stone (None: empty), the player to move
GEOMETRY = square_grid(3, 3)
NAMES = tuple(GEOMETRY.names)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
STONE = ObjectKind("stone", Role.OWNED, Noun("stone", "stones"), Look("disc", 0.35, fills=("#111", "#eee")))


def three(squares: tuple[int | None, ...]) -> tuple[int, ...] | None:
    for line in LINES:
        first = squares[line[0]]
        if first is not None and all(squares[i] == first for i in line):
            return line
    return None


class ThreeRowTable(Table):
    sides = ("Black", "White")
    side_colours = ("#111111", "#eeeeee")
    objects = (STONE,)
    cell = Noun("square", "squares")
    drawing = Drawing("square")
    notation = "b2"
    turn = "place one of your stones on an empty square"
    endings: ClassVar[Mapping[str, str]] = {
        "three in a row": "{side} has three in a row, and wins.",
        "a full board": "The board is full without three in a row: a draw.",
    }

    def ending(self, game: GameView, pos: Position) -> Ending:
        line = three(pos[0])
        if line is None:
            return self.because("a full board", game, pos)
        winner = pos[0][line[0]]
        assert winner is not None
        return self.because("three in a row", game, pos, (NAMES[i] for i in line), side=self.side(winner))


class ThreeRow(Game[Position, int]):
    id = "threerow"
    name = "Three in a Row"
    geometry = GEOMETRY
    table = ThreeRowTable()
    default_board = "threerow-reed"  # shipped in this package's boards/

    def start(self) -> Position:
        return ((None,) * 9, 0)

    def to_move(self, pos: Position) -> int:
        return pos[1]

    def legal_moves(self, pos: Position) -> list[int]:
        squares = pos[0]
        if three(squares) is not None:
            return []
        return [i for i, stone in enumerate(squares) if stone is None]

    def play(self, pos: Position, move: int) -> Position:
        squares = list(pos[0])
        squares[move] = pos[1]
        return (tuple(squares), 1 - pos[1])

    def outcome(self, pos: Position) -> Outcome | None:
        line = three(pos[0])
        if line is not None:
            return Outcome(pos[0][line[0]])
        return Outcome(None) if None not in pos[0] else None

    def key(self, pos: Position) -> int:
        return hash(pos)

    def format_move(self, pos: Position, move: int) -> str:
        return NAMES[move]

    def normalise_move_text(self, text: str) -> str:
        name = text.strip().lower()
        if name not in NAMES:
            raise MoveError(f"expected a square a1-c3, got {text!r}")
        return name

    def cells(self, pos: Position) -> Mapping[str, tuple[Thing, ...]]:
        return {
            name: () if stone is None else (Thing(STONE.kind, stone),)
            for name, stone in zip(NAMES, pos[0], strict=True)
        }
