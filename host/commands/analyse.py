"""`magboard analyse GAME [MOVE ...]`: the AI's best move, its evaluation and principal variation, as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from engines.ai import Analysis, think
from engines.ai.levels import HIGHEST, LOWEST
from engines.game import Game
from host.cli_error import CliError
from host.gamearg import add_game_arguments, make_game, play_moves


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyse", help="the AI's best move, evaluation and principal variation, as JSON")
    add_game_arguments(p)
    p.add_argument("--seconds", type=float, default=None, help="thinking time (default 2 s without --nodes)")
    p.add_argument("--nodes", type=int, default=None, help="node budget: the same answer on every machine")
    p.add_argument("--level", type=int, default=HIGHEST, help=f"playing level {LOWEST}..{HIGHEST}")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run)


def analysis_json(game: Game[Any, Any], pos: Any, found: Analysis) -> dict[str, Any]:
    return {
        "game": game.id,
        "to_move": game.to_move(pos),
        "best": game.format_move(pos, found.best),
        "value": round(found.value, 4),
        "proven": found.proven,
        "pv": game.line_texts(pos, found.pv),
        "algorithm": found.algorithm,
        "depth": found.depth,
        "nodes": found.nodes,
        "seconds": round(found.seconds, 3),
        "nodes_per_second": round(found.nodes_per_second()),
        "simulations": found.simulations if found.algorithm == "mcts" else None,
    }


def run(args: argparse.Namespace) -> int:
    if not LOWEST <= args.level <= HIGHEST:
        raise CliError(f"--level must be {LOWEST}..{HIGHEST}")
    if args.seconds is not None and args.seconds <= 0:
        raise CliError("--seconds must be positive")
    if args.nodes is not None and args.nodes <= 0:
        raise CliError("--nodes must be positive")
    game = make_game(args)
    pos = play_moves(game, args.moves)[-1]
    if game.outcome(pos) is not None:
        raise CliError("the game is over after these moves: nothing to analyse")
    found = think(game, pos, level=args.level, seconds=args.seconds, nodes=args.nodes, seed=args.seed)
    print(json.dumps(analysis_json(game, pos, found)))
    return 0
