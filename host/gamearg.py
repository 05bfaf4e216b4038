"""Shared argument handling for commands that take a game and moves, or a board."""

from __future__ import annotations

import argparse
from typing import Any

from engines import registry
from engines.game import Game, M, MoveError, P, quoted
from host import play_values
from host.cli_error import CliError
from host.hardware.loading import BoardFileError, load_board
from host.hardware.spec import BoardSpec


def add_game_arguments(p: argparse.ArgumentParser, moves: bool = True) -> None:
    p.add_argument("game", help="game id (see `magboard games`)")
    p.add_argument(
        "--option", action="append", default=[], metavar="NAME", help="switch on a rule option (repeatable)"
    )
    if moves:
        p.add_argument("moves", nargs="*", metavar="MOVE", help="moves from the start, in canonical notation")


def add_workers_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--workers", type=play_values.from_text(play_values.workers), metavar="N",
        help="processes a timed AI search uses (default: one per core this process may run on)",
    )  # fmt: skip


def add_voice_arguments(p: argparse.ArgumentParser, optional: bool) -> None:
    """--voice and --voice-rate; ``optional``: --voice alone asks for the default voice, and without it
    nothing is said."""
    voice, default = play_values.from_text(play_values.voice, str), play_values.DEFAULT_VOICE
    said = "say the board's sentences aloud through espeak-ng" if optional else "the espeak-ng voice"
    help = f"{said} (default voice: {default})"
    if optional:
        p.add_argument("--voice", type=voice, nargs="?", const=default, metavar="VOICE", help=help)
    else:
        p.add_argument("--voice", type=voice, default=default, metavar="VOICE", help=help)
    rate = play_values.from_text(play_values.voice_rate)
    p.add_argument(
        "--voice-rate", type=rate, default=play_values.DEFAULT_RATE, metavar="WPM",
        help=f"how fast the voice speaks, words a minute (default: {play_values.DEFAULT_RATE})",
    )  # fmt: skip


def make_game(args: argparse.Namespace) -> Game[Any, Any]:
    try:
        return registry.make(args.game, args.option)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def play_moves(game: Game[P, M], texts: list[str]) -> list[P]:
    """Every position from the start through each move; CliError names the ply and move that failed."""
    positions = [game.start()]
    for ply, text in enumerate(texts, start=1):
        try:
            move = game.parse_move(positions[-1], text)
        except MoveError as exc:
            raise CliError(f"ply {ply}: move {quoted(text)}: {exc}") from None
        positions.append(game.play(positions[-1], move))
    return positions


def state_json(game: Game[P, M], pos: P) -> dict[str, object]:
    """The command line's view of a position (the contract of `magboard rules`)."""
    outcome = game.outcome(pos)
    score = outcome.score if outcome is not None else game.score(pos)
    return {
        "game": game.id,
        "to_move": game.to_move(pos),
        "legal": game.legal_texts(pos),
        "over": outcome is not None,
        "winner": outcome.winner if outcome is not None else None,
        "score": list(score) if score is not None else None,
    }


def board_argument(name: str) -> BoardSpec:
    """A board by id or file; a file with problems lists them all (exit status 1, as `hardware check`)."""
    try:
        return load_board(name)
    except BoardFileError as exc:
        raise CliError(str(exc), 1) from None
