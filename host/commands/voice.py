"""`magboard voice [--wav FILE] SENTENCE`: a sentence of the board as the voice says it.

Prints the sentence as it is said aloud (host/words/spoken.py, in the words of
``--game``: its moves written for the ear), then says it through espeak-ng, or
with ``--wav FILE`` writes what would be said to a WAV file, for a person to
listen to on another machine and for the tests to measure.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from engines import registry
from host.cli_error import CliError
from host.gamearg import add_voice_arguments
from host.shown import shown
from host.voice.speaker import Espeak, VoiceError
from host.words.spoken import spoken


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("voice", help="say a sentence as the board's voice does, or write it as a WAV file")
    p.add_argument("sentence", help='what the board says, e.g. "Light to move: step a knight."')
    p.add_argument(
        "--game",
        default=registry.DEFAULT,
        help=f"whose moves the sentence names (default: {registry.DEFAULT})",
    )
    p.add_argument("--wav", type=Path, metavar="FILE", help="write the spoken sentence to FILE (a WAV file)")
    add_voice_arguments(p, optional=False)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.game not in registry.available():
        raise CliError(f"unknown game {args.game!r} (known: {', '.join(registry.available())})")
    said = spoken(registry.make(args.game), args.sentence)
    print(shown(said))
    troubles: list[str] = []
    try:
        voice = Espeak(args.voice, args.voice_rate, troubles.append)
        if args.wav is not None:
            voice.write_wav(said, args.wav)
        else:
            voice.speak(said, threading.Event())
    except VoiceError as exc:
        raise CliError(str(exc), 1) from None
    if troubles:
        raise CliError(troubles[0], 1)
    return 0
