"""GnuGo (Debian's gnugo, `gnugo --mode gtp`) as the opponent: its moves lit and committed through the
simulated board, and a match game against it.  Without gnugo these are skipped, but never in CI
(.ci/run installs it): under CI=true they fail."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from engines.registry import make
from host.cli import main
from host.peers.gtp.engine import resolve
from host.peers.gtp.opponent import EngineOpponent
from host.peers.gtp.protocol import GtpError
from host.session.ai_opponent import AiOpponent
from host.session.session import Settings
from host.store.games import read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.pipeline.player import Person

GNUGO = "gnugo --mode gtp --level 1"


def require_gnugo() -> None:
    """Skip the test without gnugo (but fail it in CI)."""
    try:
        resolve(["gnugo"])
    except GtpError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test against GnuGo (apt-get install gnugo): {exc}")
        pytest.skip(f"gnugo is not installed: {exc}")


@pytest.fixture(autouse=True)
def gnugo() -> None:
    require_gnugo()


def test_gnugo_plays_white_on_the_simulated_board(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    engine = EngineOpponent(GNUGO, 1.0, AiOpponent(level=3, nodes=30, seed=1))
    rng = random.Random(5)
    with open_table(
        "go7", SimulatedHardware(), opponent=engine, settings=Settings(ai_side=1), journal_path=journal
    ) as table:
        person = Person(table, seed=3)
        session, game = table.session, table.game
        person.serve(0.3)
        for _ in range(3):
            points = [
                m for m in game.legal_moves(session.position) if game.changed_cells(session.position, m)
            ]
            person.make(rng.choice(points))
            assert person.carry_out_ai_move_if_any()
        ai = session.view().ai
        assert ai is not None and ai.name is not None and ai.name.startswith("GNU Go")
        assert engine.trouble is None, engine.trouble  # every answer of GnuGo's was a legal move
        moves = list(session.moves)
    assert len(moves) == 6
    assert engine._table is not None and engine._table.engine._process.poll() is not None  # stopped
    (stored,) = read_games(journal)
    assert stored.moves == moves
    assert stored.players == ("human", ai.name)  # "GNU Go 3.8", as it names itself


def test_a_match_game_against_gnugo(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["match", "go7", "--a", "ai:1", "--b", f"gtp:{GNUGO}", "--games", "1", "--seconds", "0.2"])
    assert status == 0
    first, summary = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    game = make("go7")
    texts = first["moves"].split()
    assert len(texts) == first["plies"]
    if texts[-1] == "resign":  # the side to move gave up (ours, a, played Black)
        assert first["winner"] == "ba"[(len(texts) - 1) % 2]
    else:
        outcome = game.outcome(game.play_texts(texts))
        assert outcome is not None and outcome.winner is not None
        assert first["winner"] == ("a" if outcome.winner == 0 else "b")  # ours (a) played Black
    assert summary["summary"]["b"] == f"gtp:{GNUGO}"
    assert summary["summary"]["games"] == 1
