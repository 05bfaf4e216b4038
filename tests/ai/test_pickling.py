"""What the parallel search sends to its workers survives pickling, in the pure and the compiled build.

Compiled with mypyc (README), a class is pickled by mypyc's own rules: these tests hold both builds to
Python's (the compiled test run in tests/test_compiled.py runs them against the compiled engines).
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from engines import registry
from engines.ai import think
from engines.ai.levels import level
from engines.ai.policy import policy_for
from engines.game import Game, Outcome
from engines.physical import Thing
from engines.spacetiles.board import load_board
from tests.ai.toy import TicTacToe


def round_trip(obj: Any) -> Any:
    return pickle.loads(pickle.dumps(obj))


def some_position(game: Game[Any, Any], plies: int, seed: int) -> Any:
    rng = random.Random(seed)
    pos = game.start()
    for _ in range(plies):
        pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    return pos


@pytest.mark.parametrize("game_id", registry.available())
def test_a_game_its_policy_and_a_position_come_back_playing_the_same(game_id: str) -> None:
    game = registry.make(game_id)
    pos = some_position(game, 6, 1)
    back_game, back_policy, back_pos = round_trip((game, policy_for(game), pos))
    assert type(back_game) is type(game) and back_game.chosen == game.chosen
    assert back_pos == pos and back_game.key(back_pos) == game.key(pos)
    assert back_game.legal_moves(back_pos) == game.legal_moves(pos)
    assert back_game.geometry == game.geometry
    assert back_policy.evaluate(back_pos) == policy_for(game).evaluate(pos)
    # Same seed and node budget, same answer: what a worker finds is what this process would.
    assert (
        think(back_game, back_pos, nodes=300, seed=5, policy=back_policy).best
        == think(game, pos, nodes=300, seed=5).best
    )


def test_a_game_keeps_its_rule_options() -> None:
    game = registry.make("kingofrings", ["empty_steps"])
    assert round_trip(game).chosen == frozenset({"empty_steps"})


def test_a_policy_keeps_settings_set_on_it() -> None:
    # Calibration sets handicaps on one policy, tuning matches its weights (bench_ai.py versus).
    policy = policy_for(registry.make("desdemona"))
    policy.handicaps = ((0.5, 7),) * 9
    policy.stone_weight = 2.0  # type: ignore[attr-defined]
    back = round_trip(policy)
    assert back.handicaps == ((0.5, 7),) * 9 and back.stone_weight == 2.0


def test_desdemonas_half_move_model_survives_pickling() -> None:
    game = registry.make("desdemona")
    pos = some_position(game, 5, 2)
    split = policy_for(game).split_turns(pos)
    assert split is not None
    rules, policy, root = round_trip((split.rules, split.policy, split.root))
    assert root == split.root and rules.legal_moves(root) == split.rules.legal_moves(split.root)
    assert policy.evaluate(root) == split.policy.evaluate(split.root)


def test_a_game_written_in_python_survives_pickling() -> None:
    game = TicTacToe()
    back = round_trip(game)
    assert type(back) is TicTacToe and back.legal_moves(back.start()) == list(range(9))


def test_the_frozen_values_come_back_equal() -> None:
    values = [
        Outcome(1, (20, 13)),
        Outcome(None),
        Thing("stone", 0),
        Thing("ring_blue"),
        registry.make("flipfour").geometry,
        load_board(),
        level(4, policy_for(registry.make("flipfour")).handicaps),
        think(TicTacToe(), TicTacToe().start(), nodes=50),
    ]
    for value in values:
        assert round_trip(value) == value
