"""`magboard analyse GAME [MOVE ...]`: the AI's best move, its evaluation and principal variation, as JSON."""

from __future__ import annotations

import argparse
import json

from engines.ai import Analysis, start_workers, think, wait_for_workers
from engines.ai.levels import HIGHEST, LOWEST
from engines.game import Game, M, P
from host.cli_error import CliError
from host.gamearg import add_game_arguments, add_workers_argument, make_game, play_moves
from host.stopping import until_stopped


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyse", help="the AI's best move, evaluation and principal variation, as JSON")
    add_game_arguments(p)
    p.add_argument("--seconds", type=float, default=None, help="thinking time (default 2 s without --nodes)")
    p.add_argument("--nodes", type=int, default=None, help="node budget: the same answer on every machine")
    p.add_argument("--level", type=int, default=HIGHEST, help=f"playing level {LOWEST}..{HIGHEST}")
    p.add_argument("--seed", type=int, default=0)
    add_workers_argument(p)
    p.set_defaults(run=run)


def analysis_json(game: Game[P, M], pos: P, found: Analysis) -> dict[str, object]:
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
    return until_stopped(lambda: analyse(args))


def analyse(args: argparse.Namespace) -> int:
    if not LOWEST <= args.level <= HIGHEST:
        raise CliError(f"--level must be {LOWEST}..{HIGHEST}")
    if args.seconds is not None and args.seconds <= 0:
        raise CliError("--seconds must be positive")
    if args.nodes is not None and args.nodes <= 0:
        raise CliError("--nodes must be positive")
    game = make_game(args)
    start_workers(game, level=args.level, nodes=args.nodes, workers=args.workers)
    pos = play_moves(game, args.moves)[-1]
    if game.outcome(pos) is not None:
        raise CliError("the game is over after these moves: nothing to analyse")
    # The time asked for is for thinking: its clock starts once the workers are up.
    wait_for_workers()
    found = think(
        game,
        pos,
        level=args.level,
        seconds=args.seconds,
        nodes=args.nodes,
        seed=args.seed,
        workers=args.workers,
    )
    print(json.dumps(analysis_json(game, pos, found)))
    return 0
