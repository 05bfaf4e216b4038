"""Desdemona (RULES.md section 3): move a queen, then shoot a stone or capture a line.

The board is a 100-byte string so that a position is cheap to copy and hash;
moves are ints packing (from, to, kind, target) so that the search never builds
strings.  Rays along the eight directions are precomputed once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from mypy_extensions import mypyc_attr

from engines.desdemona.table import QUEEN as QUEEN_KIND
from engines.desdemona.table import STONE as STONE_KIND
from engines.desdemona.table import DesdemonaTable
from engines.game import Game, MoveError, Outcome, quoted
from engines.geometry import square_grid
from engines.physical import Thing

GEOMETRY = square_grid(10, 10)
SIZE = GEOMETRY.size

EMPTY, QUEEN0, QUEEN1, STONE0, STONE1 = 0, 1, 2, 3, 4
QUEEN = (QUEEN0, QUEEN1)
STONE = (STONE0, STONE1)

START_QUEENS = (("a4", "d10", "g1", "j7"), ("a7", "d1", "g10", "j4"))

# RAYS[cell] is one tuple per direction of the cells from ``cell`` to the edge.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(ray for ray in (GEOMETRY.ray(c, d) for d in range(8)) if ray) for c in range(SIZE)
)

# Move encoding: from | to << 7 | kind << 14 | target << 16.  PASS is its own value.
PLAIN, SHOT, CAPTURE = 0, 1, 2
PASS = -1


def encode(origin: int, dest: int, kind: int = PLAIN, target: int = 0) -> int:
    return origin | dest << 7 | kind << 14 | target << 16


def decode(move: int) -> tuple[int, int, int, int]:
    """(from, to, kind, target) of a move other than PASS."""
    return move & 0x7F, (move >> 7) & 0x7F, (move >> 14) & 0x3, move >> 16


class Position:
    """An immutable Desdemona position.

    ``passes`` counts consecutive passes (two end the game); ``ply`` is kept
    only to know whether Black's first, shot-less move is still to come.
    """

    __slots__ = ("board", "passes", "ply", "to_move")

    board: bytes
    to_move: int
    passes: int
    ply: int

    def __init__(self, board: bytes, to_move: int, passes: int, ply: int) -> None:
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "to_move", to_move)
        object.__setattr__(self, "passes", passes)
        object.__setattr__(self, "ply", ply)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("positions are immutable")

    def __reduce__(self) -> tuple[type[Position], tuple[bytes, int, int, int]]:
        """Pickled through the constructor (the default would set the slots, which are read-only)."""
        return (Position, (self.board, self.to_move, self.passes, self.ply))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.board == other.board
            and self.to_move == other.to_move
            and self.passes == other.passes
            and (self.ply == 0) == (other.ply == 0)
        )

    def __hash__(self) -> int:
        return hash((self.board, self.to_move, self.passes, self.ply == 0))

    def __repr__(self) -> str:
        return f"Position(to_move={self.to_move}, passes={self.passes}, ply={self.ply})"


CELL_RE = r"[a-j](?:10|[1-9])"
MOVE_RE = re.compile(rf"^({CELL_RE})-({CELL_RE})(?:([/x])({CELL_RE}))?$")
LOOSE_CELL_RE = re.compile(r"^[a-z]+\d+$")


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class Desdemona(Game[Position, int]):
    id = "desdemona"
    name = "Desdemona"
    default_board = "desdemona-hall"  # Hall: polarity (and levels) check what reed switches cannot
    geometry = GEOMETRY
    table = DesdemonaTable()
    ai_policy = "engines.desdemona.policy:DesdemonaPolicy"

    def start(self) -> Position:
        board = bytearray(SIZE)
        for player, names in enumerate(START_QUEENS):
            for name in names:
                board[GEOMETRY.cell(name)] = QUEEN[player]
        return Position(bytes(board), 0, 0, 0)

    @staticmethod
    def from_diagram(diagram: str, to_move: int = 0, ply: int = 1) -> Position:
        """A position from ten text rows, rank 10 first: ``.`` empty, ``B``/``W`` queens, ``x``/``o`` stones.

        For tests and analysis; spaces are ignored.
        """
        rows = [row.replace(" ", "") for row in diagram.strip().splitlines()]
        if len(rows) != 10 or any(len(row) != 10 for row in rows):
            raise ValueError("a Desdemona diagram has 10 rows of 10 squares")
        codes = {".": EMPTY, "B": QUEEN0, "W": QUEEN1, "x": STONE0, "o": STONE1}
        board = bytearray(SIZE)
        for r, row in enumerate(reversed(rows)):
            for q, ch in enumerate(row):
                if ch not in codes:
                    raise ValueError(f"unknown square {ch!r} in diagram")
                board[r * 10 + q] = codes[ch]
        return Position(bytes(board), to_move, 0, ply)

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def legal_moves(self, pos: Position) -> list[int]:
        if pos.passes >= 2:
            return []
        board = bytearray(pos.board)
        me = pos.to_move
        queen = QUEEN[me]
        first = pos.ply == 0
        moves: list[int] = []
        for origin in range(SIZE):
            if board[origin] != queen:
                continue
            board[origin] = EMPTY
            for ray in RAYS[origin]:
                for dest in ray:
                    if board[dest]:
                        break
                    if first:
                        moves.append(encode(origin, dest))
                        continue
                    base = origin | dest << 7
                    board[dest] = queen
                    # The shots inline rather than from _reachable: a third of the time, and the tracker
                    # lists every move of each position it commits.
                    shot = base | SHOT << 14
                    for line in RAYS[dest]:
                        for target in line:
                            if board[target]:
                                break
                            moves.append(shot | target << 16)
                    capture = base | CAPTURE << 14
                    moves += [capture | t << 16 for t, _ in _captures(board, dest, me)]
                    board[dest] = EMPTY
            board[origin] = queen
        if not moves:
            moves.append(PASS)
        return moves

    def play(self, pos: Position, move: int) -> Position:
        if move == PASS:
            return Position(pos.board, 1 - pos.to_move, pos.passes + 1, pos.ply + 1)
        me = pos.to_move
        origin, dest, kind, target = decode(move)
        board = bytearray(pos.board)
        board[origin] = EMPTY
        board[dest] = QUEEN[me]
        if kind == SHOT:
            board[target] = STONE[1 - me]
        elif kind == CAPTURE:
            for t, flipped in _captures(board, dest, me):
                if t == target:
                    for cell in flipped:
                        board[cell] = STONE[me]
                    board[target] = STONE[me]
                    break
        return Position(bytes(board), 1 - me, 0, pos.ply + 1)

    def outcome(self, pos: Position) -> Outcome | None:
        if pos.passes < 2:
            return None
        score = self.score(pos)
        winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
        return Outcome(winner, score)

    def score(self, pos: Position) -> tuple[int, int]:
        return pos.board.count(STONE0), pos.board.count(STONE1)

    def key(self, pos: Position) -> int:
        return hash(pos)

    # --- notation ------------------------------------------------------------------
    def format_move(self, pos: Position, move: int) -> str:
        if move == PASS:
            return "pass"
        origin, dest, kind, target = decode(move)
        text = f"{GEOMETRY.names[origin]}-{GEOMETRY.names[dest]}"
        if kind == SHOT:
            return f"{text}/{GEOMETRY.names[target]}"
        if kind == CAPTURE:
            return f"{text}x{GEOMETRY.names[target]}"
        return text

    def normalise_move_text(self, text: str) -> str:
        canonical = text.strip().lower()
        if canonical == "pass":
            return canonical
        if MOVE_RE.match(canonical):
            return canonical
        for part in re.split(r"[-/x]", canonical):
            if LOOSE_CELL_RE.match(part) and part not in GEOMETRY.index:
                raise MoveError(f"no square {quoted(part)} on the 10x10 board (a1..j10)")
        raise MoveError("expected 'from-to', 'from-to/shot', 'from-toxcapture' or 'pass'")

    def why_illegal(self, pos: Position, canonical: str) -> str:
        if canonical == "pass":
            return "passing is only allowed with no queen move"
        m = MOVE_RE.match(canonical)
        assert m is not None
        origin, dest = GEOMETRY.cell(m.group(1)), GEOMETRY.cell(m.group(2))
        if pos.board[origin] != QUEEN[pos.to_move]:
            return f"no queen of the side to move on {m.group(1)}"
        board = bytearray(pos.board)
        board[origin] = EMPTY
        if dest not in _reachable(board, origin):
            return f"the queen on {m.group(1)} cannot reach {m.group(2)}"
        if pos.ply == 0 and m.group(3):
            return "Black's first turn is the queen move alone"
        if pos.ply > 0 and not m.group(3):
            return "a queen move must be followed by a shot (/cell) or a capture (xcell)"
        if m.group(3) == "/":
            return f"{m.group(4)} is not an empty square the moved queen could reach"
        return f"no line of opponent stones from {m.group(2)} ends at {m.group(4)}"

    # --- the physical board -------------------------------------------------------------
    def cells(self, pos: Position) -> Mapping[str, tuple[Thing, ...]]:
        return {name: THINGS[pos.board[i]] for i, name in enumerate(GEOMETRY.names)}

    def changed_cells(self, pos: Position, move: int) -> tuple[int, ...]:
        """From the move alone: the queen's two squares, the stone's, and for a capture the line between.
        Decoded inline: the tracker asks this of every legal move after each commit."""
        if move == PASS:
            return ()
        origin, dest, kind, target = move & 0x7F, (move >> 7) & 0x7F, (move >> 14) & 0x3, move >> 16
        if kind == SHOT:
            return (origin, dest) if target == origin else (origin, dest, target)
        if kind == PLAIN:
            return (origin, dest)
        return (origin, dest, *BETWEEN[dest][target], target)

    def changes(self, pos: Position, move: int) -> Mapping[int, tuple[Thing, ...]]:
        """From the move alone, without playing it: the tracker asks this of hundreds of moves a reading."""
        if move == PASS:
            return {}
        left, queen, shot, mine = LEFT_BY[pos.to_move]
        origin, dest, kind, target = move & 0x7F, (move >> 7) & 0x7F, (move >> 14) & 0x3, move >> 16
        if kind == SHOT:
            return {origin: left, dest: queen, target: shot}
        out = {origin: left, dest: queen}
        if kind == CAPTURE:
            out.update((cell, mine) for cell in (*BETWEEN[dest][target], target))
        return out


THINGS: tuple[tuple[Thing, ...], ...] = (
    (),
    (Thing(QUEEN_KIND.kind, 0),),
    (Thing(QUEEN_KIND.kind, 1),),
    (Thing(STONE_KIND.kind, 0),),
    (Thing(STONE_KIND.kind, 1),),
)
# LEFT_BY[side]: what a move of ``side`` leaves on its cells - the square left, its queen, the stone it
# shoots, its own stones of a capture.
LEFT_BY = tuple((THINGS[EMPTY], THINGS[QUEEN[me]], THINGS[STONE[1 - me]], THINGS[STONE[me]]) for me in (0, 1))


# BETWEEN[a][b]: the squares strictly between ``a`` and ``b`` where they share a line (captures only ask
# for those).
BETWEEN: tuple[dict[int, tuple[int, ...]], ...] = tuple(
    {ray[i]: ray[:i] for ray in RAYS[a] for i in range(len(ray))} for a in range(SIZE)
)


def _reachable(board: bytearray, cell: int) -> list[int]:
    """The empty squares a queen on ``cell`` could move to."""
    out: list[int] = []
    for ray in RAYS[cell]:
        for c in ray:
            if board[c]:
                break
            out.append(c)
    return out


def _captures(board: bytearray | bytes, cell: int, me: int) -> list[tuple[int, tuple[int, ...]]]:
    """Each capture from ``cell`` for player ``me``: (the empty end square, the stones turned)."""
    theirs = STONE[1 - me]
    out: list[tuple[int, tuple[int, ...]]] = []
    for ray in RAYS[cell]:
        if board[ray[0]] != theirs:
            continue
        for i in range(1, len(ray)):
            here = board[ray[i]]
            if here == theirs:
                continue
            if here == EMPTY:
                out.append((ray[i], ray[:i]))
            break
    return out
