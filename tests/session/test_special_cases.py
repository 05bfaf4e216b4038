"""Each game's corners, as a player meets them: what the board lights and says (issue "Each game speaks for
itself", items 2-11).  The expected lights come from the rules (the legal moves' texts, RULES.md), never
from the tracker; the boards' own sensor models give the readings."""

from __future__ import annotations

from typing import Any

from engines import registry
from engines.physical import Thing
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.session.intent import Kind
from host.session.session import Session, Settings
from tests.tracking.test_session import session_on


def lit(session: Any, meaning: str) -> set[str]:
    return {cell for cell, light in session.scene.items() if light.meaning.value == meaning}


def test_the_square_a_queen_just_left_is_lit_for_the_shot() -> None:
    """Item 2: g10-g5 may shoot onto g10 (RULES.md: the square it just left counts as empty)."""
    session, board, _ = session_on("desdemona-reed")
    game = session.game
    pos = game.play_texts(["a4-a6"])
    board.show(pos)
    board.wait(400)
    board.move("g10", "g5")
    assert session.intent.kind is Kind.TURN_UNDER_WAY
    texts = [t for t in game.legal_texts(pos) if t.startswith("g10-g5") and t != "g10-g5"]
    # A shot names the stone's square after '/', a capture the square of the stone put after 'x'.
    expected = {t[7:] for t in texts}
    assert "g10" in expected
    assert lit(session, "put") == expected
    assert "Black stone" in session.intent.sentence  # a shot puts the opponent's colour


def test_a_lifted_holder_is_said_with_its_rings() -> None:
    """Item 3: a knight carries its rings; the sentence says so."""
    session, board, _ = session_on("kingofrings-reed")
    game = session.game
    line = ["b2-b3", "d6-d5"]  # b3's knight holds 1 ring now
    for ply in range(1, len(line) + 1):
        board.show(game.play_texts(line[:ply]))
        board.wait(400)
    board.lift("b3", 2)
    assert session.intent.kind is Kind.LIFTED
    assert session.intent.sentence == "Put Light's knight with its ring from b3 on a green square."


class Capturer:
    """An opponent that captures whenever it can (the first capture in sorted order)."""

    def choose(self, game: Any, pos: Any) -> Any:
        texts = game.legal_texts(pos)
        return game.parse_move(pos, next((t for t in texts if "x" in t), texts[0]))

    def hint(self, game: Any, pos: Any) -> list[Any]:
        return [self.choose(game, pos)]


def test_a_captured_knight_taken_off_is_no_longer_asked_for() -> None:
    """Item 3: while carrying out a capture, the knight taken off is not asked to be taken off again, and
    the capturer is named with the rings it carries."""
    session, board, _ = session_on("kingofrings-reed", ai_side=1, opponent=Capturer())
    game = session.game
    # Light's moves; Dark (capturing when it can) answers a7-a6 and a6-a5, then jumps 2 to take c3.
    for ply, text in enumerate(["g1-g2", "d2-c3", "g2-f1"]):
        board.show(game.play_texts([text], session.position))
        board.wait(400)
        if ply < 2:
            board.show(game.play(session.position, session.pending))
            board.wait(400)
    move = session.view().intent.move
    assert session.intent.kind is Kind.AI_MOVE and "x" in move, move
    source, target = move.split("x")
    rings = len(game.cells(session.position)[source]) - 1
    assert "take Light's knight" in session.intent.sentence
    assert f"move Dark's knight with its {'ring' if rings == 1 else f'{rings} rings'} from {source}" in (
        session.intent.sentence
    )
    # The capture's square first asks for the captured knight off (magenta), the capturer lifted (yellow).
    assert lit(session, "remove") == {target} and lit(session, "lift") == {source}
    assert lit(session, "put") == set()
    board.lift(target)  # the captured knight
    assert f"off {target}" not in session.intent.sentence, session.intent.sentence
    assert session.intent.kind is Kind.AI_MOVE
    assert lit(session, "put") == {target} and lit(session, "remove") == set()  # then green for the capturer


def test_a_mistake_while_making_the_ai_move_is_shown() -> None:
    """Item 4: a piece on the wrong point while carrying out the AI's move is a mistake, lit and said."""
    session, board, _ = session_on("flipfour-hall", ai_side=1)
    game = session.game
    board.place("c3", Thing("piece", 0))
    board.wait(400)
    assert session.intent.kind is Kind.AI_MOVE
    ai_move = session.view().intent.move
    after = game.cells(game.play(session.position, game.parse_move(session.position, ai_move)))
    free = sorted(c for c, stack in after.items() if not stack)
    board.place(free[0], Thing("piece", 1))  # no part of the AI's move: to be taken off, or moved where due
    board.wait(400)
    assert session.intent.kind is Kind.MISTAKE
    assert session.scene[free[0]].blink.value == "fast"
    assert session.scene[free[0]].meaning.value in ("remove", "lift")
    assert f"the Yellow piece from {free[0]}" in session.intent.sentence or (
        f"Take the Yellow piece off {free[0]}" in session.intent.sentence
    )
    assert "AI" in session.intent.sentence


