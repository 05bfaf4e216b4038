"""Matches between two players at equal time per move: the strength measure for levels and peers.

A player is anything with ``name`` and ``choose_text(texts, seconds)`` (the
canonical text of its move after the moves ``texts`` from the start), so our
AI and a peer program meet on canonical notation only.  Colours alternate
game by game.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engines.ai import think
from engines.ai.policy import Policy
from engines.game import Game, M, P


class Resignation(Exception):
    """A player gives the game up (a GTP engine may): the other wins, and ``resign`` ends its moves."""


class Player(Protocol):
    name: str

    def choose_text(self, texts: list[str], seconds: float) -> str: ...


class AiPlayer:
    """Our AI at a level (and optionally a forced algorithm or policy), in one process.

    With ``nodes`` it searches a node budget instead of the match's time per
    move, which makes a whole match reproducible (the tests use this).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        level: int = 10,
        algorithm: str | None = None,
        seed: int = 0,
        workers: int = 1,
        nodes: int | None = None,
        policy: Policy[Any, Any] | None = None,
    ) -> None:
        self.game = game
        self.level = level
        self.algorithm = algorithm
        self.seed = seed
        self.workers = workers
        self.nodes = nodes
        self.policy = policy
        self.name = f"ai:{level}" + (f":{algorithm}" if algorithm else "")
        self._texts: list[str] = []
        self._positions: list[Any] = [game.start()]
        self.games = 0

    def _position(self, texts: list[str]) -> Any:
        if not texts or texts[: len(self._texts)] != self._texts:
            self.games += 1  # a new game (or a take-back): a fresh seed, so games differ
        common = 0
        while common < min(len(texts), len(self._texts)) and texts[common] == self._texts[common]:
            common += 1
        del self._positions[common + 1 :]
        for text in texts[common:]:
            self._positions.append(
                self.game.play(self._positions[-1], self.game.parse_move(self._positions[-1], text))
            )
        self._texts = list(texts)
        return self._positions[-1]

    def choose_text(self, texts: list[str], seconds: float) -> str:
        pos = self._position(texts)
        found = think(
            self.game,
            pos,
            level=self.level,
            seconds=None if self.nodes else seconds,
            nodes=self.nodes,
            policy=self.policy,
            seed=self.seed + 7919 * self.games + len(texts),
            workers=self.workers,
            algorithm=self.algorithm,
        )
        return self.game.format_move(pos, found.best)


@dataclass
class GameResult:
    """One game: ``first`` is the index (0 or 1) of the contestant that moved first."""

    first: int
    winner: int | None  # contestant index, None for a draw
    texts: list[str]
    max_seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    score: tuple[int, int] | None = None


def random_opening(game: Game[P, M], plies: int, seed: int) -> list[str]:
    """``plies`` random moves from the start (fewer if the game would end), as canonical texts."""
    rng = random.Random(seed)
    pos = game.start()
    texts: list[str] = []
    for _ in range(plies):
        move = rng.choice(game.legal_moves(pos))
        after = game.play(pos, move)
        if game.outcome(after) is not None:
            break
        texts.append(game.format_move(pos, move))
        pos = after
    return texts


def play_game(
    game: Game[P, M],
    players: tuple[Player, Player],
    first: int,
    seconds: float,
    opening: list[str] | None = None,
) -> GameResult:
    """One game from the start, or from after the ``opening`` moves (which count for nobody)."""
    texts = list(opening or [])
    pos = game.play_texts(texts)
    longest = [0.0, 0.0]
    while (outcome := game.outcome(pos)) is None:
        who = first if game.to_move(pos) == 0 else 1 - first
        started = time.perf_counter()
        try:
            text = players[who].choose_text(list(texts), seconds)
        except Resignation:
            texts.append("resign")
            return GameResult(first, 1 - who, texts, longest, game.score(pos))
        longest[who] = max(longest[who], time.perf_counter() - started)
        pos = game.play(pos, game.parse_move(pos, text))
        texts.append(text)
    winner = None if outcome.winner is None else (first if outcome.winner == 0 else 1 - first)
    return GameResult(first, winner, texts, longest, outcome.score)


@dataclass
class Tally:
    """Wins, draws and losses of contestant 0 against contestant 1."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    max_seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])

    def add(self, result: GameResult) -> None:
        if result.winner is None:
            self.draws += 1
        elif result.winner == 0:
            self.wins += 1
        else:
            self.losses += 1
        self.max_seconds = [max(a, b) for a, b in zip(self.max_seconds, result.max_seconds, strict=True)]

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self) -> float:
        """Contestant 0's share of the points (a draw is half a point)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.draws / 2, self.games)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of a success rate."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_match(
    game: Game[P, M],
    players: tuple[Player, Player],
    games: int,
    seconds: float,
    on_game: Callable[[int, GameResult, Tally], None] | None = None,
    opening_plies: int = 0,
    seed: int = 0,
) -> Tally:
    """``games`` games with alternating colours (contestant 0 starts the even-numbered ones).

    With ``opening_plies``, each pair of games starts from its own random
    opening, played once with each colour: deterministic players would
    otherwise repeat the same two games.
    """
    tally = Tally()
    for i in range(games):
        opening = random_opening(game, opening_plies, seed + i // 2) if opening_plies else None
        result = play_game(game, players, i % 2, seconds, opening)
        tally.add(result)
        if on_game is not None:
            on_game(i, result, tally)
    return tally
