"""Putting a game on a board: what `magboard play`, the page and the tests sit down at.

``open_table`` wires the session to the hardware a factory builds (host/wiring/hardware.py): on the
simulated board, the virtual board is set up in the session's position, as a player would have it
when they sit down; on a real one, the player has done it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic

from engines import registry
from engines.game import Game, M, P
from host.hardware.loading import load_board
from host.hardware.sensing import SensorModel
from host.hardware.spec import BoardSpec
from host.link.device_link import DeviceLink
from host.reach.capabilities import Reach
from host.session.ai_worker import Opponent
from host.session.board_play import BoardPlay
from host.session.live import LiveLoop
from host.session.session import Session, Settings
from host.session.setup import close_session, default_board, make_session
from host.wiring.hardware import HardwareFactory


@dataclass
class Table(Generic[P, M]):
    """Everything on and under the table for one game."""

    game: Game[P, M]
    board: BoardSpec
    session: Session[P, M]
    play: BoardPlay[P, M]
    link: DeviceLink
    loop: LiveLoop[P, M]
    reach: Reach | None = None  # a board the program can reach into (a simulated one); None on a real one


def board_for(game: Game[P, M], board_id: str | None) -> BoardSpec:
    """The board file named (default: the game's own), checked to be one for this game."""
    board = load_board(board_id or default_board(game.id))
    if board.game != game.id:
        raise ValueError(f"board {board.id} is a {board.game} board, not {game.id}")
    return board


@contextlib.contextmanager
def open_table(
    game_id: str,
    hardware: HardwareFactory,
    *,
    board_id: str | None = None,
    options: tuple[str, ...] = (),
    opponent: Opponent | None = None,
    settings: Settings | None = None,
    journal_path: Path | None = None,
    new: bool = False,
) -> Iterator[Table[Any, Any]]:
    """The game on the board ``hardware`` builds, resuming its unfinished game in the store.

    Its positions and moves are the game's own types, which only the registry knows: what takes the
    table is generic in them, so that mypy checks it never mixes them up."""
    game = registry.make(game_id, options)
    board = board_for(game, board_id)
    session = make_session(
        game, board, opponent=opponent, settings=settings or Settings(), journal_path=journal_path, new=new
    )
    try:
        with hardware.open(board, standing=game.cells(session.position)) as parts:
            parts.link.wait_ready(parts.ready_s)
            play = BoardPlay(session, board, SensorModel(board), parts.strip(board))
            loop = LiveLoop(play, parts.link, parts.buttons(board))
            yield Table(game, board, session, play, parts.link, loop, parts.reach)
    finally:
        close_session(session)
