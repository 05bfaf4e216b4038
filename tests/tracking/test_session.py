"""The session on hand-made readings: commits, the AI's move shown and carried out, take-back,
mistakes, the game store.  (The full pipeline with firmware and serial link is tested elsewhere.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines.desdemona import Desdemona
from engines.game import Game
from engines.physical import Thing
from host.session.session import Session, Settings
from host.store.games import read_games
from host.store.recorder import GameRecorder

GAME = Desdemona()
NAMES = GAME.geometry.names


def reed(stack: tuple[Thing, ...]) -> str:
    return "magnet" if stack else "empty"


class FirstMove:
    """A predictable opponent: the legal move whose text sorts first; its hint is the same."""

    def choose(self, game: Game[Any, Any], pos: Any) -> Any:
        return min(game.legal_moves(pos), key=lambda m: game.format_move(pos, m))

    def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]:
        return [self.choose(game, pos)]


class Hands:
    """A board of object stacks that a test moves by hand, feeding readings to a session."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.stacks = {name: list(stack) for name, stack in GAME.cells(GAME.start()).items()}
        self.t = 0
        self.held: list[Thing] = []
        self.send()

    def send(self) -> None:
        self.session.on_reading(self.t, [reed(tuple(self.stacks[n])) for n in NAMES])

    def wait(self, ms: int) -> None:
        self.t += ms
        self.session.on_tick(self.t)

    def lift(self, cell: str) -> None:
        self.t += 50
        self.held.append(self.stacks[cell].pop())
        self.send()

    def place(self, cell: str, thing: Thing | None = None) -> None:
        self.t += 50
        self.stacks[cell].append(thing or self.held.pop())
        self.send()

    def move(self, source: str, target: str) -> None:
        self.lift(source)
        self.place(target)


def recorder(tmp_path: Path) -> GameRecorder:
    return GameRecorder.open(tmp_path / "games.sqlite3", GAME, board=None, players=("human", "human"))


def new_session(tmp_path: Path, **settings: Any) -> tuple[Session, Hands]:
    settings.setdefault("think_in_background", False)
    session = Session(
        GAME, reed, "empty", opponent=FirstMove(), journal=recorder(tmp_path), settings=Settings(**settings),
    )  # fmt: skip
    return session, Hands(session)


def test_a_move_is_committed_and_the_ai_reply_is_lit(tmp_path: Path) -> None:
    session, hands = new_session(tmp_path)
    assert session.scene == {}
    hands.lift("a4")
    assert session.scene["a4"].meaning == "lift"
    assert {c for c, light in session.scene.items() if light.meaning == "put"} >= {"a5", "a6", "f9", "c2"}
    hands.place("a6")
    hands.wait(150)
    assert session.moves[0] == "a4-a6"
    ai_text = session.moves[0]
    pending = GAME.format_move(session.position, session.pending)
    assert pending == "a7-a10/a7"  # FirstMove: the first legal move
    assert session.scene["a7"].meaning == "remove" and session.scene["a10"].meaning == "put"
    assert all(light.blink == "slow" for light in session.scene.values())
    # Carry the AI's move out: queen a7 -> a10, a Black stone on a7.
    hands.move("a7", "a10")
    hands.place("a7", Thing("stone", 0))
    hands.wait(150)
    assert session.moves == [ai_text, "a7-a10/a7"]
    assert read_games(tmp_path / "games.sqlite3")[-1].moves == session.moves


def test_a_wrong_move_is_shown_after_it_settles(tmp_path: Path) -> None:
    session, hands = new_session(tmp_path)
    hands.move("a4", "b6")  # not a queen move
    hands.wait(100)
    assert session.moves == []
    hands.wait(300)
    assert session.scene["b6"].meaning == "lift" and session.scene["b6"].blink == "fast"
    assert session.scene["a4"].meaning == "put"
    hands.move("b6", "a4")
    hands.wait(300)
    assert session.scene == {} and session.moves == []


