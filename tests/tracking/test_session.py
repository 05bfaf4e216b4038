"""The session on hand-made readings: commits, the AI's move shown and carried out, take-back, mistakes,
the buttons in every state, and what the board says in words.  The board files' own sensor models give
the readings; the full pipeline with firmware and serial link is tested elsewhere."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from engines import registry
from engines.desdemona.rules import Desdemona
from engines.game import Game
from engines.physical import Thing
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import Reading, SensorModel
from host.session.handboard import HandBoard as Board
from host.session.intent import Kind
from host.session.session import Event, EventKind, Session, Settings


class FirstMove:
    """A predictable opponent: the legal move whose text sorts first; its hint is the same."""

    def choose(self, game: Game[Any, Any], pos: Any) -> Any:
        return min(game.legal_moves(pos), key=lambda m: game.format_move(pos, m))

    def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]:
        return [self.choose(game, pos)]


def session_on(board_id: str, opponent: Any = None, **settings: Any) -> tuple[Session, Board, list[Event]]:
    spec = load_board(board_id)
    model = SensorModel(spec)
    game = registry.make(spec.game)
    settings.setdefault("think_in_background", False)
    settings.setdefault("ai_side", None)
    session = Session(
        game, model.reading_of, Reading.EMPTY, opponent=opponent or FirstMove(), settings=Settings(**settings)
    )
    events: list[Event] = []
    session.listeners.append(events.append)
    return session, Board(session, model), events


def commits(events: list[Event]) -> list[str]:
    return [e.data["move"] for e in events if e.kind is EventKind.COMMIT]


@pytest.fixture
def desdemona_reed() -> Iterator[tuple[Session, Board, list[Event]]]:
    session, board, events = session_on("desdemona-reed", ai_side=1)
    yield session, board, events
    session.close()


def test_a_move_is_committed_and_the_ai_reply_is_lit_and_said(desdemona_reed: Any) -> None:
    session, board, _ = desdemona_reed
    assert session.intent.kind is Kind.YOUR_TURN and session.scene == {}
    board.lift("a4")
    assert session.intent.kind is Kind.LIFTED
    assert "a4" not in session.scene  # the queen is in the hand: nothing to lift there
    # By hand: the queen on a4 reaches a1-a3, a5-a6, b4-i4, b5-f9 and b3-c2 (the start's queens block).
    targets = {c for c, light in session.scene.items() if light.meaning.value == "put"}
    assert targets == {"a1", "a2", "a3", "a5", "a6", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4",
                       "b5", "c6", "d7", "e8", "f9", "b3", "c2"}  # fmt: skip
    assert "green" in session.intent.sentence and "queen" in session.intent.sentence
    board.place("a6")
    board.wait(300)
    assert session.moves[0] == "a4-a6"
    assert session.intent.kind is Kind.AI_MOVE
    assert session.view().intent.move == "a7-a10/a7"  # FirstMove: the first legal move in sorted order
    assert session.scene["a7"].meaning.value == "lift" and session.scene["a10"].meaning.value == "put"
    assert "a7-a10/a7" in session.intent.sentence
    board.move("a7", "a10")
    assert session.scene["a7"].meaning.value == "put"  # now the stone: a Black one, shot onto a7
    board.place("a7", Thing("stone", 0))
    board.wait(300)
    assert session.moves == ["a4-a6", "a7-a10/a7"]
    assert session.intent.kind is Kind.YOUR_TURN


def test_a_wrong_move_is_shown_after_it_settles_one_step_at_a_time(desdemona_reed: Any) -> None:
    session, board, _ = desdemona_reed
    board.move("a4", "b6")  # not a queen move
    board.wait(100)
    assert session.moves == [] and session.intent.kind is not Kind.MISTAKE  # a hand may still be at work
    board.wait(300)
    assert session.intent.kind is Kind.MISTAKE
    assert session.scene["b6"].meaning.value == "lift" and session.scene["b6"].blink.value == "fast"
    assert session.scene["a4"].meaning.value == "put"
    assert "b6" in session.intent.sentence and "a4" in session.intent.sentence
    board.move("b6", "a4")
    board.wait(300)
    assert session.scene == {} and session.moves == [] and session.intent.kind is Kind.YOUR_TURN


def test_after_a_mistake_a_half_way_board_is_not_taken_before_it_settles(desdemona_reed: Any) -> None:
    """Putting a4->b6 right by way of a5 (a legal first move) must not commit a4-a5 at the quick delay."""
    session, board, _ = desdemona_reed
    board.move("a4", "b6")
    board.wait(400)
    assert session.intent.kind is Kind.MISTAKE
    board.move("b6", "a5")  # on the way back
    board.wait(150)  # shorter than the settle
    assert session.moves == []
    board.move("a5", "a4")
    board.wait(400)
    assert session.moves == []


@pytest.mark.parametrize("rest_ms", [50, 150, 240])
def test_a_queen_slid_across_a_legal_square_is_one_move(rest_ms: int) -> None:
    """a4 slid over a5 (itself a legal first move) to a6, resting on a5 up to just under the settle."""
    session, board, _ = session_on("desdemona-hall")
    board.step = rest_ms
    board.lift("a4")
    board.place("a5")
    board.lift("a5")
    board.place("a6")
    board.wait(300)
    assert session.moves == ["a4-a6"]


def test_new_game_then_confirm_commits_nothing_in_every_game() -> None:
    """The reproduction of the issue: a move waiting for Confirm, New game, then Confirm."""
    for board_id in board_ids():
        session, board, events = session_on(board_id)
        game, pos = session.game, session.position
        for _ in range(2):  # two plies, so the second turn may place two pieces (Flip Four)
            pos = game.play(pos, game.legal_moves(pos)[0])
            board.show(pos)
            board.wait(400)
            if session.intent.kind in (Kind.CONFIRM, Kind.CHOOSE):  # reed cannot see every difference
                board.press("confirm")
            pos = session.position
        assert len(session.moves) == 2, (board_id, session.intent)
        before = list(events)
        # Half of a longer turn, or a whole one: either way Confirm must not take it after New game.
        after = game.play(pos, game.legal_moves(pos)[-1])
        board.show(after)
        board.press("new_game")
        assert session.intent.kind is Kind.RESTORE, board_id
        board.press("confirm")
        board.wait(400)
        board.press("confirm")
        assert commits(events[len(before) :]) == [], board_id
        assert session.moves == [], board_id
        session.close()


def test_take_back_then_confirm_commits_nothing() -> None:
    session, board, events = session_on("flipfour-reed")
    game = session.game
    board.show(game.play_texts(["c3"]))
    board.wait(400)
    board.place("b2", Thing("piece", 1))  # one piece of two: Confirm would take it
    board.wait(400)
    assert session.intent.kind is Kind.CONFIRM
    board.press("take_back")
    board.press("confirm")
    board.wait(400)
    assert commits(events) == ["c3"] and session.moves == []


def test_a_flip_four_jump_made_slowly_is_taken_only_when_whole() -> None:
    """Red's c3-c5 over c4, 150 ms a step: RULES.md turns the jumped piece, and a Hall board sees it."""
    session, board, _ = session_on("flipfour-hall")
    game = session.game
    board.show(game.play_texts(["c3"]))
    board.wait(400)
    pos = game.play_texts(["c3", "c4"])
    board.show(pos)
    board.wait(400)
    assert session.intent.kind is Kind.CONFIRM  # Yellow may place a second piece: Confirm ends the turn
    board.press("confirm")
    assert "c3-c5" in game.legal_texts(pos)
    board.step = 150
    board.lift("c3")
    board.place("c5")  # c4 still shows Yellow: the jump is not complete until it is turned
    board.wait(300)
    assert session.moves == ["c3", "c4"] and session.intent.kind is Kind.TURN_UNDER_WAY
    assert session.scene["c4"].meaning.value == "turn"
    board.lift("c4")
    board.place("c4", Thing("piece", 0))  # turned over: Red up
    board.wait(300)
    assert session.moves == ["c3", "c4", "c3-c5"]


