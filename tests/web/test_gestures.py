"""The page's hands without a browser (issue 41): what a click lifts by the game's rules, that a drop puts
down all that is held, and that the tray gives only what the game can still give."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engines import registry
from engines.physical import Thing
from host.session.session import Settings
from host.web.gestures import GestureError

KNIGHT0, KNIGHT1 = Thing("knight", 0), Thing("knight", 1)
SILVER, BLUE = Thing("ring_silver"), Thing("ring_blue")


@pytest.mark.parametrize(
    ("to_move", "stack", "lifted"),
    [
        (0, (KNIGHT0,), 1),
        (0, (SILVER, BLUE, KNIGHT0), 3),  # RULES.md: a knight carries the rings it won
        (1, (SILVER, BLUE, KNIGHT0), 1),  # the other side's knight: taken off its rings (a capture)
        (0, (SILVER, KNIGHT1), 1),
        (0, (SILVER,), 1),  # a loose ring alone
        (0, (SILVER, KNIGHT0, BLUE), 1),  # a ring put on a knight: the hand reaches the ring alone
        (0, (), 0),
    ],
)
def test_a_hand_lifts_a_knight_with_its_rings_on_its_owners_turn(
    to_move: int, stack: tuple[Thing, ...], lifted: int
) -> None:
    game = registry.make("kingofrings")
    pos = game.start() if to_move == 0 else game.play_texts(["d2-d3"])
    assert game.to_move(pos) == to_move
    assert game.table.lifted(game, pos, stack) == lifted


@pytest.mark.parametrize("game_id", ["go7", "spacetiles", "desdemona", "flipfour", "amazons"])
def test_in_other_games_a_hand_lifts_the_top_object_alone(game_id: str) -> None:
    game = registry.make(game_id)
    pos = game.start()
    for stack in game.cells(pos).values():
        assert game.table.lifted(game, pos, stack) == min(len(stack), 1)


@contextmanager
def kingofrings_page() -> Iterator[Any]:
    from host.web.table_page import TablePage
    from host.wiring.hardware import SimulatedHardware
    from host.wiring.table import open_table

    with open_table("kingofrings", SimulatedHardware(), settings=Settings(ai_side=None)) as table:
        page = TablePage(table, server=None)  # type: ignore[arg-type] - no page is served
        try:
            yield page
        finally:
            page.close()


def test_a_click_carries_a_stack_and_puts_all_of_it_down_and_the_tray_gives_only_what_it_has() -> None:
    with kingofrings_page() as page:
        gestures, hands, reach = page.gestures, page.hands, page.table.reach
        # RULES.md: all 35 rings are on the board at the start and both hands are empty, so the box has
        # nothing to give.
        for thing, said in [("ring_silver", "0 in the box"), ("knight:0", "Light: 0 knights in hand")]:
            with pytest.raises(GestureError, match=f"no .* to take \\({said}\\)"):
                gestures.perform("tray", thing=thing)
        assert hands.held == []
        # A knight with two rings under it (put there as a hand would), lifted with one click, put down
        # with one: the stack lands as it was.
        assert reach.lift("a1") == KNIGHT0
        for thing in (SILVER, BLUE, KNIGHT0):
            reach.place("a1", thing)
        gestures.perform("click", cell="a1")
        assert hands.held == [KNIGHT0, BLUE, SILVER] and hands.stack("a1") == ()
        assert not gestures.from_tray  # the board sees what left a1 and says where it goes
        gestures.perform("click", cell="a2")
        assert hands.held == [] and hands.stack("a2") == (SILVER, SILVER, BLUE, KNIGHT0)
        # Shift-click (the unusual): the top object alone; the tray then takes back all the hand holds.
        gestures.perform("lift", cell="a2")
        gestures.perform("lift", cell="a2")
        assert hands.held == [KNIGHT0, BLUE]
        gestures.perform("tray")
        assert hands.held == [] and hands.stack("a2") == (SILVER, SILVER)
        # What is out of the box can be given again: the knight just put in it.
        gestures.perform("tray", thing="knight:0")
        assert hands.held == [KNIGHT0] and gestures.from_tray  # unseen by the sensors: the page says it
        gestures.perform("click", cell="b1")
        assert hands.held == [] and not gestures.from_tray
