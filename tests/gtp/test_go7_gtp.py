"""Go 7x7 as GTP sees it: vertices (GTP 2, section 2.11: columns from A left, rows from 1 at the bottom,
Black's side) and the game told move by move, read back from a position alone."""

from __future__ import annotations

import random

import pytest

from engines.game import MoveError
from engines.go7.board import PASS
from engines.go7.rules import Go7
from engines.gtp import gtp_facts
from engines.registry import make

GAME = Go7()
FACTS = gtp_facts(GAME)


def test_go7_speaks_gtp_with_its_own_rules() -> None:
    assert FACTS is not None
    # engines/go7/rules.md, sections 1 and 7: 7x7 points, area scoring, 7.5 komi, nothing taken off as dead.
    assert (FACTS.boardsize, FACTS.komi, FACTS.rules, FACTS.capture_all_dead) == (7, 7.5, "chinese", True)


def test_the_other_games_do_not() -> None:
    assert gtp_facts(make("desdemona")) is None


def test_vertices() -> None:
    assert FACTS is not None
    pos = GAME.start()
    assert FACTS.vertex(GAME.parse_move(pos, "a1")) == "A1"
    assert FACTS.vertex(GAME.parse_move(pos, "g7")) == "G7"
    assert FACTS.vertex(GAME.parse_move(pos, "c5")) == "C5"
    assert FACTS.vertex(PASS) == "pass"
    assert FACTS.move(pos, "D4") == GAME.parse_move(pos, "d4")
    assert FACTS.move(pos, "PASS") == PASS
    for bad in ("Z9", "H1", "resign", "", "D4 D5"):
        with pytest.raises(MoveError):
            FACTS.move(pos, bad)
    taken = GAME.play_texts(["d4"])
    with pytest.raises(MoveError, match="not empty"):
        FACTS.move(taken, "D4")


def test_the_history_of_a_position_is_the_game_that_made_it() -> None:
    assert FACTS is not None
    for seed in range(60):
        rng = random.Random(seed)
        pos, moves = GAME.start(), []
        while not pos.over:
            assert FACTS.history(pos) == moves
            move = rng.choice(GAME.legal_moves(pos))
            moves.append(move)
            pos = GAME.play(pos, move)


def test_passes_are_told_where_they_were() -> None:
    assert FACTS is not None
    texts = ["pass", "d4", "pass", "c3", "e5", "pass"]
    pos = GAME.play_texts(texts)
    assert [GAME.format_move(GAME.start(), m) for m in FACTS.history(pos)] == texts
