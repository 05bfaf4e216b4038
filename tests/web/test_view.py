"""The page's picture from hand-made session views: pools, stacks, ghosts, turns, set-up goals.

No browser here: ``picture`` is a pure function of a SessionView and the board's
contents, so each fact the page shows is checked against the rules by hand.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from engines import registry
from engines.game import Outcome
from engines.physical import Thing
from host.hardware.loading import load_board
from host.session.intent import (
    AiMove,
    Choose,
    Confirm,
    DeadStones,
    GameOver,
    Intent,
    Lifted,
    Mistake,
    Restore,
    YourTurn,
)
from host.session.lights import Blink, Light, Meaning
from host.session.session import Settings
from host.session.session_view import AiInfo, SessionView
from host.store.database import opened
from host.store.games import Status, StoredGame, insert_game, stamp
from host.web.past_games import PastGames
from host.web.view import goal, layout, over_json, past_game_json, picture, replay_json, unseen_words

FLIPFOUR = registry.make("flipfour")
SPACETILES = registry.make("spacetiles")
KINGOFRINGS = registry.make("kingofrings")


def view(
    game: Any, pos: Any, intent: Intent, moves: tuple[str, ...] = (), ai: AiInfo | None = None, **extra: Any
) -> SessionView:
    return SessionView(
        game=game, position=pos, intent=intent, moves=moves, last_move=frozenset(), hint=(), ai=ai, **extra
    )


def test_each_player_has_their_own_pool_less_what_the_mover_took_out() -> None:
    # Flip Four after c3 (Red) and b2,d4 (Yellow): Red 7 to place, Yellow 6.  Red has put a piece on e1
    # for its next move, not yet committed: Red's pool shows 6, Yellow's stays 6.
    pos = FLIPFOUR.play_texts(["c3", "b2,d4"])
    stacks = dict(FLIPFOUR.cells(pos)) | {"e1": (Thing("piece", 0),)}
    shown = picture(view(FLIPFOUR, pos, YourTurn("Red to move.")), stacks, load_board("flipfour-hall"))
    assert shown["tray"]["piece:0"] == {"count": 6, "words": "Red: 6 pieces to place"}
    assert shown["tray"]["piece:1"] == {"count": 6, "words": "Yellow: 6 pieces to place"}
    hands = [p["hand"][0]["words"] for p in shown["players"]]
    assert hands == ["7 pieces to place", "6 pieces to place"]  # the game's count, the committed position


def test_space_tiles_shows_pieces_in_hand_and_the_tile_supply() -> None:
    pos = SPACETILES.play_texts(["c3:d3"])
    shown = picture(view(SPACETILES, pos, YourTurn("")), SPACETILES.cells(pos), load_board("spacetiles-hall"))
    assert [p["hand"][0]["words"] for p in shown["players"]] == ["19 pieces in hand", "20 pieces in hand"]
    assert shown["supply"] == ["30 tiles in supply"]  # 31 at the start, one placed
    assert shown["tray"]["tile"]["count"] == 30 and shown["score"] is None


def test_king_of_rings_stacks_show_rings_and_points() -> None:
    # b2-b3 takes a silver ring (1 point), Dark's d6-d5 another; b3 holds 1 ring, so it jumps 1:
    # b3-c4 takes the blue ring on c4 -> 2 rings, 4 points.
    pos = KINGOFRINGS.play_texts(["b2-b3", "d6-d5", "b3-c4"])
    shown = picture(
        view(KINGOFRINGS, pos, YourTurn("")), KINGOFRINGS.cells(pos), load_board("kingofrings-hall")
    )
    assert shown["stacks"] == {
        "c4": {"count": 2, "points": 4, "words": "2 rings, 4 points"},
        "d5": {"count": 1, "points": 1, "words": "1 ring, 1 point"},
    }
    assert shown["score"] == "Light 4 points - Dark 1 point"


def test_the_move_list_is_numbered_turns_of_both_sides() -> None:
    moves = ("c3", "b2,d4", "e1")
    pos = FLIPFOUR.play_texts(moves)
    shown = picture(
        view(FLIPFOUR, pos, YourTurn(""), moves), FLIPFOUR.cells(pos), load_board("flipfour-hall")
    )
    assert shown["turns"] == [["c3", "b2,d4"], ["e1"]] and shown["ply"] == 3


def test_an_ai_move_ghosts_what_goes_where_a_tile_apart_from_pieces() -> None:
    # Space Tiles: the AI (Violet) places a tile on g3, which touches f3 and f4 (n = 2): one piece, on e4.
    pos = SPACETILES.play_texts(["c3:d3"])
    scene = {"g3": Light(Meaning.PUT, Blink.SLOW), "e4": Light(Meaning.PUT, Blink.SLOW)}
    ai = view(SPACETILES, pos, AiMove("The AI plays g3:e4.", scene, move="g3:e4"))
    target = goal(ai)
    shown = picture(ai, SPACETILES.cells(pos), load_board("spacetiles-hall"), target=target)
    assert shown["ghosts"] == {"g3": ["tile"], "e4": ["tile", "piece:1"]}
    assert shown["intent"]["move"] == "g3:e4"


def test_set_up_goes_to_the_committed_position_except_during_the_players_own_move() -> None:
    pos = FLIPFOUR.play_texts(["c3"])
    assert goal(view(FLIPFOUR, pos, Restore(""))) == pos
    assert goal(view(FLIPFOUR, pos, Mistake(""))) == pos
    assert goal(view(FLIPFOUR, pos, AiMove("", move="b2"))) == FLIPFOUR.play_texts(["c3", "b2"])
    assert goal(view(FLIPFOUR, pos, Confirm("", move="e1"))) is None
    assert goal(view(FLIPFOUR, pos, Lifted("", origins=("c3",)))) is None


def test_a_real_boards_page_outlines_the_cells_the_sensors_disagree_on_and_dots_the_targets() -> None:
    pos = FLIPFOUR.play_texts(["c3"])
    lifted = Lifted("", {"c3": Light(Meaning.LIFT)}, origins=("c3",), targets=frozenset({"c5", "a3"}))
    real = view(FLIPFOUR, pos, lifted, differing=frozenset({"c3"}))
    shown = picture(real, FLIPFOUR.cells(pos), load_board("flipfour-hall"), changed=sorted(real.differing))
    assert shown["changed"] == ["c3"] and shown["targets"] == ["a3", "c5"]


def test_the_layout_carries_the_legend_of_every_light_and_the_notation() -> None:
    shown = layout(FLIPFOUR, load_board("flipfour-hall"), simulated=True)
    assert {entry["meaning"] for entry in shown["legend"]} == {m.value for m in Meaning}
    assert {entry["blink"] for entry in shown["blinks"]} == {b.value for b in Blink}
    assert "b2,d4" in shown["notation"]


def test_the_simulated_page_shows_what_the_sensors_cannot_see() -> None:
    """King of Rings on reed: rings carry no magnet, so the ring taken off c4 changes no reading - the page
    says the game still believes c4's blue ring (RULES.md: a4 b4 c4 e4 f4 g4 hold blue rings) stands there."""
    from host.web.table_page import TablePage
    from host.wiring.hardware import SimulatedHardware
    from host.wiring.table import open_table

    with open_table(
        "kingofrings", SimulatedHardware(), board_id="kingofrings-reed", settings=Settings(ai_side=None)
    ) as table:
        assert table.reach is not None
        with table.reach.rig.lock:
            table.reach.rig.virtual.lift("c4")
        page = TablePage(table, server=None)  # type: ignore[arg-type] - only the picture is asked for
        try:
            shown = page._picture(table.session.view())
        finally:
            page.close()
    assert set(shown["unseen"]) == {"c4"}
    assert "holds a blue ring" in shown["unseen"]["c4"]


