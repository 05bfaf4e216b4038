"""Each game's evaluation and ordering in the search: hand-checked positions, and properties of all four."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import registry
from engines.ai import think
from engines.ai.lookahead import order_by_lookahead, winning_move
from engines.ai.policy import EVAL_LIMIT, policy_for

GAMES = registry.available()


def test_desdemona_takes_the_long_capture() -> None:
    # Black queen c6, white stones d5 e5 f5 g5, h5 empty: c6-c5 then the capture along rank 5 ending
    # on h5 turns four stones (+9 in the stone difference); any other turn shoots a white stone (-1)
    # and White's lone queen on j10 can take back at most one stone.
    from engines.desdemona.rules import Desdemona

    game = registry.make("desdemona")
    pos = Desdemona.from_diagram(
        """
        . . . . . . . . . W
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . B . . . . . . .
        . . . o o o o . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        """
    )
    found = think(game, pos, nodes=1500)
    assert game.format_move(pos, found.best) == "c6-c5xh5"


def test_king_of_rings_captures_the_rich_knight() -> None:
    # Player 0's two-ring knight on a1 jumps two squares: a3 or c1 take a silver ring (1 point),
    # c3 captures the enemy knight carrying blue, blue, big blue (11 points).
    from engines.kingofrings.rules import from_diagram

    game = registry.make("kingofrings")
    pos = from_diagram(
        """
        . . . . . . s
        . . . . . . s
        . . . . . . .
        . . . . . . .
        s . kbbB . . . .
        . . . . . . .
        Kss . s . . . .
        """
    )
    found = think(game, pos, nodes=3000)
    assert game.format_move(pos, found.best) == "a1xc3"


def test_space_tiles_completes_four_in_a_row() -> None:
    # Red on c3 d3 e3 and an empty tile on f3: a new tile touching two tiles (g3 next to f3 and f4,
    # for one) lets Red place one piece, on f3, making four red in a row - a win.
    game = registry.make("spacetiles")
    pos = game.from_diagram(  # type: ignore[attr-defined]
        """
        . . . . . . . . .
        . . . _ _ _ . . .
        . . R R R _ . . .
        . . . _ _ _ . . .
        . . . . . . . . .
        """,
        to_move=0,
    )
    found = think(game, pos, nodes=3000)
    outcome = game.outcome(game.play(pos, found.best))
    assert outcome is not None and outcome.winner == 0
    assert found.proven and found.value == 1.0


def _midgame(game: Any, plies: int, seed: int) -> Any:
    rng = random.Random(seed)
    pos = game.start()
    for _ in range(plies):
        moves = game.legal_moves(pos)
        nxt = game.play(pos, rng.choice(moves))
        if game.outcome(nxt) is not None:
            break
        pos = nxt
    return pos


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("algorithm", ["alphabeta", "mcts"])
def test_search_returns_a_legal_line(game_id: str, algorithm: str) -> None:
    game = registry.make(game_id)
    pos = _midgame(game, 6, 1)
    found = think(game, pos, nodes=400, algorithm=algorithm)
    assert found.best in game.legal_moves(pos)
    assert found.pv[0] == found.best
    line = pos
    for move in found.pv:
        assert move in game.legal_moves(line)
        line = game.play(line, move)
    assert -1.0 <= found.value <= 1.0


@pytest.mark.parametrize("game_id", GAMES)
def test_evaluation_is_bounded_and_from_the_side_to_move(game_id: str) -> None:
    game = registry.make(game_id)
    policy = policy_for(game)
    for seed in range(3):
        pos = _midgame(game, 8, seed)
        value = policy.evaluate(pos)
        assert -EVAL_LIMIT <= value <= EVAL_LIMIT


@pytest.mark.parametrize("game_id", GAMES)
def test_ordering_keeps_every_move(game_id: str) -> None:
    game = registry.make(game_id)
    policy = policy_for(game)
    pos = _midgame(game, 5, 2)
    moves = game.legal_moves(pos)
    assert sorted(map(repr, policy.order(pos, list(moves)))) == sorted(map(repr, moves))


def test_space_tiles_orders_and_plays_out_as_the_whole_positions_say() -> None:
    """Space Tiles' policy scores a turn from its pieces alone, once for all the tiles that lay the same
    pieces; the reference plays every turn out to a whole position (engines/ai/lookahead.py).  Mid-game
    positions have both placements and steps, so turns that share a destination but not a source occur."""
    game = registry.make("spacetiles")
    policy = policy_for(game)
    steps_seen = wins_seen = 0
    for seed in range(12):
        pos = _midgame(game, 6 + 2 * seed, seed)
        moves = game.legal_moves(pos)
        steps_seen += sum(1 for move in moves if move[1] >= 0)
        assert policy.order(pos, list(moves)) == order_by_lookahead(policy, pos, list(moves))
        wins = winning_move(policy, pos, moves)
        wins_seen += wins is not None
        if wins is not None:
            assert policy.playout_move(pos, moves, random.Random(0)) == wins
    assert steps_seen and wins_seen  # both kinds of turn, and positions with a winning turn, were tried


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_and_nodes_same_move(game_id: str) -> None:
    game = registry.make(game_id)
    pos = _midgame(game, 4, 3)
    first = think(game, pos, nodes=300, seed=9)
    second = think(game, pos, nodes=300, seed=9)
    assert (first.best, first.pv, first.value) == (second.best, second.pv, second.value)
