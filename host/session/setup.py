"""Putting a game on a board: the pieces `magboard play` and the tests assemble.

``open_simulated`` builds the whole simulated pipeline - virtual board, the
real firmware under MicroPython on a pseudo-terminal, the serial link through
pyserial, the tracker and session, and a virtual LED strip - with the board set
up in the session's position, as a player would have it when they sit down.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import registry
from engines.game import Game, M, P
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import LED_PICO, BoardSpec
from host.link.device_link import DeviceLink
from host.link.expectation import Expectation
from host.session.ai_worker import Opponent
from host.session.board_play import BoardPlay
from host.session.live import LiveLoop
from host.session.session import Session, Settings
from host.sim.rig import Rig
from host.store.recorder import GameRecorder

READY_S = 10.0
# The collector's thresholds once set-up is frozen (gc's own are 700, 10, 10).
GC_THRESHOLDS = (1000, 5, 1)


def default_board(game_id: str) -> str:
    """The board build a game is best played on (Hall where polarity or levels help)."""
    return f"{game_id}-hall"


@dataclass
class Table:
    """Everything on and under the table for one game."""

    game: Game[Any, Any]
    board: BoardSpec
    session: Session
    play: BoardPlay
    link: DeviceLink
    loop: LiveLoop
    rig: Rig | None = None


def players_of(settings: Settings, opponent: Opponent | None) -> tuple[str, str]:
    """Who plays each side, as the store and the text records name them."""
    level, name = getattr(opponent, "level", None), getattr(opponent, "name", None)  # an engine has a name
    ai = name or ("magboard" if level is None else f"magboard level {level}")
    return (ai if settings.ai_side == 0 else "human", ai if settings.ai_side == 1 else "human")


def make_session(
    game: Game[P, M],
    board: BoardSpec,
    *,
    opponent: Opponent | None,
    settings: Settings,
    journal_path: Path | None,
    new: bool = False,
) -> Session:
    """A session writing to the store at ``journal_path``, resuming its unfinished game of this kind
    (``new``: marking it abandoned and starting another).  StoreError says why the store cannot be used."""
    recorder = None
    if journal_path is not None:
        players = players_of(settings, opponent)
        recorder = GameRecorder.open(journal_path, game, board=board.id, players=players, new=new)
    if opponent is not None:
        opponent.start(game)
    model = SensorModel(board)
    settle_collector()
    return Session(
        game, model.reading_of, Reading.EMPTY, opponent=opponent, journal=recorder, settings=settings,
        history=recorder.positions if recorder else None, moves=recorder.moves if recorder else (),
    )  # fmt: skip


def settle_collector() -> None:
    """Freeze what set-up made and tune the collector, so that no frame waits for a long collection.

    What set-up made (modules, the game and its tables, the store) lives as long as the program;
    frozen, no collection scans it again (it is still freed when unused, unless in a cycle).  What
    the collector then has to do is mostly the tracker's: each position's candidates and
    expectations refer to each other, so only the collector frees them.  With gc's own thresholds
    they reached the oldest generation and went in one full collection of 12-24 ms (with the set-up
    frozen, 7-9 ms); with GC_THRESHOLDS the middle generation is collected twice as often and the
    oldest whenever it may be, and no collection of a Desdemona game took 3 ms
    (benchmarks/bench_session.py)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def close_session(session: Session) -> None:
    """Stop the session and give its game up in the store for the next process."""
    session.close()
    if session.journal is not None:
        session.journal.close()


def _board_for(game: Game[P, M], board_id: str | None) -> BoardSpec:
    board = load_board(board_id or default_board(game.id))
    if board.game != game.id:
        raise ValueError(f"board {board.id} is a {board.game} board, not {game.id}")
    return board


@contextlib.contextmanager
def open_real(
    game_id: str,
    *,
    port: str | None,
    board_id: str | None = None,
    options: tuple[str, ...] = (),
    opponent: Opponent | None = None,
    settings: Settings | None = None,
    journal_path: Path | None = None,
    new: bool = False,
) -> Iterator[Table]:
    """A real board: its Pico on ``port`` (None: found by USB id), LEDs and buttons on this Pi."""
    from host.drivers.gpio_buttons import open_buttons
    from host.drivers.link_strip import LinkStrip
    from host.drivers.neopixel_strip import open_strip

    game = registry.make(game_id, options)
    board = _board_for(game, board_id)
    session = make_session(
        game, board, opponent=opponent, settings=settings or Settings(), journal_path=journal_path, new=new
    )
    expect = Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)
    with DeviceLink(port, expect=expect) as link:
        link.wait_ready(READY_S)
        leds = LinkStrip(link, board.leds) if board.leds.driver == LED_PICO else open_strip(board)
        buttons = open_buttons(board)
        try:
            play = BoardPlay(session, board, SensorModel(board), leds)
            yield Table(game, board, session, play, link, LiveLoop(play, link, buttons))
        finally:
            close_session(session)
            leds.close()
            buttons.close()


@contextlib.contextmanager
def open_simulated(
    game_id: str,
    *,
    board_id: str | None = None,
    options: tuple[str, ...] = (),
    opponent: Opponent | None = None,
    settings: Settings | None = None,
    journal_path: Path | None = None,
    new: bool = False,
    seed: int = 0,
    emulated: bool = False,
) -> Iterator[Table]:
    """The simulated board; ``emulated``: its firmware on an emulated Pico (see host.sim.rig)."""
    game = registry.make(game_id, options)
    board = _board_for(game, board_id)
    session = make_session(
        game, board, opponent=opponent, settings=settings or Settings(), journal_path=journal_path, new=new
    )
    with Rig(board, seed=seed, emulated=emulated) as rig:
        with rig.lock:
            rig.virtual.set_position(game.cells(session.position))
        expect = Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)
        with DeviceLink(rig.port, expect=expect, silence_timeout=rig.silence_timeout_s) as link:
            link.wait_ready(rig.ready_s)
            play = BoardPlay(session, board, SensorModel(board), rig.strip_for(link))
            try:
                yield Table(game, board, session, play, link, LiveLoop(play, link, rig.buttons), rig)
            finally:
                close_session(session)
