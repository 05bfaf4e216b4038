"""`magboard match GAME [--a SPEC] [--b SPEC] [--games N] [--seconds S]`: play a match and count the result.

Player specs: ``ai`` or ``ai:LEVEL`` or ``ai:LEVEL:ALGORITHM`` (our AI, one
process) and ``openspiel`` (OpenSpiel's Python MCTSBot with random rollouts,
solver on, uct_c 2, stopped at the same time per move) and ``gtp:COMMAND LINE``
(a Go Text Protocol engine, for the games that speak it: ``gtp:gnugo --mode gtp
--level 10``).  Each game prints one JSON line with its moves; the last line is
the summary from A's view with a 95% Wilson interval of A's score.
"""

from __future__ import annotations

import argparse
import json

from engines.ai.levels import HIGHEST, LOWEST
from engines.ai.match import AiPlayer, GameResult, Player, Tally, play_match
from engines.game import Game, M, P
from engines.gtp import gtp_facts
from host.cli_error import CliError
from host.gamearg import add_game_arguments, make_game
from host.peers.gtp.player import GtpPlayer
from host.peers.gtp.protocol import GtpError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("match", help="play two players against each other and count wins")
    add_game_arguments(p, moves=False)
    p.add_argument("--a", default="ai", metavar="SPEC", help="first contestant (default: ai = level 10)")
    p.add_argument("--b", default="openspiel", metavar="SPEC", help="second contestant (default: openspiel)")
    p.add_argument("--games", type=int, default=10, help="number of games, colours alternating")
    p.add_argument("--seconds", type=float, default=0.25, help="wall-clock time per move for both")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run)


def make_player(game: Game[P, M], spec: str, seed: int) -> Player:
    kind, _, line = spec.partition(":")
    if kind == "gtp":
        if gtp_facts(game) is None:
            raise CliError(f"player {spec!r}: {game.name} is not played through GTP")
        return GtpPlayer(game, line)
    parts = spec.split(":")
    if parts[0] == "openspiel" and len(parts) == 1:
        try:
            from host.peers.openspiel_bot import OpenSpielMctsPlayer
        except ImportError as exc:
            raise CliError(f"the openspiel player needs the open-spiel package ({exc})") from None
        return OpenSpielMctsPlayer(game.id, seed)
    if parts[0] == "ai" and len(parts) <= 3:
        try:
            level = int(parts[1]) if len(parts) > 1 else HIGHEST
        except ValueError:
            raise CliError(f"player {spec!r}: level must be a number {LOWEST}..{HIGHEST}") from None
        if not LOWEST <= level <= HIGHEST:
            raise CliError(f"player {spec!r}: level must be {LOWEST}..{HIGHEST}")
        algorithm = parts[2] if len(parts) == 3 else None
        if algorithm not in (None, "alphabeta", "mcts"):
            raise CliError(f"player {spec!r}: algorithm must be alphabeta or mcts")
        return AiPlayer(game, level, algorithm, seed)
    raise CliError(
        f"unknown player {spec!r} (expected ai, ai:LEVEL, ai:LEVEL:ALGORITHM, openspiel or gtp:COMMAND LINE)"
    )


def summary(game_id: str, players: tuple[Player, Player], tally: Tally, seconds: float) -> dict[str, object]:
    low, high = tally.interval()
    return {
        "game": game_id,
        "a": players[0].name,
        "b": players[1].name,
        "seconds": seconds,
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": round(tally.score(), 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "max_seconds": [round(s, 3) for s in tally.max_seconds],
    }


def run(args: argparse.Namespace) -> int:
    if args.games <= 0:
        raise CliError("--games must be 1 or more")
    if args.seconds <= 0:
        raise CliError("--seconds must be positive")
    game = make_game(args)
    players = (make_player(game, args.a, args.seed), make_player(game, args.b, args.seed + 7919))
    try:
        return _run(game, players, args)
    except GtpError as exc:
        raise CliError(str(exc)) from None
    finally:
        for player in players:
            if isinstance(player, GtpPlayer):
                player.close()


def _run(game: Game[P, M], players: tuple[Player, Player], args: argparse.Namespace) -> int:

    def report(index: int, result: GameResult, tally: Tally) -> None:
        line = {
            "index": index,
            "a_first": result.first == 0,
            "winner": None if result.winner is None else "ab"[result.winner],
            "plies": len(result.texts),
            "score": result.score,
            "max_seconds": [round(s, 3) for s in result.max_seconds],
            "tally": [tally.wins, tally.draws, tally.losses],
            "moves": " ".join(result.texts),
        }
        print(json.dumps(line), flush=True)

    tally = play_match(game, players, args.games, args.seconds, report)
    print(json.dumps({"summary": summary(game.id, players, tally, args.seconds)}), flush=True)
    return 0