def test_a_typed_twin_whose_tap_the_board_missed_is_tapped_again() -> None:
    """Space Tiles on reed: g3:d3 typed, the board asks which of d3's twins it was and the page taps g3
    (only the typed move changes it) for the player.  A tap the sensors miss leaves the question as it was:
    the page taps again once the board has had time to notice (2 s), not before - as a player would."""
    from host.web.table_page import ANSWER_AGAIN_MS, TablePage
    from host.wiring.hardware import SimulatedHardware
    from host.wiring.table import open_table

    pos = SPACETILES.start()
    twins = tuple(text for text in SPACETILES.legal_texts(pos) if text.endswith(":d3"))
    asked = Choose("Which move?", scene={"d3": Light(Meaning.CHOOSE)}, choices=twins, shown=twins[0])
    assert "g3:d3" in twins and twins[0] != "g3:d3"
    with open_table(
        "spacetiles", SimulatedHardware(), board_id="spacetiles-reed", settings=Settings(ai_side=None)
    ) as table:
        now = [0]
        table.loop.clock = lambda: now[0]
        page = TablePage(table, server=None)  # type: ignore[arg-type] - no page is served
        assert page.gestures is not None
        taps: list[str] = []
        page.gestures.perform = lambda verb, **args: taps.append(f"{verb} {args['cell']}")  # type: ignore[method-assign]
        page._typed_move = ((), "g3:d3")
        try:
            for now[0], expected in [(0, 1), (1, 1), (ANSWER_AGAIN_MS - 1, 1), (ANSWER_AGAIN_MS, 2)]:
                page._answer_typed(view(SPACETILES, pos, asked))
                for future in list(page._busy):
                    future.result(timeout=10)
                page._collect()
                assert taps == ["tap g3"] * expected, now[0]
        finally:
            page.close()


