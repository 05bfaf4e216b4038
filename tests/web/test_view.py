"""The page's picture from hand-made session views: pools, stacks, ghosts, turns, set-up goals.

No browser here: ``picture`` is a pure function of a SessionView and the board's
contents, so each fact the page shows is checked against the rules by hand.
"""

from __future__ import annotations

from typing import Any

from engines import registry
from engines.physical import Thing
from host.hardware.loading import load_board
from host.session.intent import AiMove, Confirm, Intent, Lifted, Mistake, Restore, YourTurn
from host.session.lights import Blink, Light, Meaning
from host.session.session import Settings
from host.session.session_view import SessionView
from host.web.view import goal, layout, picture

FLIPFOUR = registry.make("flipfour")
SPACETILES = registry.make("spacetiles")
KINGOFRINGS = registry.make("kingofrings")


def view(game: Any, pos: Any, intent: Intent, moves: tuple[str, ...] = (), **extra: Any) -> SessionView:
    return SessionView(game, pos, intent, moves, frozenset(), (), None, **extra)


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
    assert shown["stacks"] == {"c4": {"rings": 2, "points": 4}, "d5": {"rings": 1, "points": 1}}
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
    from host.session.setup import open_simulated
    from host.web.table_page import TablePage

    with open_simulated("kingofrings", board_id="kingofrings-reed", settings=Settings(ai_side=None)) as table:
        assert table.rig is not None
        with table.rig.lock:
            table.rig.virtual.lift("c4")
        page = TablePage(table, server=None)  # type: ignore[arg-type] - only the picture is asked for
        try:
            shown = page._picture(table.session.view())
        finally:
            page.close()
    assert set(shown["unseen"]) == {"c4"}
    assert "holds a blue ring" in shown["unseen"]["c4"]
