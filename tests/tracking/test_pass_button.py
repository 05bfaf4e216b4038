"""The Pass button: a game whose table has a voluntary pass (Go) passes by it, the board showing the
committed position; other games never offer it.  Go's stones through the session on hand-made readings:
a group taken off, a take-back, and what a reed board cannot see."""

from __future__ import annotations

from typing import Any

from engines.game import Game
from engines.physical import Thing
from host.hardware.spec import Button
from host.session.intent import Kind
from tests.tracking.test_session import commits, session_on

BLACK, WHITE = Thing("stone", 0), Thing("stone", 1)


class Passer:
    """An opponent that always passes."""

    def choose(self, game: Game[Any, Any], pos: Any) -> Any:
        return game.parse_move(pos, "pass")

    def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]:
        return [self.choose(game, pos)]


def test_pass_is_offered_and_plays_the_pass() -> None:
    session, board, events = session_on("go7-hall")
    assert Button.PASS in session.intent.buttons
    board.press("pass")
    assert commits(events) == ["pass"] and session.game.to_move(session.position) == 1
    assert "a second pass in a row ends the game" in session.intent.sentence
    board.press("pass")
    # Over by the rules: the dead stones are agreed (none on an empty board), then it is counted.
    assert session.moves == ["pass", "pass"] and session.intent.kind is Kind.DEAD_STONES
    assert Button.PASS not in session.intent.buttons
    board.press("pass")
    assert session.moves == ["pass", "pass"]
    board.press("confirm")
    assert session.intent.kind is Kind.GAME_OVER
    assert "White wins by 7.5." in session.intent.sentence
    assert Button.PASS not in session.intent.buttons


def test_pass_is_not_taken_while_a_stone_is_down_for_a_move() -> None:
    session, board, _ = session_on("go7-hall")
    board.place("d4", BLACK)
    assert Button.PASS not in session.intent.buttons
    board.press("pass")
    assert session.moves == []
    board.wait(300)
    assert session.moves == ["d4"]
    assert Button.PASS in session.intent.buttons


def test_pass_is_not_offered_for_the_ai_and_the_ais_pass_needs_no_hands() -> None:
    session, board, _ = session_on("go7-hall", opponent=Passer(), ai_side=1)
    board.place("d4", BLACK)
    board.wait(300)
    # The AI (White) passed at once: nothing to do on the board, and it is Black's turn again.
    assert session.moves == ["d4", "pass"] and session.intent.kind is Kind.YOUR_TURN
    assert Button.PASS in session.intent.buttons
    board.press("pass")
    assert session.moves == ["d4", "pass", "pass"] and session.intent.kind is Kind.DEAD_STONES


def test_a_game_without_a_voluntary_pass_never_offers_it() -> None:
    session, board, _ = session_on("kingofrings-hall")
    assert Button.PASS not in session.intent.buttons
    board.press("pass")
    assert session.moves == []


def lights(session: Any) -> dict[str, str]:
    return {cell: light.meaning.value for cell, light in session.scene.items()}


def play(session: Any, board: Any, texts: list[str]) -> None:
    """Each move as a person makes it: a stone of the mover's colour put down, or Pass."""
    for text in texts:
        if text == "pass":
            board.press("pass")
            continue
        board.place(text, (BLACK, WHITE)[session.game.to_move(session.position)])
        board.wait(300)


# White's c4-d4 with its last liberty on d3, Black to move.
SETUP = ["c5", "c4", "b4", "d4", "e4", "pass", "d5", "pass", "c3", "pass"]


def test_a_group_is_taken_off_stone_by_stone_and_taken_back() -> None:
    session, board, _ = session_on("go7-hall")
    play(session, board, SETUP)
    assert session.moves == SETUP
    board.place("d3", BLACK)
    board.wait(300)
    assert session.intent.kind is Kind.TURN_UNDER_WAY and session.moves == SETUP
    assert lights(session) == {"c4": "remove", "d4": "remove"}
    assert (
        session.intent.sentence == "To finish d3: take the White stone off c4; take the White stone off d4."
    )
    board.lift("c4")
    board.wait(300)
    assert session.moves == SETUP and set(session.scene) == {"d4"}  # c4 is off, as the move takes it off
    assert session.intent.kind is Kind.TURN_UNDER_WAY
    board.lift("d4")
    board.wait(300)
    assert session.moves == [*SETUP, "d3"]
    board.held.clear()
    board.press("take_back")
    assert session.intent.kind is Kind.RESTORE and session.moves == SETUP
    assert lights(session) == {
        "d3": "remove",
        "c4": "put",
        "d4": "put",
    }
    board.lift("d3")
    board.wait(300)
    assert lights(session) == {"c4": "put", "d4": "put"}
    board.place("c4", WHITE)
    board.place("d4", WHITE)
    board.wait(300)
    assert session.intent.kind is Kind.YOUR_TURN and session.moves == SETUP


def test_a_group_taken_off_before_the_stone_is_put_down_asks_for_the_stone() -> None:
    session, board, _ = session_on("go7-hall")
    play(session, board, SETUP)
    board.lift("c4")
    board.lift("d4")
    board.wait(300)
    assert session.intent.kind is Kind.TURN_UNDER_WAY
    assert lights(session) == {"d3": "put"}
    board.held.clear()
    board.place("d3", BLACK)
    board.wait(300)
    assert session.moves == [*SETUP, "d3"]


def test_a_stone_taken_off_again_takes_back_its_move_not_the_pass_before_it() -> None:
    session, board, _ = session_on("go7-hall")
    play(session, board, ["d4", "pass", "e5"])
    board.lift("e5")
    board.wait(300)
    assert session.moves == ["d4", "pass"] and session.intent.kind is Kind.YOUR_TURN


def test_a_stone_of_the_wrong_colour_is_a_mistake_on_hall_and_unseen_on_reed() -> None:
    hall, board, _ = session_on("go7-hall")
    board.place("d4", WHITE)  # Black's turn
    board.wait(300)
    assert hall.moves == [] and hall.intent.kind is Kind.MISTAKE
    reed, board, _ = session_on("go7-reed")
    board.place("d4", WHITE)
    board.wait(300)
    assert reed.moves == ["d4"]  # the reed switch closes for any stone: the board takes Black's d4
    assert reed.game.cells(reed.position)["d4"] == (BLACK,)