def test_a_stack_the_sensors_cannot_see_is_said_from_the_bottom_up() -> None:
    """A knight stands on the rings it won (RULES.md): each object is said under the one on it."""
    stack = (Thing("ring_silver"), Thing("ring_bigblue"), Thing("knight", 0))
    said = unseen_words(view(KINGOFRINGS, KINGOFRINGS.start(), YourTurn("")), stack)
    assert "holds a silver ring under a big blue ring under Light's knight" in said


# --- past games: the list and the replay --------------------------------------------------------------
def stored_flipfour(moves: list[str], status: Status = Status.ABANDONED, **extra: Any) -> StoredGame:
    return StoredGame(7, "flipfour", (), "flipfour-hall", ("human", "magboard level 3"), status, 0.0,
                      moves=list(moves), times=[None] * len(moves), **extra)  # fmt: skip


def test_a_replay_step_draws_the_position_after_that_many_moves_and_nothing_to_do() -> None:
    # RULES.md (Flip Four): a move places one piece, or two on the ends of a line; Red begins, 8 pieces each.
    moves = ["c3", "b2,d4", "e1"]
    stored = stored_flipfour(moves)
    positions = [FLIPFOUR.start(), *(FLIPFOUR.play_texts(moves[:n]) for n in (1, 2, 3))]
    shown = replay_json(FLIPFOUR, stored, positions, 2, live=None)
    assert shown["type"] == "replay" and (shown["step"], shown["steps"]) == (2, 3)
    board = shown["picture"]
    assert board["cells"] == {"c3": ["piece:0"], "b2": ["piece:1"], "d4": ["piece:1"]}
    assert board["last_move"] == ["b2", "d4"] and board["ply"] == 2
    assert board["leds"] == {} and board["ghosts"] == {} and board["targets"] == [] and board["held"] == []
    assert [p["hand"][0]["words"] for p in board["players"]] == ["7 pieces to place", "6 pieces to place"]
    assert [p["to_move"] for p in board["players"]] == [True, False] and board["over"] is None
    assert board["turns"] == [["c3", "b2,d4"], ["e1"]]
    assert shown["status"] == "Game 7 after move 2 of 3: Yellow played b2,d4."
    start = replay_json(FLIPFOUR, stored, positions, 0, live=None)["picture"]
    assert start["cells"] == {} and start["last_move"] == []


def test_past_games_say_how_each_stands_in_words() -> None:
    won = stored_flipfour(["c3"], Status.FINISHED, outcome=Outcome(1, None))
    assert past_game_json(FLIPFOUR, won, 1, live=None) == {
        "id": 7, "players": ["human", "magboard level 3"], "date": stamp(0.0)[:16], "state": "Yellow won",
        "moves": 1, "live": False,
    }  # fmt: skip
    assert past_game_json(FLIPFOUR, won, 1, live=7)["state"] == "Yellow won"  # the live game, once over
    assert past_game_json(FLIPFOUR, stored_flipfour([]), 0, live=None)["state"] == "abandoned"
    assert (
        past_game_json(FLIPFOUR, stored_flipfour([], Status.PLAYING), 0, live=7)["state"]
        == "being played now"
    )
    drawn = stored_flipfour([], Status.FINISHED, outcome=Outcome(None, (2, 2)))
    assert past_game_json(KINGOFRINGS, drawn, 0, live=None)["state"] == (
        "a draw, Light 2 points - Dark 2 points"
    )


