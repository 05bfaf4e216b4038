"""Any magboard game as an OpenSpiel game (the `open-spiel` PyPI package), for peer bots and checks.

Action encoding: a turn is played as the sequence of tokens of its canonical
move text - the first cell, then each separator with the cell after it
(``a4-a6/c8`` is ``a4``, ``-a6``, ``/c8``; ``g3:d3,f2`` is ``g3``, ``:d3``,
``,f2``; ``pass`` is one token).  Where a move's text is also the beginning of
a longer move's (Flip Four ``b2`` and ``b2,d4``) an END action finishes the
shorter one.  So every game needs only about (separators x cells) distinct
actions, even Space Tiles with thousands of turns per position, and the same
player keeps moving until a turn is complete, as OpenSpiel's Amazons does.

The adapter sits outside engines/: it uses only the Game interface.  Returns
are +1/-1 for a win and 0 for a draw (points games count only the winner).
"""

from __future__ import annotations

import re
from typing import Any

import pyspiel

from engines import registry
from engines.game import Game

SEPARATORS = ("", "-", "x", "/", ":", ",", "*")
PASS_TOKEN = "pass"
END_TOKEN = "."
TOKEN_RE = re.compile(r"pass|[-x/:,*]?[a-w]\d+")
# Enough for Space Tiles (40 tiles, each turn several tokens) and for the long Desdemona games.
MAX_TURNS = 1000


def tokens_of(text: str) -> tuple[str, ...]:
    """The tokens of a canonical move text; ValueError if they do not spell it exactly."""
    tokens = tuple(TOKEN_RE.findall(text))
    if "".join(tokens) != text:
        raise ValueError(f"move text {text!r} does not split into adapter tokens")
    return tokens


class _Cache:
    """The current position and its move table: shared by clones, dropped by pickling.

    Engine positions need not be picklable, so a pickled state keeps only its
    move history and rebuilds the position from it on first use.
    """

    __slots__ = ("by_prefix", "pos", "table")

    def __init__(self, pos: Any = None) -> None:
        self.pos = pos
        self.table: list[tuple[tuple[str, ...], Any]] | None = None
        # The moves that go on from each turn prefix seen so far (each filtered from its parent's).
        self.by_prefix: dict[tuple[str, ...], list[tuple[tuple[str, ...], Any]]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return self

    def __reduce__(self) -> tuple[type[_Cache], tuple[()]]:
        return (_Cache, ())


class MagboardState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: MagboardGame) -> None:
        super().__init__(game)
        self._history: tuple[Any, ...] = ()
        self._prefix: tuple[str, ...] = ()
        self._cache = _Cache(game.rules.start())

    # --- helpers -----------------------------------------------------------------
    @property
    def rules(self) -> Game[Any, Any]:
        rules: Game[Any, Any] = self.get_game().rules
        return rules

    @property
    def position(self) -> Any:
        if self._cache.pos is None:
            rules = self.rules
            pos = rules.start()
            for move in self._history:
                pos = rules.play(pos, move)
            self._cache = _Cache(pos)
        return self._cache.pos

    def _moves(self) -> list[tuple[tuple[str, ...], Any]]:
        """(tokens, move) of every legal move of the current position, cached per position."""
        pos = self.position
        if self._cache.table is None:
            rules = self.rules
            self._cache.table = [(tokens_of(rules.format_move(pos, m)), m) for m in rules.legal_moves(pos)]
        return self._cache.table

    def _candidates(self) -> list[tuple[tuple[str, ...], Any]]:
        """The moves whose tokens begin with the turn so far."""
        prefix = self._prefix
        if not prefix:
            return self._moves()
        known = self._cache.by_prefix.get(prefix)
        if known is None:
            n = len(prefix) - 1
            self._prefix = prefix[:-1]
            parent = self._candidates()
            self._prefix = prefix
            known = [(t, m) for t, m in parent if len(t) > n and t[n] == prefix[n]]
            self._cache.by_prefix[prefix] = known
        return known

    def decides_turn(self) -> bool:
        """True when the next action completes the turn (every candidate move has one token left)."""
        n = len(self._prefix) + 1
        return all(len(t) <= n for t, _ in self._candidates())

    def turns_played(self) -> int:
        return len(self._history)

    # --- OpenSpiel API -------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.rules.to_move(self.position))

    def is_terminal(self) -> bool:
        return bool(self.rules.outcome(self.position) is not None)

    def _legal_actions(self, player: int) -> list[int]:
        n = len(self._prefix)
        index = self.get_game().vocab
        actions = set()
        for tokens, _ in self._candidates():
            actions.add(index[tokens[n]] if len(tokens) > n else index[END_TOKEN])
        return sorted(actions)

    def _apply_action(self, action: int) -> None:
        token = self.get_game().tokens[action]
        n = len(self._prefix)
        if token == END_TOKEN:
            exact = [m for t, m in self._candidates() if len(t) == n]
            self._play(exact[0])
            return
        self._prefix = (*self._prefix, token)
        candidates = self._candidates()
        if len(candidates) == 1 and len(candidates[0][0]) == n + 1:
            self._play(candidates[0][1])

    def _play(self, move: Any) -> None:
        self._cache = _Cache(self.rules.play(self.position, move))
        self._history = (*self._history, move)
        self._prefix = ()

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.get_game().tokens[action])

    def returns(self) -> list[float]:
        outcome = self.rules.outcome(self.position)
        if outcome is None or outcome.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        text: str = self.rules.render(self.position)
        if self._prefix:
            text += "\nturn so far: " + "".join(self._prefix)
        return text


class MagboardGame(pyspiel.Game):  # type: ignore[misc]
    game_id = ""

    def __init__(self, params: dict[str, object] | None = None, *, game_id: str = "") -> None:
        game_id = game_id or self.game_id
        self.rules: Game[Any, Any] = registry.make(game_id)
        self.tokens = [sep + name for sep in SEPARATORS for name in self.rules.geometry.names]
        self.tokens += [PASS_TOKEN, END_TOKEN]
        self.vocab = {t: i for i, t in enumerate(self.tokens)}
        game_type = pyspiel.GameType(
            short_name=short_name(game_id),
            long_name=f"magboard {self.rules.name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=2,
            min_num_players=2,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=False,
            provides_observation_tensor=False,
            parameter_specification={},
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.tokens),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_TURNS * 8,
        )
        super().__init__(game_type, info, params or {})

    def new_initial_state(self) -> MagboardState:
        return MagboardState(self)


def short_name(game_id: str) -> str:
    return f"magboard_{game_id}"


def register(game_id: str) -> str:
    """Register ``game_id`` with pyspiel (once) and return its OpenSpiel short name."""
    name = short_name(game_id)
    if name not in pyspiel.registered_names():
        # pyspiel wants a class as the factory (a closure crashes the interpreter at exit).
        factory = type(f"MagboardGame_{game_id}", (MagboardGame,), {"game_id": game_id})
        pyspiel.register_game(factory(game_id=game_id).get_type(), factory)
    return name


def load(game_id: str) -> Any:
    """The OpenSpiel game for a magboard game id."""
    return pyspiel.load_game(register(game_id))


def actions_for(state: MagboardState, text: str) -> list[int]:
    """The OpenSpiel actions that play the canonical move ``text`` from a turn's start."""
    game = state.get_game()
    tokens = tokens_of(text)
    actions = [game.vocab[t] for t in tokens]
    complete = [t for t, _ in state._moves() if t[: len(tokens)] == tokens]
    if len(complete) > 1:
        actions.append(game.vocab[END_TOKEN])
    return actions
