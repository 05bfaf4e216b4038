"""A game of Go 7x7 between two people through the full simulated pipeline (virtual board, real firmware,
serial link, tracker, session, store): stones from the bowls, a group taken off stone by stone, a pass by
the button, a take-back by the button and by hand, and the end after two passes, scored by area."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from host.hardware.spec import Button
from host.session.intent import Kind
from host.session.session import Event, Settings
from host.store.games import Status, read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.conftest import ROOT
from tests.pipeline.player import Person
from tests.pipeline.test_scenarios import do

# Black surrounds White's c4-d4 (White passing meanwhile), leaving d3 its last liberty.
OPENING_MOVES = ["c5", "c4", "b4", "d4", "e4", "pass", "d5", "pass", "c3", "pass"]
OPENING = "\n".join(
    "press pass" if move == "pass" else f"place {move} stone:{i % 2}\nwait 300"
    for i, move in enumerate(OPENING_MOVES)
)


def test_a_game_of_go_with_a_capture_a_pass_and_take_backs(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    with open_table(
        "go7", SimulatedHardware(), board_id="go7-hall", settings=Settings(ai_side=None), journal_path=journal
    ) as table:
        person = Person(table)
        session = table.session
        do(person, OPENING)
        assert session.moves == OPENING_MOVES
        # The capture: the stone on d3, then the two White stones off, one at a time.
        do(person, "place d3 stone:0\nwait 300")
        assert session.intent.kind is Kind.TURN_UNDER_WAY
        assert {c: light.meaning.value for c, light in session.scene.items()} == {
            "c4": "remove",
            "d4": "remove",
        }
        do(person, "remove c4\nwait 300")
        assert session.moves == OPENING_MOVES and set(session.scene) == {"d4"}
        do(person, "remove d4\nwait 300")
        assert session.moves == [*OPENING_MOVES, "d3"]
        assert table.game.hands(session.position)[1] == {"stone": 48}  # both back in White's bowl
        # Take back by the button: the board asks for the capture to be undone, and then shows it.
        do(person, "press take_back\nwait 300")
        assert session.intent.kind is Kind.RESTORE and session.moves == OPENING_MOVES
        do(person, "remove d3\nplace c4 stone:1\nplace d4 stone:1\nwait 300")
        assert session.intent.kind is Kind.YOUR_TURN and session.scene == {}
        # Take back by hand: the stone lifted off again takes back its move, not White's pass before it too
        # (which left the same board).
        do(person, "place a7 stone:0\nwait 300")
        assert session.moves == [*OPENING_MOVES, "a7"]
        do(person, "remove a7\nwait 400")
        assert session.moves == OPENING_MOVES
        # The capture again, then both pass: the game ends, scored by area.
        do(person, "place d3 stone:0\nremove c4\nremove d4\nwait 300")
        assert session.moves == [*OPENING_MOVES, "d3"]
        assert Button.PASS in session.intent.buttons
        do(person, "press pass\nwait 200")
        assert "a second pass in a row ends the game" in session.intent.sentence
        do(person, "press pass\nwait 200")
        # Nothing is dead (White has no stone left): Confirm agrees, and the count is of the board.
        assert session.intent.kind is Kind.DEAD_STONES and session.scene == {}
        do(person, "press confirm\nwait 200")
        assert session.intent.kind is Kind.GAME_OVER
        # Black: c5 b4 e4 d5 c3 d3 and every empty point (only Black stones reach them): all 49 points.
        assert "By area Black 49, White 0 + 7.5: Black wins by 41.5." in session.intent.sentence
        moves = list(session.moves)
    (stored,) = read_games(journal)
    assert stored.moves == moves and stored.status is Status.FINISHED and stored.dead == ()
    assert stored.outcome is not None and stored.outcome.winner == 0 and stored.outcome.score == (49, 0)


# Black walls the e file, White the f file; White invades at d4 and both pass (counted by hand in
# tests/session/test_dead_stones.py: with d4 dead, Black 35, White 14 + 7.5).
WALLS = [m for rank in range(1, 8) for m in (f"e{rank}", f"f{rank}")]
INVADED = [*WALLS, "pass", "d4", "pass", "pass"]


def script_of(moves: list[str]) -> str:
    return "\n".join(
        "press pass\nwait 200" if move == "pass" else f"place {move} stone:{i % 2}\nwait 300"
        for i, move in enumerate(moves)
    )


def test_a_kill_9_while_agreeing_on_dead_stones_resumes_in_that_phase(tmp_path: Path) -> None:
    """Two people pass; the power goes while the board lights the dead stone; the next start is in the
    same phase, and the stone taken off and Confirm count the game as a person would."""
    journal = tmp_path / "games.sqlite3"
    script = tmp_path / "script.txt"
    script.write_text(script_of(INVADED) + "\nwait 60000\n")
    command = [sys.executable, "-m", "host", "play", "go7", "--board", "go7-hall", "--humans", "--terminal"]
    proc = subprocess.Popen(
        [*command, "--journal", str(journal), "--script", str(script)], cwd=ROOT, stdout=subprocess.PIPE,
        text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    seen: list[dict[str, object]] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(json.loads(line))
        if seen[-1].get("kind") == "dead_stones":
            break
    os.killpg(proc.pid, signal.SIGKILL)  # the power goes: host, firmware, everything
    proc.wait()
    assert seen and seen[-1]["kind"] == "dead_stones", seen[-3:]
    assert not any(event["event"] == "over" for event in seen)  # not over until the stones are agreed
    (stored,) = read_games(journal)
    assert stored.moves == INVADED and stored.status is Status.PLAYING and stored.dead is None
    with open_table(
        "go7", SimulatedHardware(), board_id="go7-hall", settings=Settings(ai_side=None), journal_path=journal
    ) as table:
        person, session = Person(table), table.session
        events: list[Event] = []
        session.listeners.append(events.append)
        do(person, "wait 300")  # the simulated board resumes as it was at the power cut
        assert session.intent.kind is Kind.DEAD_STONES, session.intent
        assert {c: light.meaning.value for c, light in session.scene.items()} == {"d4": "remove"}
        do(person, "remove d4\nwait 300")
        do(person, "press confirm\nwait 200")
        assert session.intent.kind is Kind.GAME_OVER
        assert "With 1 dead stone off, by area Black 35, White 14 + 7.5: Black wins by 13.5." in (
            session.intent.sentence
        )
        assert [e.data for e in events if e.kind.value == "over"] == [
            {"winner": 0, "score": [35, 14], "dead": ["d4"]}
        ]
    (stored,) = read_games(journal)
    assert stored.status is Status.FINISHED and stored.dead == ("d4",)
    assert stored.outcome is not None and stored.outcome.winner == 0 and stored.outcome.score == (35, 14)
