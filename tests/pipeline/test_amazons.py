"""The Amazons on the simulated Desdemona boards, through the full pipeline (virtual board, real firmware,
serial link, tracker, session): mistakes, an amazon and its arrow that the sensors cannot tell apart, a
take-back, and a whole game against the AI to its end."""

from __future__ import annotations

import random
from contextlib import AbstractContextManager
from pathlib import Path

from host.reach.diff import hand_actions
from host.reach.script import parse
from host.session.ai_opponent import AiOpponent
from host.session.intent import Choose, Kind
from host.session.session import Settings
from host.store.games import Status, read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import Table, open_table
from tests.pipeline.player import Person


def do(person: Person, text: str) -> None:
    person.act(parse(text, set(person.game.geometry.names)))
    person.serve(0.5)


def choose(person: Person, text: str) -> None:
    """Answer the board's question: tap the moved squares until it shows ``text``, then Confirm."""
    intent = person.table.session.intent
    assert isinstance(intent, Choose) and text in intent.choices, intent.sentence
    for _ in intent.choices:
        if person.table.session.intent.shown == text:  # type: ignore[attr-defined]
            break
        do(person, f"tap {text[:2]}")
    do(person, "press confirm")


def humans(board: str, journal: Path | None = None) -> AbstractContextManager[Table]:
    return open_table(
        "amazons", SimulatedHardware(), board_id=board, settings=Settings(ai_side=None), journal_path=journal
    )


def test_a_wrong_arrow_is_shown_and_put_right_then_an_amazon_and_arrow_alike_are_asked() -> None:
    with humans("amazons-hall") as table:
        person, session = Person(table), table.session
        # d1 -> d7 is a queen move; e9 is not on a line from d7: no turn puts an arrow there.
        do(person, "lift d1\nplace d7\nplace e9 arrow\nwait 300")
        assert session.intent.kind is Kind.MISTAKE and session.moves == []
        # The arrow off is the one step to a board on the way to a legal move: d1-d7 stays (issue 40).
        assert {cell: light.meaning.value for cell, light in session.scene.items()} == {"e9": "remove"}
        assert session.intent.sentence.startswith("That is not a legal move: put the board right.")
        do(person, "remove e9\nwait 300")
        assert session.intent.kind is Kind.TURN_UNDER_WAY  # the amazon moved, its arrow to shoot
        assert "g7" in session.scene  # where the arrow may fly: along rank 7 to g7 ...
        do(person, "place g7 arrow")
        assert session.moves == ["d1-d7/g7"]
        # A Black amazon and an arrow both put north poles down: a7-a9/a8 reads as a7-a8/a9.
        do(person, "lift a7\nplace a9\nplace a8 arrow\nwait 300")
        intent = session.intent
        assert intent.kind is Kind.CHOOSE and set(intent.choices) == {"a7-a9/a8", "a7-a8/a9"}
        assert "a7-a9/a8 leaves the arrow on a8 and the Black amazon on a9" in intent.sentence
        choose(person, "a7-a9/a8")
        assert session.moves == ["d1-d7/g7", "a7-a9/a8"]


def test_on_reeds_a_white_turn_whose_squares_could_swap_is_asked_and_told_apart_in_words() -> None:
    with humans("amazons-reed") as table:
        person, session = Person(table), table.session
        do(person, "lift d1\nplace d5\nplace d7 arrow\nwait 300")
        intent = session.intent
        assert intent.kind is Kind.CHOOSE and set(intent.choices) == {"d1-d5/d7", "d1-d7/d5"}
        assert "d1-d5/d7 leaves the White amazon on d5 and the arrow on d7" in intent.sentence
        choose(person, "d1-d5/d7")
        assert session.moves == ["d1-d5/d7"]


def test_a_whole_game_against_the_ai_with_a_take_back(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    rng = random.Random(4)
    with open_table(
        "amazons", SimulatedHardware(), board_id="amazons-hall",
        opponent=AiOpponent(level=2, nodes=30, seed=1), settings=Settings(ai_side=1), journal_path=journal,
    ) as table:  # fmt: skip
        person = Person(table, seed=2)
        session, game = table.session, table.game
        person.serve(0.3)
        start = game.cells(session.position)
        person.make(rng.choice(game.legal_moves(session.position)))
        assert person.carry_out_ai_move_if_any()
        assert len(session.moves) == 2
        # Both turns taken back by hand: the amazons carried home, the two arrows taken off.
        person.act(hand_actions(game, game.cells(session.position), start, person.rng))
        person.serve(30.0, until=lambda: session.moves == [])
        assert session.moves == []
        while not game.is_over(session.position):
            person.make(rng.choice(game.legal_moves(session.position)))
            person.carry_out_ai_move_if_any()
        person.serve(1.0, until=lambda: session.intent.kind is Kind.GAME_OVER)
        assert session.intent.kind is Kind.GAME_OVER
        loser = game.table.side(game.to_move(session.position))
        assert f"{loser} has no legal turn, and loses." in session.intent.sentence
        assert table.play.bad_snapshots == 0
        moves = list(session.moves)
    (stored,) = read_games(journal)
    assert stored.moves == moves and stored.status is Status.FINISHED