def test_a_king_of_rings_capture_by_the_ai_is_said_and_lit_as_a_capture() -> None:
    session, board, _ = session_on("kingofrings-reed", ai_side=1)
    game = session.game
    for text in ["a1-b1", "b6-a5", "b2-b3"]:  # Light moves by hand; FirstMove answers for Dark
        pos = session.position
        if game.to_move(pos) == 1:
            break
        board.show(game.play_texts([text], pos))
        board.wait(400)
    intent = session.intent
    assert intent.kind is Kind.AI_MOVE
    assert "turn" not in intent.sentence.lower()
    assert all(light.meaning.value != "turn" for light in intent.scene.values())


def test_a_drop_beside_your_own_knight_is_taken_without_confirm() -> None:
    session, board, _ = session_on("kingofrings-reed")
    board.step = 100  # a person's pace: a4 off for less than SURE_LANDING_MS would be a knock
    game = session.game
    pos = game.start()
    for text in ["a1-b1", "b6-a5", "b2-b3", "a5-a4", "b3xa4"]:  # b3xa4 must be seen as a capture: a4 touched
        after = game.play_texts([text], pos)
        board.show(after)
        if "x" in text:
            board.lift("a4", 4)
            board.show(after)
        board.wait(400)
        pos = after
    own = [
        game.geometry.index[n] for n, stack in game.cells(pos).items() if stack[-1:] == (Thing("knight", 1),)
    ]
    drops = [t for t in game.legal_texts(pos) if t.startswith("*")]
    drop = next(
        t for t in drops if any(game.geometry.distance(game.geometry.index[t[1:]], c) == 1 for c in own)
    )
    board.place(drop[1:], Thing("knight", 1))
    board.wait(400)
    assert session.moves[-1] == drop


