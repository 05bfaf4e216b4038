"""Go 7x7 knowledge for the search: area, groups in atari, and eyes.

The game is decided by area with White's komi, so the evaluation estimates
each player's area now: the stones that live, and the empty points where one
colour's live stones weigh more (those next to a point count twice those two
steps away).  A stone outweighed around it by the opponent's is dead and
counts for the opponent, so an invader deep in the opponent's area is worth
nothing (counting it, an evaluation prefers invading to taking stones).  A
group in atari is as good as lost when it is the opponent's move: the side to
move gains the biggest enemy group in atari and loses part of its own biggest
one.  Moves are ordered captures first, then escapes from atari, then by that
evaluation one move ahead; playouts never fill their own eyes and pass only
with no other move, as Go programs' playouts do.
"""

from __future__ import annotations

import math
import random

from mypy_extensions import mypyc_attr

from engines.ai.levels import Handicap
from engines.ai.policy import EVAL_LIMIT, Policy, terminal_value
from engines.bits import cells_of
from engines.go7.board import (
    FULL,
    GEOMETRY,
    KOMI,
    NEIGHBOURS,
    PASS,
    POINTS,
    dead_stones,
    group,
    spread,
    weight,
)
from engines.go7.rules import Go7, Position


def _diagonals(point: int) -> int:
    q, r = GEOMETRY.coords[point]
    found = (GEOMETRY.at((q + dq, r + dr)) for dq in (-1, 1) for dr in (-1, 1))
    return sum(1 << p for p in found if p is not None)


DIAGONALS: tuple[int, ...] = tuple(_diagonals(p) for p in range(POINTS))
# An edge or corner point is an eye only with every diagonal held; inside, one diagonal may be the enemy's.
ENEMY_DIAGONALS_ALLOWED: tuple[int, ...] = tuple(
    1 if DIAGONALS[p].bit_count() == 4 else 0 for p in range(POINTS)
)


def estimate(black: int, white: int) -> tuple[int, int]:
    """(Black's, White's) estimated area: the stones that live, and the empty points where one colour's
    live stones weigh more (``weight``).  A stone the opponent's outweigh around it is dead
    (``dead_stones``): an invader in the opponent's area counts for the opponent."""
    dead_black, dead_white = dead_stones(black, white)
    live_black, live_white = black & ~dead_black, white & ~dead_white
    black_area = live_black.bit_count() + dead_white.bit_count()
    white_area = live_white.bit_count() + dead_black.bit_count()
    for point in cells_of(FULL & ~(black | white)):
        lead = weight(live_black, point) - weight(live_white, point)
        if lead > 0:
            black_area += 1
        elif lead < 0:
            white_area += 1
    return black_area, white_area


def in_atari(stones: int, empty: int) -> tuple[int, int]:
    """The groups of ``stones`` with one liberty: (how many stones the biggest has, their last liberties)."""
    biggest = last = 0
    left = stones
    while left:
        chain = group(left & -left, stones)
        left &= ~chain
        liberties = spread(chain) & empty
        if liberties & (liberties - 1) == 0:
            biggest = max(biggest, chain.bit_count())
            last |= liberties
    return biggest, last


CAPTURE, SAVE, PLAIN, WEAK = 3, 2, 1, 0  # the tactical classes of ``order``, best first


def _tactics(mine: int, theirs: int, escapes: int, child: Position, move: int) -> int:
    """The tactical class of ``move`` (which made ``child``) for the side that played it."""
    if move == PASS:
        return PLAIN if child.over else WEAK
    after_theirs = child.white if child.to_move else child.black
    if theirs & ~after_theirs:
        return CAPTURE
    after_mine = mine | 1 << move
    own = group(1 << move, after_mine)
    liberties = spread(own) & FULL & ~(after_mine | theirs)
    if liberties & (liberties - 1) == 0 or is_own_eye(mine, theirs, move):
        return WEAK
    return SAVE if escapes >> move & 1 else PLAIN