def test_the_past_games_panel_answers_from_the_store_and_bad_questions_get_a_reason(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    with opened(store) as conn:
        first = insert_game(conn, stored_flipfour(["c3", "b2,d4"]))
        insert_game(conn, dataclasses.replace(stored_flipfour(["a4-a6"]), game="desdemona"))
        last = insert_game(conn, stored_flipfour(["e1"], Status.PLAYING))
    past = PastGames(FLIPFOUR, store, live=lambda: last)
    listed = past.listing({"type": "past_games"})
    assert [(g["id"], g["moves"], g["state"]) for g in listed["games"]] == [
        (last, 1, "being played now"), (first, 2, "abandoned"),
    ]  # fmt: skip
    assert listed["total"] == 2  # the Desdemona game is not listed on a Flip Four board
    shown = past.replay({"type": "replay", "game": first, "step": 1})
    assert shown["picture"]["cells"] == {"c3": ["piece:0"]}

    def said(message: dict[str, Any]) -> str:
        answer = past.replay({"type": "replay", **message})
        assert answer["type"] == "error" and answer["about"] == "past"
        return str(answer["message"])

    assert said({"game": "x"}) == "a replay names a game by its number, not 'x'"
    assert "not True" in said({"game": True})
    assert said({"game": first, "step": 3}) == f"game {first} has 2 moves: a step is 0..2, not 3"
    assert "not -1" in said({"game": first, "step": -1})
    assert "a number of moves, not '" in said({"game": first, "step": "9" * 100})
    assert len(said({"game": first, "step": "9" * 100})) < 100
    assert said({"game": 99}) == "there is no game 99 of Flip Four in the store"
    assert said({"game": first + 1}) == f"there is no game {first + 1} of Flip Four in the store"
    assert "not kept in a store" in PastGames(FLIPFOUR, None, live=lambda: None).listing({})["message"]


def test_an_engine_that_plays_instead_of_the_ai_is_named_and_has_no_level() -> None:
    go7 = registry.make("go7")
    pos = go7.start()
    engine = AiInfo(1, None, 1.0, None, "GNU Go 3.8")
    shown = picture(view(go7, pos, YourTurn(""), ai=engine), go7.cells(pos), load_board("go7-hall"))
    assert shown["ai"] == {
        "side": 1, "level": None, "seconds": 1.0, "nodes": None, "name": "GNU Go 3.8", "stopped": None
    }  # fmt: skip
    ours = picture(
        view(go7, pos, YourTurn(""), ai=AiInfo(1, 10, 3.0, None)), go7.cells(pos), load_board("go7-hall")
    )
    assert ours["ai"]["name"] is None and ours["ai"]["level"] == 10


def test_go_is_not_over_on_the_page_until_the_dead_stones_are_agreed_and_then_the_agreed_winner() -> None:
    go7 = registry.make("go7")
    # Black walls the e file, White the f file, White invades at d4, both pass (tests/session/
    # test_dead_stones.py counts it: as it stands White wins, with d4 dead Black does).
    walls = [m for rank in range(1, 8) for m in (f"e{rank}", f"f{rank}")]
    pos = go7.play_texts([*walls, "pass", "d4", "pass", "pass"])
    agreeing = DeadStones("Take off the dead stones (lit)", proposed=frozenset({"d4"}))
    assert over_json(view(go7, pos, agreeing)) is None
    said = "With 1 dead stone off, by area Black 35, White 14 + 7.5: Black wins by 13.5."
    over = GameOver(f"Game over: Black wins. {said}", winner=0, reason=said, cells=frozenset({"a1"}))
    assert over_json(view(go7, pos, over)) == {"winner": 0, "reason": said, "cells": ["a1"]}
