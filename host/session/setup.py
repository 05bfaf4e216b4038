"""Starting and ending a session: its store, its opponent, its players' names.

The hardware under it is wired up in host/wiring (one factory for the real,
simulated and emulated boards), so that the session knows none of them.
"""

from __future__ import annotations

import gc
from pathlib import Path

from engines import registry
from engines.game import Game, M, P
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import BoardSpec
from host.session.ai_worker import Opponent, player_name, stoppable
from host.session.session import Session, Settings
from host.store.recorder import GameRecorder

# The collector's thresholds once set-up is frozen (gc's own are 700, 10, 10).
GC_THRESHOLDS = (1000, 5, 1)


def default_board(game_id: str) -> str:
    """The board build a game says it is best played on (its ``default_board``)."""
    return registry.game_class(game_id).default_board


def players_of(settings: Settings, opponent: Opponent | None) -> tuple[str, str]:
    """Who plays each side, as the store and the text records name them."""
    ai = player_name(opponent)
    return (ai if settings.ai_side == 0 else "human", ai if settings.ai_side == 1 else "human")


def make_session(
    game: Game[P, M],
    board: BoardSpec,
    *,
    opponent: Opponent | None,
    settings: Settings,
    journal_path: Path | None,
    new: bool = False,
) -> Session[P, M]:
    """A session writing to the store at ``journal_path``, resuming its unfinished game of this kind
    (``new``: marking it abandoned and starting another).  StoreError says why the store cannot be used."""
    # The opponent first: an engine's name (for the store's players) is known once it has said it.
    if opponent is not None:
        opponent.start(game)
    recorder = None
    if journal_path is not None:
        try:
            players = players_of(settings, opponent)
            recorder = GameRecorder.open(journal_path, game, board=board.id, players=players, new=new)
        except BaseException:
            engine = stoppable(opponent)  # an engine's process goes with the game it was for
            if engine is not None:
                engine.close()
            raise
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


def close_session(session: Session[P, M]) -> None:
    """Stop the session and give its game up in the store for the next process."""
    session.close()
    if session.journal is not None:
        session.journal.close()
