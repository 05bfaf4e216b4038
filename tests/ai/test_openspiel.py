"""OpenSpiel's own consistency checks on our games through the adapter: a peer's test suite for our rules.

``pyspiel.random_sim_test`` plays random games and checks, at every step,
cloning, serialisation round trips, legal-action sorting and returns.  Needs
the `open-spiel` package; skipped cleanly without it.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from engines import registry  # noqa: E402
from host.peers.openspiel_game import END_TOKEN, actions_for, load, tokens_of  # noqa: E402

GAMES = registry.available()


@pytest.mark.parametrize("game_id", GAMES)
def test_random_simulations_pass_openspiel_checks(game_id: str) -> None:
    pyspiel.random_sim_test(load(game_id), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_actions_for_a_move_text_play_that_move(game_id: str) -> None:
    """Random games driven by move texts: the adapter lands on the engine's own positions."""
    game = load(game_id)
    rules = registry.make(game_id)
    rng = random.Random(3)
    state = game.new_initial_state()
    pos = rules.start()
    for _ in range(30):
        if rules.outcome(pos) is not None:
            break
        move = rng.choice(rules.legal_moves(pos))
        text = rules.format_move(pos, move)
        for action in actions_for(state, text):
            assert action in state.legal_actions()
            state.apply_action(action)
        pos = rules.play(pos, move)
        assert rules.key(state.position) == rules.key(pos)
    assert state.is_terminal() == (rules.outcome(pos) is not None)


def test_tokens_spell_the_move_text() -> None:
    assert tokens_of("a4-a6/c8") == ("a4", "-a6", "/c8")
    assert tokens_of("g3:d3,f2") == ("g3", ":d3", ",f2")
    assert tokens_of("b2xc3") == ("b2", "xc3")
    assert tokens_of("*d4") == ("*d4",)
    assert tokens_of("pass") == ("pass",)
    with pytest.raises(ValueError):
        tokens_of("a4 a6")


def test_a_placement_that_begins_a_longer_one_needs_end() -> None:
    """Flip Four's second turn: ``b2`` alone and ``b2,d4`` both exist, so ``b2`` is finished by END."""
    game = load("flipfour")
    state = game.new_initial_state()
    for action in actions_for(state, "c3"):
        state.apply_action(action)
    actions = actions_for(state, "b2")
    assert game.tokens[actions[-1]] == END_TOKEN
    for action in actions:
        state.apply_action(action)
    assert state.turns_played() == 2