def is_own_eye(mine: int, theirs: int, point: int) -> bool:
    """Whether ``point`` is an eye of ``mine``: every neighbour is one of its stones, and enough diagonals
    are too that the opponent cannot make it false (the playouts' rule: never fill one)."""
    if NEIGHBOURS[point] & ~mine:
        return False
    return (DIAGONALS[point] & theirs).bit_count() <= ENEMY_DIAGONALS_ALLOWED[point]


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class Go7Policy(Policy[Position, int]):
    # Alpha-beta beat MCTS 16-4 in self-play at 0.25 s a move (benchmarks/bench_ai.py versus go7 --set
    # algorithm=alphabeta --games 20), and a quiescence search of captures added nothing (11-9); MCTS's
    # best playouts were 2 moves long (15-5 against 8).
    algorithm = "alphabeta"
    # Levels 1-9 (breadth, node cap) at equal Elo steps, by benchmarks/calibrate_levels.py (13 rungs, 12
    # games a match, two runs): level 10 at 0.25 s a move (about 300 nodes) is 1120 Elo above random play,
    # so 125 a level. Two moves to choose from instead of one are already 400 Elo, so levels 2-4 all
    # choose between 2 moves of the usual 20-50; a node cap adds little until a whole ply is searched.
    handicaps: tuple[Handicap, ...] = (
        (0.0, 1),
        (0.02, 1),
        (0.03, 1),
        (0.05, 1),
        (0.25, 1),
        (0.47, 1),
        (0.75, 3),
        (0.93, 6),
        (1.0, 107),
    )
    playout_depth = 2
    widening_base = 3.0
    widening_exponent = 0.5
    exploration = 0.7
    # The evaluation's weights, in points: the share of its own biggest group in atari that the side to
    # move loses (it may still save it), and the area lead that is worth tanh(1).
    atari_share = 0.5
    scale = 8.0

    def __init__(self, game: Go7) -> None:
        super().__init__(game)
        assert isinstance(game, Go7)

    def result(self, pos: Position) -> float | None:
        return terminal_value(self.game, pos) if pos.over else None

    def evaluate(self, pos: Position) -> float:
        black, white = estimate(pos.black, pos.white)
        lead = black - white - KOMI
        mine, theirs = (pos.white, pos.black) if pos.to_move else (pos.black, pos.white)
        empty = FULL & ~(mine | theirs)
        raw = (-lead if pos.to_move else lead) + 2 * in_atari(theirs, empty)[0]
        raw -= 2 * self.atari_share * in_atari(mine, empty)[0]
        return EVAL_LIMIT * math.tanh(raw / self.scale)

    def order(self, pos: Position, moves: list[int]) -> list[int]:
        """Captures first, then the moves that save a group in atari, then the rest, each by the evaluation
        one move ahead; last the moves that put their own group in atari or fill an own eye, and the pass
        unless it ends the game.  An area estimate alone ranks a capture only by the area it changes."""
        if len(moves) < 2:
            return moves
        game = self.game
        me = pos.to_move
        mine, theirs = (pos.white, pos.black) if me else (pos.black, pos.white)
        empty = FULL & ~(mine | theirs)
        escapes = in_atari(mine, empty)[1]
        keys = []
        for move in moves:
            child = game.play(pos, move)
            done = self.result(child)
            value = 2 * done if done is not None else self.evaluate(child)
            keys.append(
                (
                    _tactics(mine, theirs, escapes, child, move),
                    value if child.to_move == me else -value,
                )
            )
        ranked = sorted(range(len(moves)), key=keys.__getitem__, reverse=True)
        return [moves[i] for i in ranked]

    def playout_move(self, pos: Position, moves: list[int], rng: random.Random) -> int:
        """A random move that fills no eye of the mover's own; the pass only when nothing else is left."""
        mine, theirs = (pos.white, pos.black) if pos.to_move else (pos.black, pos.white)
        points = moves[:-1]  # the pass is always last
        while points:
            i = rng.randrange(len(points))
            move = points[i]
            if not is_own_eye(mine, theirs, move):
                return move
            points[i] = points[-1]
            points.pop()
        return PASS
