"""A game of Go 7x7 between two people through the full simulated pipeline (virtual board, real firmware,
serial link, tracker, session, store): stones from the bowls, a group taken off stone by stone, a pass by
the button, a take-back by the button and by hand, and the end after two passes, scored by area."""

from __future__ import annotations

from pathlib import Path

from host.hardware.spec import Button
from host.session.intent import Kind
from host.session.session import Settings
from host.store.games import Status, read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
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
        assert session.intent.kind is Kind.GAME_OVER
        # Black: c5 b4 e4 d5 c3 d3 and every empty point (only Black stones reach them): all 49 points.
        assert "Black has 49 points, White 0 + 7.5 komi: Black wins by 41.5 points" in session.intent.sentence
        moves = list(session.moves)
    (stored,) = read_games(journal)
    assert stored.moves == moves and stored.status is Status.FINISHED
    assert stored.outcome is not None and stored.outcome.winner == 0 and stored.outcome.score == (49, 0)
