"""The recorder the session writes through: resume, take-back, new game, the result, and a failing disk."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from host.store import recorder as recorder_module
from host.store.games import Status, read_games
from host.store.health import NotSaving, Saved
from host.store.recorder import GameRecorder


class Clock:
    """Wall-clock seconds that a test sets."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 1.5
        return self.now


def open_recorder(path: Path, game_id: str = "desdemona", **kwargs: Any) -> GameRecorder:
    return GameRecorder.open(
        path, registry.make(game_id), board="b", players=("human", "magboard level 3"), **kwargs
    )


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "data" / "games.sqlite3"


def test_moves_are_kept_with_their_times_and_the_game_resumes(store: Path) -> None:
    clock = Clock()
    recorder = GameRecorder.open(
        store, registry.make("desdemona"), board="desdemona-hall", players=("human", "magboard level 3"),
        clock=clock,
    )  # fmt: skip
    recorder.move("a4-a6")
    recorder.move("a7-a8/a7")
    recorder.close()
    (stored,) = read_games(store)
    assert stored.moves == ["a4-a6", "a7-a8/a7"]
    assert stored.started_at == 1_000_001.5 and stored.times == [1_000_003.0, 1_000_004.5]
    assert (stored.game, stored.board, stored.players) == (
        "desdemona",
        "desdemona-hall",
        ("human", "magboard level 3"),
    )
    assert stored.status is Status.PLAYING and stored.source == "played"
    resumed = open_recorder(store)
    assert resumed.moves == ["a4-a6", "a7-a8/a7"] and resumed.game_id == stored.id
    game = resumed.game
    assert resumed.positions[-1] == game.play_texts(["a4-a6", "a7-a8/a7"])
    resumed.close()


def test_a_take_back_removes_the_moves_from_the_store(store: Path) -> None:
    recorder = open_recorder(store)
    for text in ("a4-a6", "a7-a8/a7", "a6-b6/a6"):
        recorder.move(text)
    recorder.takeback(2)
    recorder.move("a7-a10/a7")
    recorder.close()
    assert read_games(store)[0].moves == ["a4-a6", "a7-a10/a7"]


def test_new_game_leaves_the_old_one_abandoned_and_new_starts_another(store: Path) -> None:
    recorder = open_recorder(store)
    recorder.new_game()  # nothing played yet: no empty game is kept
    recorder.move("a4-a6")
    recorder.new_game()
    recorder.move("a4-a5")
    recorder.close()
    recorder = open_recorder(store, new=True)
    assert recorder.moves == []
    recorder.close()
    games = read_games(store)
    assert [(g.moves, g.status) for g in games] == [
        (["a4-a6"], Status.ABANDONED), (["a4-a5"], Status.ABANDONED), ([], Status.PLAYING),
    ]  # fmt: skip
    assert all(g.ended_at is not None for g in games[:2])


def test_a_player_taking_over_is_named_from_its_first_move_and_in_later_games(store: Path) -> None:
    recorder = GameRecorder.open(
        store, registry.make("desdemona"), board="b", players=("human", "GNU Go 3.8")
    )
    recorder.move("a4-a6")
    recorder.move("a7-a8/a7")
    recorder.move("a6-b6/a6")
    recorder.player(1, "magboard level 3")  # before White's move 4
    recorder.move("a8-a9/a8")
    recorder.new_game()
    recorder.move("a4-a5")
    recorder.close()
    first, second = read_games(store)
    assert first.players == ("human", "GNU Go 3.8, then magboard level 3 from move 4")
    assert second.players == ("human", "magboard level 3")


def test_the_result_is_recorded_with_the_move_that_ends_the_game(store: Path) -> None:
    recorder = open_recorder(store, "flipfour")
    game = recorder.game
    rng = random.Random(5)
    while not game.is_over(recorder.positions[-1]) and len(recorder.moves) < 1000:
        recorder.move(rng.choice(game.legal_texts(recorder.positions[-1])))
    outcome = game.outcome(game.play_texts(recorder.moves))
    recorder.close()
    (stored,) = read_games(store)
    assert stored.status is Status.FINISHED and stored.ended_at is not None
    assert stored.outcome == outcome


class FullDisk:
    """A fault-injecting store: while ``full``, each transaction and reopening fails as on a full disk."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        real_transaction, real_open = recorder_module.transaction, recorder_module.open_store

        def transaction(conn: sqlite3.Connection) -> Any:
            self.fail()
            return real_transaction(conn)

        def open_store(path: Path) -> sqlite3.Connection:
            self.fail()
            return real_open(path)

        monkeypatch.setattr(recorder_module, "transaction", transaction)
        monkeypatch.setattr(recorder_module, "open_store", open_store)

    def fail(self) -> None:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[FullDisk]:
    yield FullDisk(monkeypatch)


def test_a_full_disk_keeps_the_game_in_memory_and_saves_all_once_it_has_room(
    store: Path, disk: FullDisk
) -> None:
    recorder = open_recorder(store)
    recorder.move("a4-a6")
    disk.full = True
    recorder.move("a7-a8/a7")
    assert recorder.health == NotSaving(store, "database or disk is full", unsaved=1)
    assert str(recorder.health) == (
        f"moves are not being saved: {store}: database or disk is full (1 move unsaved, retrying)"
    )
    recorder.move("a6-b6/a6")
    recorder.takeback(1)
    recorder.move("a6-a5/a6")
    recorder.new_game()  # the game left while the disk is full is kept too
    recorder.move("a4-a5")
    assert recorder.health == NotSaving(store, "database or disk is full", unsaved=3)
    assert read_games(store)[0].moves == ["a4-a6"]
    disk.full = False
    recorder.move("a7-a8/a7")
    assert recorder.health == Saved(store)
    recorder.close()
    first, second = read_games(store)
    assert (first.moves, first.status) == (["a4-a6", "a7-a8/a7", "a6-a5/a6"], Status.ABANDONED)
    assert (second.moves, second.status) == (["a4-a5", "a7-a8/a7"], Status.PLAYING)


def test_closing_tries_once_more_and_logs_what_is_lost(
    store: Path, disk: FullDisk, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = open_recorder(store)
    disk.full = True
    recorder.move("a4-a6")
    recorder.close()
    assert [r.getMessage() for r in caplog.records] == [
        f"moves are not being saved: {store}: database or disk is full (1 move unsaved, retrying)",
        f"moves are not being saved: {store}: database or disk is full (1 move unsaved, retrying);"
        " they are lost when this program ends",
    ]
