"""The King of Rings evaluation's move counting against the game's own move list."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engines.kingofrings.policy import KingOfRingsPolicy
from engines.kingofrings.rules import KNIGHT, PASS, KingOfRings, Position


def listed_gains(game: KingOfRings, pos: Position, me: int) -> tuple[int, int]:
    """(number of legal moves, best points one of them takes) for ``me`` to move, from ``legal_moves``."""
    mine = pos._replace(player=me)
    moves = game.legal_moves(mine)
    best = 0
    for move in moves:
        if move == PASS:
            continue
        dest = move & 63
        code = pos.board[dest]
        best = max(best, sum(pos.stacks[dest]) if code in KNIGHT else code)
    return len(moves), best


def random_game_positions(game: KingOfRings, games: int = 8) -> Iterator[Position]:
    """Every position of ``games`` games of random moves (seeds 0, 1, ...)."""
    for seed in range(games):
        rng = random.Random(seed)
        pos = game.start()
        while not pos.over:
            yield pos
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))


def test_counted_gains_equal_the_listed_moves() -> None:
    for options in (frozenset(), frozenset({"empty_steps"})):
        game = KingOfRings(options)
        policy = KingOfRingsPolicy(game)
        checked = 0
        for pos in random_game_positions(game):
            for me in (0, 1):
                assert policy._gains(pos, me) == listed_gains(game, pos, me)
            checked += 1
        assert checked > 200


def test_noisy_moves_are_the_captures_of_holders_richest_first() -> None:
    game = KingOfRings()
    policy = KingOfRingsPolicy(game)
    captures_seen = 0
    for pos in random_game_positions(game):
        expected = {
            move
            for move in game.legal_moves(pos)
            if move != PASS and pos.board[move & 63] in KNIGHT and pos.stacks[move & 63]
        }
        noisy = policy.noisy(pos)
        assert set(noisy) == expected and len(noisy) == len(expected)
        values = [sum(pos.stacks[move & 63]) for move in noisy]
        assert values == sorted(values, reverse=True)
        captures_seen += len(noisy)
    assert captures_seen > 20