def test_a_piece_with_the_wrong_side_up_for_the_ai_is_turned() -> None:
    """Item 4: the AI's piece put with its wrong colour up (a Hall board sees it) is asked to be turned."""
    session, board, _ = session_on("flipfour-hall", ai_side=1)
    game = session.game
    board.place("c3", Thing("piece", 0))
    board.wait(400)
    ai_move = session.view().intent.move
    pos = session.position
    after = game.cells(game.play(pos, game.parse_move(pos, ai_move)))
    put = sorted(c for c, stack in after.items() if stack != game.cells(pos)[c])
    for cell in put:
        board.place(cell, Thing("piece", 0))  # Red up, where the AI's Yellow goes
    board.wait(400)
    assert session.intent.kind is Kind.MISTAKE
    assert lit(session, "turn") <= set(put) and session.scene[put[0]].meaning.value == "turn"
    assert "so that Yellow is up" in session.intent.sentence


def test_a_tile_with_one_neighbour_asks_for_a_piece_to_be_moved() -> None:
    """Item 6: with one neighbour the rule is to move a piece one step, and the lights say from where."""
    session, board, _ = session_on("spacetiles-hall")
    game = session.game
    pos = game.play_texts(["e5:d2"])  # Orange's piece on d2
    board.show(pos)
    board.wait(400)
    # Violet's turn after which Orange has a one-step turn (RULES.md section 2: n = 1).
    pos = next(
        game.play(pos, m)
        for m in game.legal_moves(pos)
        if any("-" in t for t in game.legal_texts(game.play(pos, m)))
    )
    board.show(pos)
    board.wait(400)
    steps = [t for t in game.legal_texts(pos) if "-" in t]
    tile = steps[0].split(":")[0]
    mine = [t for t in steps if t.startswith(f"{tile}:")]
    board.place(tile, Thing("tile"))
    assert session.intent.kind is Kind.TURN_UNDER_WAY
    sentence = session.intent.sentence
    assert "move one of the Orange pieces from a yellow cell to a green one" in sentence, sentence
    assert "put" not in sentence.lower()
    assert lit(session, "lift") == {t.split(":")[1].split("-")[0] for t in mine}
    assert lit(session, "put") == {t.split("-")[1] for t in mine}


def test_two_moves_on_the_same_squares_are_told_apart_in_words() -> None:
    """Item 7: d1-d3/d5 and d1-d5/d3 change the same squares alike on reeds: say what differs."""
    session, board, _ = session_on("desdemona-reed")
    game = session.game
    board.show(game.play_texts(["a4-a6"]))
    board.wait(400)
    board.move("d1", "d3")
    board.place("d5", Thing("stone", 0))
    board.wait(400)
    intent = session.intent
    assert intent.kind is Kind.CHOOSE
    assert set(intent.choices) == {"d1-d3/d5", "d1-d5/d3"}
    assert "d1-d3/d5 leaves the White queen on d3 and the Black stone on d5" in intent.sentence
    assert "d1-d5/d3 leaves the Black stone on d3 and the White queen on d5" in intent.sentence
    assert "Tap a blue" not in intent.sentence and "Confirm" in intent.sentence


def test_a_tile_from_the_tray_may_go_where_a_turn_places_one() -> None:
    """Item 8: the cells where a tile taken from the tray may go are those of the legal turns."""
    session, _, _ = session_on("spacetiles-hall")
    game = session.game
    tiles = {t.split(":")[0] for t in game.legal_texts(session.position)}
    assert session.placements(Thing("tile")) == tiles
    # A piece may go where a turn places one (n >= 2: the cells after the colon), a tile's cell excepted.
    placed = {c for t in game.legal_texts(session.position) for c in t.split(":")[1].split(",")}
    assert session.placements(Thing("piece", 0)) == placed
    assert session.placements(Thing("piece", 1)) == set()  # Violet's pieces are not Orange's to place


def test_first_turns_say_what_the_first_turn_is() -> None:
    """Item 10: Desdemona's first turn is the queen move alone; Flip Four's places exactly one piece."""
    desdemona, _, _ = session_on("desdemona-reed")
    assert "shoot" not in desdemona.intent.sentence and "queen move alone" in desdemona.intent.sentence
    flipfour, board, _ = session_on("flipfour-reed")
    assert flipfour.intent.sentence == "Red to move: place one piece (the first turn places exactly one)."
    board.place("c3", Thing("piece", 0))
    board.wait(400)
    assert "one or two pieces" in flipfour.intent.sentence