def test_a_lifted_space_tiles_piece_lights_where_it_may_go() -> None:
    session, board, _ = session_on("spacetiles-hall")
    game = session.game
    pos = game.play_texts(["e5:d2"])
    board.show(pos)
    board.wait(400)
    # Violet to move: the first of Violet's turns after which Orange may move a piece one step.
    pos2 = next(
        game.play(pos, m)
        for m in game.legal_moves(pos)
        if any("-" in t for t in game.legal_texts(game.play(pos, m)))
    )
    board.show(pos2)
    board.wait(400)
    step = next(t for t in game.legal_texts(pos2) if "-" in t)
    origin = step.split(":")[1].split("-")[0]
    board.lift(origin)
    assert session.intent.kind is Kind.LIFTED
    targets = {c for c, light in session.scene.items() if light.meaning.value == "put"}
    expected = {t.split("-")[1] for t in game.legal_texts(pos2) if f":{origin}-" in t}
    assert targets == expected and targets


def test_readings_delivered_late_keep_their_own_times() -> None:
    """Two moves whose readings waited in a queue (a stall) and arrive at once are two moves."""
    session, board, _ = session_on("desdemona-hall")
    game = session.game
    first = game.play_texts(["a4-a6"])
    second = game.play_texts(["a4-a6", "a7-a8/a7"])
    model = board.model
    names = game.geometry.names

    def values(pos: Any) -> list[Reading]:
        return [model.reading_of(tuple(game.cells(pos)[n])) for n in names]

    session.on_reading(100, values(first))
    session.on_reading(700, values(second))
    session.on_tick(1400)
    assert session.moves == ["a4-a6", "a7-a8/a7"]


