"""Tic-tac-toe on the Game interface: small enough that every search result can be checked by hand."""

from __future__ import annotations

from collections.abc import Mapping

from engines.game import Game, MoveError, Outcome
from engines.geometry import square_grid
from engines.physical import Thing

GEOMETRY = square_grid(3, 3)
LINES = GEOMETRY.lines(min_length=3)

Board = tuple[int, ...]  # 9 cells: -1 empty, else the player


class TicTacToe(Game[Board, int]):
    id = "tictactoe"
    name = "Tic-tac-toe"
    geometry = GEOMETRY

    def start(self) -> Board:
        return (-1,) * 9

    @staticmethod
    def from_rows(rows: str) -> Board:
        """Three rows, rank 3 first: ``x`` player 0, ``o`` player 1, ``.`` empty."""
        lines = [row.replace(" ", "") for row in rows.strip().splitlines()]
        return tuple("xo".index(ch) if ch != "." else -1 for row in reversed(lines) for ch in row)

    def to_move(self, pos: Board) -> int:
        return 0 if pos.count(0) == pos.count(1) else 1

    def _winner(self, pos: Board) -> int | None:
        for a, b, c in LINES:
            if pos[a] >= 0 and pos[a] == pos[b] == pos[c]:
                return pos[a]
        return None

    def legal_moves(self, pos: Board) -> list[int]:
        if self.outcome(pos) is not None:
            return []
        return [c for c in range(9) if pos[c] < 0]

    def play(self, pos: Board, move: int) -> Board:
        board = list(pos)
        board[move] = self.to_move(pos)
        return tuple(board)

    def outcome(self, pos: Board) -> Outcome | None:
        winner = self._winner(pos)
        if winner is not None:
            return Outcome(winner)
        return Outcome(None) if -1 not in pos else None

    def key(self, pos: Board) -> int:
        return hash(pos)

    def format_move(self, pos: Board, move: int) -> str:
        return GEOMETRY.names[move]

    def normalise_move_text(self, text: str) -> str:
        if text not in GEOMETRY.index:
            raise MoveError(f"no cell {text!r}")
        return text

    def cells(self, pos: Board) -> Mapping[str, tuple[Thing, ...]]:
        return {n: ((Thing("mark", pos[i]),) if pos[i] >= 0 else ()) for i, n in enumerate(GEOMETRY.names)}