def test_one_step_to_put_right_is_not_said_first_and_a_tile_is_a_tile() -> None:
    """Item 11: "First ..." only before several steps, and an extra tile is called a tile."""
    session, board, _ = session_on("spacetiles-hall")
    game = session.game
    assert not any(t.startswith("a1:") for t in game.legal_texts(session.position))
    board.place("a1", Thing("tile"))  # touches no tile: no turn places it there
    board.wait(400)
    assert session.intent.kind is Kind.MISTAKE
    assert session.intent.sentence == "That is not a legal move: put the board right. Take the tile off a1."


def test_the_lift_light_is_not_left_on_a_piece_in_the_hand() -> None:
    """Item 11: once lifted, the piece is in the hand; its square does not ask for it to be lifted."""
    session, board, _ = session_on("desdemona-reed")
    board.lift("a4")
    assert session.intent.kind is Kind.LIFTED
    assert "a4" not in session.scene


# --- the words, as the phrasebook (docs/words/) showed them wrong ----------------------------------------


class Playing:
    """An opponent that plays the move it is given."""

    def __init__(self, text: str) -> None:
        self.text = text

    def choose(self, game: Any, pos: Any) -> Any:
        return game.parse_move(pos, self.text)

    def hint(self, game: Any, pos: Any) -> list[Any]:
        return [self.choose(game, pos)]


def test_steps_after_a_colon_go_on_in_lower_case_and_a_restore_says_its_steps_as_a_new_sentence() -> None:
    session, board, _ = session_on("desdemona-reed", ai_side=1)
    board.move("a4", "a6")
    board.wait(400)
    # FirstMove: a7-a10/a7, the first legal text: the queen a7 to a10, then a Black stone shot on a7.
    assert session.intent.sentence == (
        "The AI plays a7-a10/a7 for White: move the White queen from a7 to a10; put a Black stone on a7."
    )
    flipfour, board, _ = session_on("flipfour-reed")
    board.place("c3", Thing("piece", 0))
    board.wait(400)
    board.press("take_back")
    assert flipfour.intent.sentence == "Take back: set the board back one turn. Take the Red piece off c3."


def test_several_steps_to_put_right_begin_with_first_and_a_comma() -> None:
    session, board, _ = session_on("spacetiles-hall")
    board.place("a1", Thing("tile"))  # a1 and i1 touch no tile: no turn places one there
    board.place("i1", Thing("tile"))
    board.wait(400)
    assert session.intent.sentence == (
        "That is not a legal move: put the board right. First, take the tile off a1. (1 more step to fix.)"
    )


def test_game_over_says_who_won_then_why_in_sentences_of_their_own() -> None:
    game = registry.make("flipfour")
    pos = game.from_diagram(
        """
          . . .
         . . . .
        R R R R .
         . Y Y .
          . . .
        """,
        to_move=0,
        hands=(4, 6),
    )
    model = SensorModel(load_board("flipfour-hall"))
    session = Session(game, model.reading_of, Reading.EMPTY, history=[pos], settings=Settings(ai_side=None))
    assert session.intent.kind is Kind.GAME_OVER
    assert session.intent.sentence == (
        "Game over: Red wins. Red shows a line of exactly 4 at the start of Red's turn, and wins. "
        "Press New game to play again."
    )


def test_a_take_back_made_by_hand_is_said_in_words() -> None:
    session, board, _ = session_on("flipfour-reed")
    board.place("c3", Thing("piece", 0))
    board.wait(400)
    board.lift("c3")  # the board shows the start again: that takes c3 back
    assert session.intent.kind is Kind.TURN_UNDER_WAY
    assert session.intent.sentence == "The last move taken back: hold still a moment."


CAPTURE = ["a1-b1", "b6-a5", "b2-b3", "a5-a4"]  # Light's b3 (1 ring) may take Dark's a4 (2 rings): b3xa4


def test_the_knight_a_capture_takes_off_is_not_asked_back() -> None:
    """RULES.md: the captured knight leaves the board and its rings stay for the capturer."""
    for board_id in ("kingofrings-reed", "kingofrings-hall"):
        session, board, _ = session_on(board_id)
        for ply in range(1, len(CAPTURE) + 1):
            board.show(session.game.play_texts(CAPTURE[:ply]))
            board.wait(400)
        assert session.game.legal_texts(session.position).count("b3xa4") == 1
        board.lift("a4")  # Dark's knight alone: its rings stay on a4
        assert session.intent.kind is Kind.TURN_UNDER_WAY, board_id
        assert session.intent.sentence == "To finish b3xa4: move Light's knight with its ring from b3 to a4."
        board.lift("b3", 2)  # the capturer with its ring, the captured knight still in the other hand
        assert session.intent.kind is Kind.LIFTED
        assert session.intent.sentence == "Put Light's knight with its ring from b3 on a green square.", (
            board_id
        )