def test_take_back_by_restoring_the_board(tmp_path: Path) -> None:
    session, hands = new_session(tmp_path, ai_side=None)
    hands.move("a4", "a6")
    hands.wait(150)
    assert session.moves == ["a4-a6"]
    hands.move("a6", "a4")
    hands.wait(150)
    assert session.moves == []
    assert read_games(tmp_path / "games.sqlite3")[-1].moves == []


def test_the_store_resumes_the_game_after_a_cut(tmp_path: Path) -> None:
    session, hands = new_session(tmp_path, ai_side=None)
    hands.move("a4", "a6")
    hands.wait(150)
    assert session.journal is not None
    session.journal.close()  # the power goes: the process and its claim on the game end
    state = recorder(tmp_path)
    assert state.moves == ["a4-a6"]
    resumed = Session(
        GAME, reed, "empty", history=state.positions, moves=state.moves, settings=Settings(ai_side=None)
    )
    resumed.on_reading(0, [reed(tuple(hands.stacks[n])) for n in NAMES])
    assert resumed.scene == {}


def test_setting_up_the_start_position_starts_a_new_game(tmp_path: Path) -> None:
    session, hands = new_session(tmp_path, ai_side=None)
    hands.move("a4", "a6")
    hands.wait(150)
    hands.move("a7", "a8")
    hands.place("a7", Thing("stone", 0))  # White shoots a Black stone onto a7
    hands.wait(150)
    hands.move("d10", "d8")
    hands.place("d10", Thing("stone", 1))
    hands.wait(150)
    assert session.moves == ["a4-a6", "a7-a8/a7", "d10-d8/d10"]
    hands.lift("a7")  # the stones come off before the queens go back
    hands.lift("d10")
    start = GAME.cells(GAME.start())
    for name in NAMES:
        hands.stacks[name] = list(start[name])
    hands.send()
    hands.wait(150)
    assert session.moves == []
    assert read_games(tmp_path / "games.sqlite3")[-1].moves == []


def test_a_hint_is_lit_dim_and_slow_until_the_board_changes(tmp_path: Path) -> None:
    session, hands = new_session(tmp_path, ai_side=None, think_in_background=True)
    session.on_button(hands.t, "hint")
    for _ in range(200):  # the hint is found on the AI's worker thread
        hands.wait(10)
        if session.scene:
            break
    # FirstMove's hint is a4-a1, the first text in sorted order: lift a4, put on a1.
    assert session.scene["a4"].meaning == "lift" and session.scene["a1"].meaning == "put"
    assert all(light.dim and light.blink == "slow" for light in session.scene.values())
    hands.lift("a4")
    assert all(not light.dim for light in session.scene.values())
    session.close()


def test_a_piece_to_put_on_a_tile_is_lit_put_not_remove() -> None:
    """Space Tiles: the AI's d5:d3,f3 puts a tile on d5 and pieces on the tiles of d3 and f3.

    Hand-checked after e5:d2 from the start: d5's neighbours with tiles are d4, e4 and e5 (n = 3), so two
    pieces go on tiles; d3 and f3 already hold tiles, so the LEDs must say "put" there, as on the empty d5.
    """
    from engines.spacetiles import SpaceTiles
    from host.hardware.loading import load_board
    from host.hardware.sensing import Reading, SensorModel

    game = SpaceTiles()
    model = SensorModel(load_board("spacetiles-hall"))

    class Reply:
        def choose(self, game: Game[Any, Any], pos: Any) -> Any:
            return game.parse_move(pos, "d5:d3,f3")

        def hint(self, game: Game[Any, Any], pos: Any) -> list[Any]:
            return []

    session = Session(
        game, model.reading_of, Reading.EMPTY, opponent=Reply(), settings=Settings(think_in_background=False)
    )
    start = game.start()
    session.on_reading(0, [model.reading_of(game.cells(start)[n]) for n in game.geometry.names])
    after = game.play(start, game.parse_move(start, "e5:d2"))
    session.on_reading(1000, [model.reading_of(game.cells(after)[n]) for n in game.geometry.names])
    session.on_tick(1500)
    assert session.moves == ["e5:d2"]
    lit = {cell: light.meaning for cell, light in session.scene.items()}
    assert lit == {"d3": "put", "f3": "put", "d5": "put"}
