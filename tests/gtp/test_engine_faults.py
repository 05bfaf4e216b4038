"""A GTP engine that fails - killed mid-game, answering an illegal move or garbage, hung past its time,
resigning - is told in one line, nothing of its answer is played, and the board offers the built-in AI,
which answers once the player takes the offer.

The engine is tests/gtp/fake_engine.py, failing on purpose at its n-th move."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from engines.go7.rules import Go7
from host.hardware.loading import load_board
from host.peers.gtp.engine import GtpEngine
from host.peers.gtp.game import GtpGame
from host.peers.gtp.opponent import EngineOpponent
from host.peers.gtp.protocol import GtpError
from host.session.ai_opponent import AiOpponent
from host.session.ai_worker import OpponentGone
from host.session.intent import Kind, Notice
from host.session.session import Settings
from host.session.setup import make_session
from host.store.database import StoreError
from host.store.games import read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.conftest import run_cli
from tests.pipeline.player import Person

FAKE = Path(__file__).with_name("fake_engine.py")
GAME = Go7()
SECONDS = 0.2
MARGIN_S = 0.6  # a hung engine counts as hung after 3 x 0.2 + 0.6 = 1.2 s


def fake(fault: str, after: int = 1) -> str:
    return f"{sys.executable} {FAKE} {fault} {after}"


def opponent(fault: str, after: int = 1) -> EngineOpponent:
    engine = EngineOpponent(fake(fault, after), SECONDS, AiOpponent(level=3, nodes=30, seed=1), MARGIN_S)
    engine.start(GAME)
    return engine


def the_builtin_move(pos: object) -> int:
    move: int = AiOpponent(level=3, nodes=30, seed=1).choose(GAME, pos)
    return move


def test_a_sound_engine_plays_its_moves_and_is_told_ours() -> None:
    engine = opponent("none")
    try:
        assert engine.name == "Fake none"
        pos = GAME.play_texts(["g7"])
        assert GAME.format_move(pos, engine.choose(GAME, pos)) == "a1"  # its first legal point
        pos = GAME.play_texts(["g7", "a1", "pass"])
        assert GAME.format_move(pos, engine.choose(GAME, pos)) == "b1"
        # A take-back: the engine is told the shorter game afresh.
        pos = GAME.play_texts(["a1"])
        assert GAME.format_move(pos, engine.choose(GAME, pos)) == "b1"
        assert engine.trouble is None and engine.playing
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("fault", "words"),
    [
        ("illegal", r"answered 'A1', not a move here: not legal here: a1 is not empty"),
        ("garbage", r"answered 'I am not a Go engine', not a GTP response to genmove"),
        ("die", r"died \(exited with status 3 \(it said: fake engine: out of memory\)\) answering genmove"),
        ("hang", r"gave no answer to genmove within 1.2 s"),
        ("resign", r"it resigns"),
    ],
)
def test_a_fault_is_told_and_the_builtin_ai_answers(fault: str, words: str) -> None:
    engine = opponent(fault, after=2)
    try:
        pos = GAME.play_texts(["g7"])
        assert GAME.format_move(pos, engine.choose(GAME, pos)) == "a1"
        pos = GAME.play_texts(["g7", "a1", "b2"])
        started = time.monotonic()
        with pytest.raises(OpponentGone) as gone:
            engine.choose(GAME, pos)
        assert time.monotonic() - started < 5
        trouble = engine.trouble
        assert trouble is not None and "\n" not in trouble and str(gone.value) == trouble
        assert trouble.startswith(f"Fake {fault}: ")
        assert trouble.endswith("Nothing of it was committed.")
        assert re.search(words, trouble), trouble
        assert not engine.playing and engine.level == 3 and engine.name is None
        with pytest.raises(OpponentGone):  # asked again, it is still gone: the offer stands
            engine.choose(GAME, pos)
        engine.take_over()
        move = engine.choose(GAME, pos)
        assert move == the_builtin_move(pos)
        later = GAME.play(pos, move)
        later = GAME.play(later, GAME.legal_moves(later)[0])
        assert engine.choose(GAME, later) == the_builtin_move(later)
    finally:
        engine.close()


def test_an_engine_killed_between_moves_is_told_before_its_turn() -> None:
    engine = opponent("none")
    try:
        pos = GAME.play_texts(["g7"])
        engine.choose(GAME, pos)
        table = engine._table
        assert table is not None
        os.kill(table.engine._process.pid, signal.SIGKILL)
        deadline = time.monotonic() + 5
        while engine.trouble is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert engine.trouble is not None
        assert "killed by signal 9" in engine.trouble
        pos = GAME.play_texts(["g7", "a1", "b2"])
        with pytest.raises(OpponentGone, match="killed by signal 9"):
            engine.choose(GAME, pos)
        engine.take_over()
        assert engine.choose(GAME, pos) == the_builtin_move(pos)
    finally:
        engine.close()


def test_a_program_that_is_not_there_or_not_gtp_is_refused_at_the_start() -> None:
    with pytest.raises(GtpError, match="'no-such-engine' is not a program on PATH"):
        opponent_line("no-such-engine --mode gtp")
    with pytest.raises(GtpError, match="not a GTP response"):
        opponent_line(f"{sys.executable} -c \"print('hello')\"")
    with pytest.raises(GtpError, match="died"):
        opponent_line(f"{sys.executable} -c pass")


def opponent_line(line: str) -> None:
    engine = EngineOpponent(line, SECONDS, AiOpponent(level=3, nodes=30, seed=1), MARGIN_S)
    engine.start(GAME)


def test_close_stops_a_hung_engine() -> None:
    engine = GtpEngine(fake("hang"))
    table = GtpGame(engine, GAME, SECONDS, MARGIN_S)
    with pytest.raises(GtpError, match="no answer"):
        table.choose(GAME.start())
    assert engine._process.poll() is not None  # killed: nothing of ours is left running


def test_on_the_simulated_board_the_fault_is_shown_and_the_game_goes_on(tmp_path: Path) -> None:
    """The engine answers an illegal move at its second move: the board says so in one line, nothing
    is committed for it, and offers the built-in AI; once Confirm takes the offer, its move is lit and made
    by hand."""
    journal = tmp_path / "games.sqlite3"
    engine = EngineOpponent(fake("illegal", 2), SECONDS, AiOpponent(level=3, nodes=30, seed=1), MARGIN_S)
    with open_table(
        "go7", SimulatedHardware(), opponent=engine, settings=Settings(ai_side=1), journal_path=journal
    ) as table:
        person = Person(table, seed=3)
        session = table.session
        person.serve(0.3)
        person.make(GAME.parse_move(session.position, "g7"))
        assert person.carry_out_ai_move_if_any()
        assert session.moves == ["g7", "a1"]  # the engine's own first legal point
        shown = session.view().ai
        assert shown is not None and shown.name == "Fake illegal" and shown.level is None
        person.make(GAME.parse_move(session.position, "b2"))
        person.serve(10, until=lambda: session.intent.kind is Kind.OPPONENT_STOPPED)
        offer = session.intent
        assert offer.kind is Kind.OPPONENT_STOPPED and session.moves == ["g7", "a1", "b2"]
        assert offer.sentence.startswith("Fake illegal has stopped: press Confirm to play on")
        expected = the_builtin_move(session.position)
        table.reach.rig.buttons.press("confirm")
        person.serve(10, until=lambda: session.intent.kind is not Kind.OPPONENT_STOPPED)
        assert person.carry_out_ai_move_if_any()
        assert session.moves == ["g7", "a1", "b2", GAME.format_move(session.position, expected)]
        view = session.view()
        assert Notice.OPPONENT in view.notices
        (words,) = [w for w in view.notice_words if "Fake illegal" in w]
        assert "answered 'A1', not a move here" in words
        assert view.ai is not None and view.ai.name is None and view.ai.level == 3
        moves = list(session.moves)
    (stored,) = read_games(journal)
    assert stored.moves == moves and len(moves) == 4


def test_play_engine_on_the_terminal_says_the_fault_and_plays_on(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    result = run_cli(
        "play", "go7", "--engine", fake("illegal", 2), "--seconds", "0.2", "--nodes", "30", "--level", "3",
        "--journal", str(journal), "--terminal", input_text="g7\ndo\nb2\nconfirm\ndo\nquit\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    said = [line for line in result.stdout.splitlines() if "answered 'A1', not a move here" in line]
    assert said and said[0].startswith("Fake illegal: ")
    (stored,) = read_games(journal)
    assert stored.moves[:3] == ["g7", "a1", "b2"] and len(stored.moves) == 4
    # The name it gave, not its command line; and the built-in AI, which played on, for its move.
    assert stored.players == ("human", "Fake illegal, then magboard level 3 from move 4")
    shown = run_cli("history", "--journal", str(journal), "show", str(stored.id))
    assert "players: human - Fake illegal, then magboard level 3 from move 4\n" in shown.stdout


def test_a_store_that_cannot_be_opened_stops_the_engine_started_for_its_game(tmp_path: Path) -> None:
    # The engine starts before the store opens (the store records the name it gives); a store that
    # refuses the game must not leave the engine's process behind.
    engine = EngineOpponent(fake("none"), SECONDS, AiOpponent(level=3, nodes=30, seed=1), MARGIN_S)
    not_a_store = tmp_path / "games.sqlite3"
    not_a_store.mkdir()
    with pytest.raises(StoreError):
        make_session(
            GAME,
            load_board("go7-hall"),
            opponent=engine,
            settings=Settings(ai_side=1),
            journal_path=not_a_store,
        )
    assert engine._table is not None and engine._table.engine._process.poll() is not None