def test_moves_the_sensors_cannot_tell_apart_are_listed_with_commas() -> None:
    session, board, _ = session_on("spacetiles-reed")  # a reed switch does not feel a tile
    board.place("d2", Thing("piece", 0))
    board.wait(400)
    intent = session.intent
    assert intent.kind is Kind.CHOOSE
    # Every turn whose one piece goes on d2: its tile touches two tiles (RULES.md: n - 1 = 1 piece).
    assert set(intent.choices) == {t for t in session.game.legal_texts(session.position) if t.endswith(":d2")}
    listed = ", ".join(intent.choices[:-1]) + " or " + intent.choices[-1]
    assert f"The sensors cannot tell {listed} apart." in intent.sentence


def test_a_board_that_no_instruction_fits_says_so_rather_than_finish_the_move() -> None:
    session, board, _ = session_on("desdemona-hall")
    board.show(session.game.play_texts(["j7-f7"]))
    board.wait(400)
    board.place("a1", Thing("queen", 1))  # a White queen from nowhere: reads as one of White's moves landed
    board.wait(400)
    assert session.intent.kind is Kind.TURN_UNDER_WAY and session.scene == {}
    assert session.intent.sentence == "Finish your turn, or put back what you changed."


def test_a_space_tiles_turn_is_said_tile_first() -> None:
    """RULES.md: a turn places its tile first; the tile's neighbours decide the rest."""
    session, _, _ = session_on("spacetiles-hall", opponent=Playing("c3:d2"), ai_side=0)
    assert session.intent.sentence == (
        "The AI plays c3:d2 for Orange: put a tile on c3; put an Orange piece on d2."
    )
    game = session.game
    # Orange's piece on d2, then a turn of Violet's after which Orange may move it one step.
    moves = ["e5:d2"]
    pos = game.play_texts(moves)
    reply = next(
        m for m in game.legal_moves(pos) if any("-" in t for t in game.legal_texts(game.play(pos, m)))
    )
    moves.append(game.format_move(pos, reply))
    history = [game.start(), pos, game.play(pos, reply)]
    step = next(t for t in game.legal_texts(history[-1]) if "-" in t)  # 'tile:from-to'
    tile, (source, target) = step.split(":")[0], step.split(":")[1].split("-")
    model = SensorModel(load_board("spacetiles-hall"))
    settings = Settings(ai_side=0, think_in_background=False)
    session = Session(
        game, model.reading_of, Reading.EMPTY, opponent=Playing(step), settings=settings, history=history,
        moves=moves,
    )  # fmt: skip
    assert session.intent.sentence == (
        f"The AI plays {step} for Orange: put a tile on {tile}; "
        f"move the Orange piece from {source} to {target}."
    )


def test_each_turn_is_said_in_the_game_s_terms_and_offers_only_what_can_be_done() -> None:
    """RULES.md: Yellow has no piece to jump with on its first turn, nor White a stone to capture; a King of
    Rings knight steps while it holds no ring, jumps once it holds one, and drops from the hand."""
    flipfour, board, _ = session_on("flipfour-reed")
    board.place("c3", Thing("piece", 0))
    board.wait(400)
    assert flipfour.intent.sentence == "Yellow to move: place one or two pieces."
    board.place("c4", Thing("piece", 1))
    board.wait(400)
    board.press("confirm")  # one piece: Yellow's turn could have placed two
    assert "c3-c5" in flipfour.game.legal_texts(flipfour.position)
    assert flipfour.intent.sentence == (
        "Red to move: place one or two pieces, or jump one of yours over a row of pieces."
    )
    desdemona, board, _ = session_on("desdemona-reed")
    board.move("a4", "a6")
    board.wait(400)
    assert desdemona.intent.sentence == "White to move: move a queen, then shoot a Black stone."
    kingofrings, board, _ = session_on("kingofrings-reed")
    assert kingofrings.intent.sentence == "Light to move: step a knight."
    for ply in range(1, len(CAPTURE) + 1):
        board.show(kingofrings.game.play_texts(CAPTURE[:ply]))
        board.wait(400)
    # b3 holds a ring, and may take Dark's a4 (RULES.md): whose rings stay for the taker, once it is off.
    assert kingofrings.intent.sentence == (
        "Light to move: step or jump a knight; to take a knight, lift it off its square first."
    )
    spacetiles, _, _ = session_on("spacetiles-reed")
    # RULES.md: no piece of Orange's stands on the board yet, so no turn moves one (issue 41 item 5).
    assert spacetiles.intent.sentence == (
        "Orange to move: place a tile that touches two tiles or more, then place one piece fewer than the "
        "tiles it touches."
    )
