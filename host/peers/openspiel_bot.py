"""OpenSpiel's Python MCTSBot (random rollouts, solver) as a timed opponent for our AI.

MCTSBot counts simulations; a match gives both sides the same wall-clock time,
so ``TimedMctsBot`` stops the search at a deadline.  It checks the clock at the
start of each simulation (in ``_apply_tree_policy``) and unwinds before
touching the tree, so the tree it answers from is consistent.  (OpenSpiel's C++
MCTSBot crashes on Python-defined games, so the Python one is the baseline.)
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from host.peers.openspiel_game import MagboardState, actions_for, load

UCT_C = 2.0
NO_SIMULATION_LIMIT = 10**9


class _Deadline(Exception):
    pass


class TimedMctsBot(mcts.MCTSBot):  # type: ignore[misc]
    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        rng = np.random.RandomState(seed)
        super().__init__(
            game,
            uct_c=UCT_C,
            max_simulations=NO_SIMULATION_LIMIT,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
            solve=True,
            random_state=rng,
        )
        self.seconds = seconds
        self.deadline = 0.0
        self._root: Any = None

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self._root = root
        if root.children and time.perf_counter() >= self.deadline:
            raise _Deadline
        return super()._apply_tree_policy(root, state)

    def mcts_search(self, state: Any) -> Any:
        try:
            return super().mcts_search(state)
        except _Deadline:
            return self._root


class OpenSpielMctsPlayer:
    """Plays whole magboard turns with a TimedMctsBot, one sub-decision (move token) at a time."""

    def __init__(self, game_id: str, seed: int = 0) -> None:
        self.game = load(game_id)
        self.seed = seed
        self.name = f"openspiel-mcts(uct_c={UCT_C})"

    def choose_text(self, texts: list[str], seconds: float) -> str:
        """The canonical text of the move the bot plays after the moves ``texts`` from the start."""
        state: MagboardState = self.game.new_initial_state()
        for text in texts:
            for action in actions_for(state, text):
                state.apply_action(action)
        bot = TimedMctsBot(self.game, seconds, self.seed + len(texts))
        turn_end = time.perf_counter() + seconds
        tokens: list[str] = []
        mover = state.current_player()
        while not state.is_terminal() and state.current_player() == mover:
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            else:
                left = turn_end - time.perf_counter()
                bot.deadline = time.perf_counter() + (left if state.decides_turn() else left / 2)
                action = bot.step(state)
            token = self.game.tokens[action]
            if token != ".":
                tokens.append(token)
            completed = state.turns_played()
            state.apply_action(action)
            if state.turns_played() > completed:
                break
        return "".join(tokens)
