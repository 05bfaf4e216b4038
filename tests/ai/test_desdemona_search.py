"""Desdemona's bitboard evaluation and half-move model against slow references built from the rules."""

from __future__ import annotations

import math
import random

import pytest

from engines.ai import think
from engines.ai.policy import EVAL_LIMIT
from engines.desdemona.policy import DesdemonaPolicy
from engines.desdemona.rules import EMPTY, QUEEN, RAYS, SIZE, STONE, Desdemona, Position
from engines.desdemona.turns import DesdemonaHalves, from_position

GAME = Desdemona()


def reference_distances(board: bytes, queen: int) -> list[int]:
    """Queen moves from the nearest queen of that kind to each square (99: unreachable), one ray at a time."""
    dist = [99] * SIZE
    frontier = [c for c in range(SIZE) if board[c] == queen]
    for c in frontier:
        dist[c] = 0
    step = 0
    while frontier:
        step += 1
        nxt = []
        for cell in frontier:
            for ray in RAYS[cell]:
                for c in ray:
                    if board[c] != EMPTY:
                        break
                    if dist[c] > step:
                        dist[c] = step
                        nxt.append(c)
        frontier = nxt
    return dist


def reference_reach(board: bytes, queen: int) -> int:
    count = 0
    for cell in range(SIZE):
        if board[cell] == queen:
            for ray in RAYS[cell]:
                for c in ray:
                    if board[c] != EMPTY:
                        break
                    count += 1
    return count


def reference_evaluation(policy: DesdemonaPolicy, pos: Position) -> float:
    """The evaluation as engines/desdemona/policy.py documents it, square by square."""
    board, me = pos.board, pos.to_move
    stones = board.count(STONE[me]) - board.count(STONE[1 - me])
    if not policy.territory_weight:
        mobility = reference_reach(board, QUEEN[me]) - reference_reach(board, QUEEN[1 - me])
        raw = policy.stone_weight * stones + policy.mobility_weight * mobility
        return EVAL_LIMIT * math.tanh(raw / policy.scale)
    mine = reference_distances(board, QUEEN[me])
    theirs = reference_distances(board, QUEEN[1 - me])
    territory = sum(a < b for a, b in zip(mine, theirs, strict=True)) - sum(
        b < a for a, b in zip(mine, theirs, strict=True)
    )
    mobility = mine.count(1) - theirs.count(1)
    raw = policy.stone_weight * stones + policy.territory_weight * territory
    raw += policy.mobility_weight * mobility
    return EVAL_LIMIT * math.tanh(raw / policy.scale)


def random_positions(games: int, seed: int) -> list[Position]:
    """Every position of ``games`` random games: open boards, crowded ones, passes and the end."""
    out = []
    for g in range(games):
        rng = random.Random(seed + g)
        pos = GAME.start()
        while GAME.outcome(pos) is None:
            out.append(pos)
            pos = GAME.play(pos, rng.choice(GAME.legal_moves(pos)))
    return out


POSITIONS = random_positions(6, 100)


@pytest.mark.parametrize("territory_weight", [0.25, 0.0])
def test_bitboard_evaluation_equals_the_square_by_square_one(territory_weight: float) -> None:
    policy = DesdemonaPolicy(GAME)
    policy.territory_weight = territory_weight
    assert len(POSITIONS) > 300
    for pos in POSITIONS:
        assert policy.evaluate(pos) == reference_evaluation(policy, pos)


def test_half_moves_make_exactly_the_legal_turns() -> None:
    rules = DesdemonaHalves()
    for pos in POSITIONS[::7]:
        root = from_position(pos)
        turns = {}
        for first in rules.legal_moves(root):
            half = rules.play(root, first)
            if half[4] != root[4]:  # the turn is over: the first move of the game, or a pass
                turns[first] = half
                continue
            for second in rules.legal_moves(half):
                turns[first | second] = rules.play(half, second)
        legal = GAME.legal_moves(pos)
        assert sorted(turns) == sorted(legal)
        for move in legal:
            assert turns[move] == from_position(GAME.play(pos, move))


def test_the_search_answers_a_whole_turn_and_repeats_itself() -> None:
    pos = POSITIONS[3]
    first = think(GAME, pos, nodes=3000, seed=5)
    second = think(GAME, pos, nodes=3000, seed=5)
    assert first.best in GAME.legal_moves(pos)
    assert (first.best, first.pv, first.value, first.depth) == (
        second.best,
        second.pv,
        second.value,
        second.depth,
    )
    line = pos
    for move in first.pv:
        assert move in GAME.legal_moves(line)
        line = GAME.play(line, move)


def test_two_whole_turns_fit_a_budget_of_thirty_thousand_positions_mid_game() -> None:
    # Four random turns in: over 2,000 legal turns.  Searched turn by turn, depth 2 needs some 2,000
    # replies to each of them; as half-moves with cut-off ordering it needs about 14,000 positions.
    rng = random.Random(0)
    pos = GAME.start()
    for _ in range(4):
        pos = GAME.play(pos, rng.choice(GAME.legal_moves(pos)))
    assert len(GAME.legal_moves(pos)) > 2000
    found = think(GAME, pos, nodes=30_000)
    assert found.depth >= 2
