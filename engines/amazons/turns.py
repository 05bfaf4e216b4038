"""The Amazons for the search as half-moves: the amazon's move, then its arrow.

A whole turn has some 2,000 variants early on, and alpha-beta can refute a
turn only after generating and ordering all of them.  Split in two, a node
offers some 80 amazon moves and then some 25 arrows, so a refutation costs
one amazon move's arrows, and the history of cut-offs orders both halves.
The model's position is a tuple of ints (both sides' amazons and the arrows
as bitboards), cheap to make and to hash.

Half-moves use the game's move encoding: an amazon move is ``from | to << 7``
and an arrow ``arrow << 14``, so or-ing the two gives the game's move
(engines/amazons/rules.py).
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from engines.ai.halves import CutoffHistory
from engines.ai.policy import Policy, terminal_value
from engines.amazons.board import BEFORE, NEAR, RAY_TABLE, SIZE, can_step
from engines.amazons.rules import ARROW_AT, ARROW_PARTS, TO, Position
from engines.amazons.territory import Weights, evaluate
from engines.bits import cells_of
from engines.game import Outcome

# (amazons 0, amazons 1, arrows, to move, the moved amazon's square or NOT_MOVED).  Typed as a tuple of any
# length: compiled (mypyc), a fixed-length one would be unpacked into a C struct and packed into a new tuple
# again at every call through the search's generic interface.
Half = tuple[int, ...]
A0, A1, ARROWS, TO_MOVE, MOVED = range(5)
NOT_MOVED = -1
# AMAZON_PARTS[cell]: for each ray of RAY_TABLE[cell], the amazon moves from ``cell`` along it.
AMAZON_PARTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(cell | c << TO for c in squares) for _, _, squares in RAY_TABLE[cell]) for cell in range(SIZE)
)
# Ordering weight of an arrow next to an enemy amazon (it takes a square from it).
HEMMING_GAIN = 3
HISTORY_BITS = 40


def from_position(pos: Position) -> Half:
    return (pos.amazons[0], pos.amazons[1], pos.arrows, pos.to_move, NOT_MOVED)


def _along_rays(cell: int, occupied: int, parts: tuple[tuple[int, ...], ...]) -> list[int]:
    """The ``parts`` of each ray from ``cell`` up to its first occupied square."""
    out: list[int] = []
    before = BEFORE[cell]
    for (mask, ascending, _), ray in zip(RAY_TABLE[cell], parts, strict=True):
        block = occupied & mask
        if not block:
            out += ray
        else:
            out += ray[: before[(block & -block if ascending else block).bit_length() - 1]]
    return out


class AmazonsHalves:
    """The rules of the Amazons (engines/amazons/RULES.md) with each turn as two moves of the same player."""

    def mid_turn(self, pos: Half) -> bool:
        return pos[MOVED] != NOT_MOVED

    def to_move(self, pos: Half) -> int:
        return pos[TO_MOVE]

    def key(self, pos: Half) -> int:
        return hash(pos)

    def outcome(self, pos: Half) -> Outcome | None:
        if pos[MOVED] != NOT_MOVED or can_step(pos[pos[TO_MOVE]], pos[A0] | pos[A1] | pos[ARROWS]):
            return None
        return Outcome(1 - pos[TO_MOVE])

    def legal_moves(self, pos: Half) -> list[int]:
        a0, a1, arrows, me, moved = pos
        occupied = a0 | a1 | arrows
        if moved != NOT_MOVED:
            return _along_rays(moved, occupied, ARROW_PARTS[moved])
        moves: list[int] = []
        for origin in cells_of(a1 if me else a0):
            moves += _along_rays(origin, occupied, AMAZON_PARTS[origin])
        return moves

    def play(self, pos: Half, move: int) -> Half:
        a0, a1, arrows, me, moved = pos
        if moved != NOT_MOVED:
            return (a0, a1, arrows | 1 << (move >> ARROW_AT), 1 - me, NOT_MOVED)
        jump = 1 << (move & 0x7F) | 1 << (move >> TO)
        if me:
            return (a0, a1 ^ jump, arrows, me, move >> TO)
        return (a0 ^ jump, a1, arrows, me, move >> TO)


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class AmazonsHalvesPolicy(Policy[Half, int]):
    """The Amazons evaluation on half-move positions, and ordering by the history of cut-offs.

    Amazon moves come in the order of their history (engines/ai/halves.py), killers first; arrows first
    next to an enemy amazon, then by history.
    """

    algorithm = "alphabeta"
    order_frontier = True

    def __init__(self, rules: AmazonsHalves, weights: Weights, root: Half) -> None:
        super().__init__(rules)
        self.weights = weights
        self.root = root
        self.history = CutoffHistory()

    def result(self, pos: Half) -> float | None:
        return terminal_value(self.game, pos) if pos[MOVED] == NOT_MOVED else None

    def evaluate(self, pos: Half) -> float:
        me = pos[TO_MOVE]
        return evaluate(pos[me], pos[1 - me], pos[ARROWS], self.weights)

    def _order_root(self, pos: Half, moves: list[int]) -> list[int]:
        """The searched position's amazon moves by the evaluation after them: a search stopped in its first
        iteration has then tried the likeliest turns.  An evaluation per amazon move, so only at the root."""
        rules = self.game
        return sorted(moves, key=lambda move: self.evaluate(rules.play(pos, move)), reverse=True)

    def cutoff(self, pos: Half, move: int, depth: int) -> None:
        self.history.cutoff(pos[TO_MOVE], move, depth, pos[MOVED] == NOT_MOVED)

    def order(self, pos: Half, moves: list[int]) -> list[int]:
        if len(moves) < 2:
            return moves
        if pos == self.root:
            return self._order_root(pos, moves)
        side = pos[TO_MOVE]
        if pos[MOVED] == NOT_MOVED:
            return self.history.first_halves(side, moves)
        history = self.history.counts[side]
        near_enemy = 0
        for cell in cells_of(pos[1 - side]):
            near_enemy |= NEAR[cell]

        def gain(move: int) -> int:
            static = HEMMING_GAIN if near_enemy >> (move >> ARROW_AT) & 1 else 0
            return static << HISTORY_BITS | history[move]

        return sorted(moves, key=gain, reverse=True)
