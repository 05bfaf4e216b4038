"""Whole games of each game through the full simulated pipeline: virtual board -> the real
firmware under MicroPython -> pseudo-terminal and pyserial -> tracker -> session -> virtual LEDs.

A person makes their moves by hand in varying orders; the AI's moves are lit on the LEDs and
carried out; the game store ends up holding the game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from host.session.ai_opponent import AiOpponent
from host.session.session import Settings
from host.store.games import Status, read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.pipeline.player import Person

CASES = [
    ("kingofrings", "kingofrings-hall", 40),
    ("kingofrings", "kingofrings-reed", 30),
    ("desdemona", "desdemona-hall", 60),
    ("desdemona", "desdemona-reed", 20),
    ("spacetiles", "spacetiles-hall", 40),
    ("spacetiles", "spacetiles-reed", 12),
    ("flipfour", "flipfour-hall", 40),
    ("flipfour", "flipfour-reed", 20),
    ("go7", "go7-hall", 40),
    ("go7", "go7-reed", 20),
    ("amazons", "amazons-hall", 20),  # a whole game: tests/pipeline/test_amazons.py
    ("amazons", "amazons-reed", 12),
]


@pytest.mark.parametrize(("game_id", "board_id", "max_plies"), CASES)
def test_a_game_against_the_ai_on_the_simulated_board(
    tmp_path: Path, game_id: str, board_id: str, max_plies: int
) -> None:
    rng = random.Random(7)
    journal = tmp_path / "games.sqlite3"
    ai = AiOpponent(level=3, nodes=60, seed=1)
    with open_table(
        game_id,
        SimulatedHardware(),
        board_id=board_id,
        opponent=ai,
        settings=Settings(ai_side=1),
        journal_path=journal,
    ) as table:
        person = Person(table, seed=3)
        session, game = table.session, table.game
        person.serve(0.3)
        while not game.is_over(session.position) and len(session.moves) < max_plies:
            if not person.carry_out_ai_move_if_any():
                moves = game.legal_moves(session.position)
                person.make(rng.choice(moves))
        assert table.play.bad_snapshots == 0
        moves = list(session.moves)
    assert moves, "no move was committed"
    (stored,) = read_games(journal)
    assert stored.moves == moves
    over = game.is_over(session.position)
    assert stored.status is (Status.FINISHED if over else Status.PLAYING)