def test_a_hint_is_lit_dim_and_slow_until_the_board_changes() -> None:
    session, board, _ = session_on("desdemona-reed")
    board.press("hint")
    # FirstMove's hint is a4-a1, the first text in sorted order: lift a4, put on a1.
    assert session.scene["a4"].meaning.value == "lift" and session.scene["a1"].meaning.value == "put"
    assert all(light.dim and light.blink.value == "slow" for light in session.scene.values())
    assert "a4-a1" in session.intent.sentence
    board.lift("a4")
    assert all(not light.dim for light in session.scene.values())


def test_a_hint_found_on_the_worker_thread_is_shown_once_joined() -> None:
    session, board, _ = session_on("desdemona-reed", think_in_background=True)
    board.press("hint")
    session.wait_for_ai(timeout=60)  # joins the worker: no clock is spun
    board.wait(10)
    assert session.scene["a4"].meaning.value == "lift" and session.scene["a1"].meaning.value == "put"
    session.close()


def test_a_resumed_game_shows_the_board_as_it_is() -> None:
    game = Desdemona()
    history = [game.start()]
    for text in ["a4-a6", "a7-a8/a7"]:
        history.append(game.play_texts([text], history[-1]))
    spec = load_board("desdemona-reed")
    model = SensorModel(spec)
    resumed = Session(game, model.reading_of, Reading.EMPTY, history=history, moves=["a4-a6", "a7-a8/a7"],
                      settings=Settings(ai_side=None, think_in_background=False))  # fmt: skip
    board = Board(resumed, model)
    board.step = 100  # a person's pace: a7 off for less than SURE_LANDING_MS would be a knock
    assert resumed.scene == {} and resumed.intent.kind is Kind.YOUR_TURN
    assert board.session.moves == ["a4-a6", "a7-a8/a7"]
    start = game.cells(game.start())
    board.stacks = {n: list(start[n]) for n in game.geometry.names}  # the board was reset meanwhile...
    board.stacks["a7"] = []
    board.send()
    board.place("a7", Thing("queen", 1))  # ...the stone on a7 replaced by White's queen (a reed sees a touch)
    board.wait(400)
    assert resumed.moves == []  # the start position set up again: a new game


def test_take_back_by_restoring_the_board(desdemona_reed: Any) -> None:
    session, board, _ = desdemona_reed  # the AI plays White
    board.move("a4", "a6")
    board.wait(300)
    board.move("a7", "a10")
    board.place("a7", Thing("stone", 0))
    board.wait(300)
    assert session.moves == ["a4-a6", "a7-a10/a7"]
    board.press("take_back")
    assert session.intent.kind is Kind.RESTORE and session.moves == []
    assert "Take back" in session.intent.sentence
    board.lift("a7")
    board.move("a10", "a7")
    board.move("a6", "a4")
    board.wait(400)
    assert session.intent.kind is Kind.AI_MOVE or session.intent.kind is Kind.YOUR_TURN
    assert session.moves == []


class HeldBack(FirstMove):
    """An opponent that answers only once let go (or after a few seconds, so that nothing hangs)."""

    def __init__(self) -> None:
        self.go = threading.Event()

    def choose(self, game: Game[Any, Any], pos: Any) -> Any:
        self.go.wait(5)
        return super().choose(game, pos)


def test_by_default_the_ai_thinks_while_the_board_stays_live() -> None:
    """Settings' default: the AI on a worker thread, so that the LEDs and the tracker stay live meanwhile."""
    spec = load_board("desdemona-reed")
    model = SensorModel(spec)
    opponent = HeldBack()
    session = Session(Desdemona(), model.reading_of, Reading.EMPTY, opponent=opponent, settings=Settings())
    board = Board(session, model)
    board.move("a4", "a6")
    board.wait(400)
    assert session.moves == ["a4-a6"] and session.intent.kind is Kind.AI_THINKING and session.pending is None
    opponent.go.set()
    session.wait_for_ai(timeout=60)
    board.wait(10)
    assert session.pending is not None and session.intent.kind is Kind.AI_MOVE
    session.close()
