"""`magboard play GAME`: a game against the AI, typed in the terminal.

The terminal game is the fallback when no board (real or simulated) is in use:
the position is drawn after every move and moves are typed in the notation of
RULES.md.  Every move is saved to a record file as it is made, so a game that
is interrupted can be replayed or continued with ``--resume``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from engines import records
from engines.game import Game, MoveError
from host.cli import CliError
from host.gamearg import make_game

HELP = """Type a move in the notation of RULES.md, or one of:
  moves        list the legal moves
  hint         ask the AI for the best move and its plan
  undo         take back your last move (and the AI's reply)
  quit         stop (the game is kept in the record file)"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play a game against the AI in the terminal")
    p.add_argument("game", nargs="?", default="desdemona", help="game id (default: desdemona)")
    p.add_argument("--option", action="append", default=[], metavar="NAME", help="rule option (repeatable)")
    p.add_argument("--side", type=int, choices=(0, 1), default=0, help="the side you play (0 moves first)")
    p.add_argument("--level", type=int, default=10, choices=range(1, 11), metavar="1..10", help="AI level")
    p.add_argument("--seconds", type=float, default=3.0, help="AI thinking time per move")
    p.add_argument("--record", type=Path, help="record file to write (default: magboard-GAME.txt)")
    p.add_argument("--resume", action="store_true", help="continue the game in the record file")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = make_game(args)
    record_path: Path = args.record or Path(f"magboard-{game.id}.txt")
    moves: list[str] = []
    if args.resume:
        try:
            moves = records.load(record_path).moves
        except (OSError, records.RecordError) as exc:
            raise CliError(f"cannot resume from {record_path}: {exc}") from None
    session = TerminalGame(game, args.side, args.level, args.seconds, record_path, moves)
    return session.loop(sys.stdin, sys.stdout)


class TerminalGame:
    """One game in the terminal: a human on one side, the AI on the other."""

    def __init__(
        self, game: Game[Any, Any], side: int, level: int, seconds: float, record_path: Path, moves: list[str]
    ) -> None:
        self.game = game
        self.side = side
        self.level = level
        self.seconds = seconds
        self.record_path = record_path
        self.history = [game.start()]
        self.moves: list[str] = []
        for text in moves:
            self._push(text)

    @property
    def pos(self) -> Any:
        return self.history[-1]

    def _push(self, text: str) -> None:
        move = self.game.parse_move(self.pos, text)
        self.moves.append(self.game.format_move(self.pos, move))
        self.history.append(self.game.play(self.pos, move))

    def _save(self) -> None:
        players = ("human", f"magboard level {self.level}")
        if self.side == 1:
            players = players[::-1]
        records.save(records.from_moves(self.game, self.moves, players), self.record_path)

    def loop(self, stdin: TextIO, out: TextIO) -> int:
        from engines.ai import hint, think

        out.write(f"{self.game.name}: you play side {self.side}. Type 'help' for commands.\n")
        drawn = None
        while True:
            if drawn is not self.pos:
                drawn = self.pos
                out.write("\n" + self.game.render(self.pos) + "\n")
                score = self.game.score(self.pos)
                if score is not None:
                    out.write(f"score {score[0]} : {score[1]}\n")
            outcome = self.game.outcome(self.pos)
            if outcome is not None:
                winner = "draw" if outcome.winner is None else f"side {outcome.winner} wins"
                out.write(f"Game over: {winner}. Record: {self.record_path}\n")
                return 0
            if self.game.to_move(self.pos) != self.side:
                out.write("AI thinking...\n")
                out.flush()
                analysis = think(self.game, self.pos, level=self.level, seconds=self.seconds)
                text = self.game.format_move(self.pos, analysis.best)
                out.write(f"AI plays {text}\n")
                self._push(text)
                self._save()
                continue
            out.write(f"move {len(self.moves) + 1}> ")
            out.flush()
            line = stdin.readline()
            if not line:
                out.write("\n")
                return 0
            command = line.strip()
            if not command:
                continue
            if command in ("quit", "exit"):
                out.write(f"Stopped. Resume with --resume; record: {self.record_path}\n")
                return 0
            if command == "help":
                out.write(HELP + "\n")
            elif command == "moves":
                out.write(" ".join(self.game.legal_texts(self.pos)) + "\n")
            elif command == "hint":
                analysis = hint(self.game, self.pos, seconds=min(self.seconds, 2.0))
                line_text, pos = [], self.pos
                for move in analysis.pv:
                    line_text.append(self.game.format_move(pos, move))
                    pos = self.game.play(pos, move)
                out.write(f"hint: {' '.join(line_text)} (value {analysis.value:+.2f})\n")
            elif command in ("undo", "takeback"):
                self._undo(out)
            else:
                try:
                    self._push(command)
                except MoveError as exc:
                    out.write(f"{command!r}: {exc}\n")
                    continue
                self._save()

    def _undo(self, out: TextIO) -> None:
        """Take back to the human's previous turn."""
        if len(self.history) == 1:
            out.write("nothing to take back\n")
            return
        self.history.pop()
        self.moves.pop()
        while len(self.history) > 1 and self.game.to_move(self.pos) != self.side:
            self.history.pop()
            self.moves.pop()
        self._save()
