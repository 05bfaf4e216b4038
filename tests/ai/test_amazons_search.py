"""The Amazons' bitboard evaluation and half-move model against slow references built from the rules."""

from __future__ import annotations

import math
import random

from engines.ai import think
from engines.ai.policy import EVAL_LIMIT, WIN
from engines.amazons.policy import AmazonsPolicy
from engines.amazons.rules import Amazons, Position
from engines.amazons.territory import TRAPPED
from engines.amazons.turns import MOVED, NOT_MOVED, AmazonsHalves, from_position

GAME = Amazons()
QUEEN_STEPS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
UNREACHED = 99


def board_of(pos: Position) -> dict[tuple[int, int], str]:
    """Each square (file, rank from 0) as 'W', 'B', 'x' or '.'."""
    cells = GAME.cells(pos)
    out = {}
    for name, stack in cells.items():
        q, r = GAME.geometry.coords[GAME.geometry.index[name]]
        out[(q, r)] = "." if not stack else ("x" if stack[0].kind == "arrow" else "WB"[stack[0].colour])
    return out


def distances(board: dict[tuple[int, int], str], side: str, queen: bool) -> dict[tuple[int, int], int]:
    """Queen moves (or king steps) from the nearest amazon of ``side`` to each empty square."""
    dist = {c: UNREACHED for c in board}
    frontier = [c for c, ch in board.items() if ch == side]
    step = 0
    while frontier:
        step += 1
        nxt = []
        for q, r in frontier:
            for dq, dr in QUEEN_STEPS:
                x, y = q + dq, r + dr
                while board.get((x, y)) == ".":
                    if dist[(x, y)] > step:
                        dist[(x, y)] = step
                        nxt.append((x, y))
                    if not queen:
                        break
                    x, y = x + dq, y + dr
        frontier = nxt
    return {c: d for c, d in dist.items() if board[c] == "."}


def moves_from(board: dict[tuple[int, int], str], q: int, r: int) -> int:
    return len([1 for d in distances({**board, (q, r): "S"}, "S", True).values() if d == 1])


def reference_evaluation(policy: AmazonsPolicy, pos: Position) -> float:
    """The evaluation as engines/amazons/territory.py documents it, square by square."""
    board = board_of(pos)
    me, them = "WB"[pos.to_move], "WB"[1 - pos.to_move]

    def lead(queen: bool) -> int:
        mine, theirs = distances(board, me, queen), distances(board, them, queen)
        return sum(mine[c] < theirs[c] for c in mine) - sum(theirs[c] < mine[c] for c in mine)

    mine, theirs = distances(board, me, True), distances(board, them, True)
    mobility = sum(d == 1 for d in mine.values()) - sum(d == 1 for d in theirs.values())
    trapped = {
        side: sum(moves_from(board, *c) < TRAPPED for c, ch in board.items() if ch == side)
        for side in (me, them)
    }
    raw = (
        policy.queen_weight * lead(True)
        + policy.king_weight * lead(False)
        + policy.mobility_weight * mobility
    )
    raw += policy.trapped_weight * (trapped[them] - trapped[me])
    return EVAL_LIMIT * math.tanh(raw / policy.scale)


def random_positions(games: int, seed: int) -> list[Position]:
    """Every position of ``games`` random games: the open board, walled-in amazons and the end."""
    out = []
    for g in range(games):
        rng = random.Random(seed + g)
        pos = GAME.start()
        while GAME.outcome(pos) is None:
            out.append(pos)
            pos = GAME.play(pos, rng.choice(GAME.legal_moves(pos)))
    return out


POSITIONS = random_positions(3, 100)


def test_bitboard_evaluation_equals_the_square_by_square_one() -> None:
    policy = AmazonsPolicy(GAME)
    assert len(POSITIONS) > 150
    for pos in POSITIONS[::3]:
        assert math.isclose(policy.evaluate(pos), reference_evaluation(policy, pos), abs_tol=1e-12)


def test_half_moves_make_exactly_the_legal_turns() -> None:
    rules = AmazonsHalves()
    for pos in POSITIONS[::9]:
        root = from_position(pos)
        turns = {}
        for first in rules.legal_moves(root):
            half = rules.play(root, first)
            assert half[MOVED] != NOT_MOVED and rules.outcome(half) is None
            for second in rules.legal_moves(half):
                turns[first | second] = rules.play(half, second)
        legal = GAME.legal_moves(pos)
        assert sorted(turns) == sorted(legal)
        for move in legal:
            assert turns[move] == from_position(GAME.play(pos, move))


CLOSING = """
B . x . . . . . . .
x x . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . W . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
"""


def test_the_search_walls_in_the_last_free_amazon() -> None:
    # Black's a10 has one empty neighbour, b10: a White arrow there wins at once. Only the diagonal j2-b10
    # reaches it (b9 and c10 hold arrows), and e5 gets onto it at f6, e7 or g5. Every other turn lets Black
    # out.
    pos = Amazons.from_diagram(CLOSING)
    found = think(GAME, pos, nodes=5000, seed=1)
    assert GAME.format_move(pos, found.best).endswith("/b10")
    assert found.proven and found.value > WIN - 0.01
    assert GAME.outcome(GAME.play(pos, found.best)) is not None
