"""One owner per game whatever name the store is given: a symbolic link, a linked directory, a hard link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engines import registry
from host.store.database import StoreError
from host.store.games import read_games
from host.store.owner import GameTaken
from host.store.recorder import GameRecorder


def own(store: Path) -> GameRecorder:
    return GameRecorder.open(store, registry.make("desdemona"), board=None, players=("?", "?"))


def three_moves(store: Path) -> GameRecorder:
    first = own(store)
    for text in ("a4-a6", "a7-a8/a7", "a6-a5/a6"):
        first.move(text)
    return first


def plays_on(first: GameRecorder, store: Path) -> None:
    """The first owner commits one more move, and the store holds its four and nothing else."""
    first.move("a8-b7/a8")
    first.close()
    assert [g.moves for g in read_games(store)] == [["a4-a6", "a7-a8/a7", "a6-a5/a6", "a8-b7/a8"]]


def test_a_symbolic_link_to_the_store_meets_the_same_owner(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").mkdir()
    store = tmp_path / "real" / "games.sqlite3"
    first = three_moves(store)
    (tmp_path / "alias" / "games.sqlite3").symlink_to(store)
    with pytest.raises(GameTaken, match=f"desdemona is being played by pid {os.getpid()} "):
        own(tmp_path / "alias" / "games.sqlite3")
    plays_on(first, store)


def test_a_linked_directory_meets_the_same_owner(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "elsewhere").symlink_to(tmp_path / "real")
    store = tmp_path / "real" / "games.sqlite3"
    first = three_moves(store)
    with pytest.raises(GameTaken):
        own(tmp_path / "elsewhere" / "games.sqlite3")
    with pytest.raises(GameTaken):
        own(tmp_path / "real" / ".." / "elsewhere" / "." / "games.sqlite3")
    plays_on(first, store)


def test_a_hard_link_to_the_store_is_refused_and_the_owner_plays_on(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").mkdir()
    store = tmp_path / "real" / "games.sqlite3"
    first = three_moves(store)
    os.link(store, tmp_path / "alias" / "games.sqlite3")
    with pytest.raises(StoreError, match=r"the store has 2 names \(hard links\)"):
        own(tmp_path / "alias" / "games.sqlite3")
    (tmp_path / "alias" / "games.sqlite3").unlink()
    plays_on(first, store)


def test_other_slots_of_the_same_file_are_free_under_any_name(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    first = three_moves(store)
    (tmp_path / "alias.sqlite3").symlink_to(store)
    other = GameRecorder.open(
        tmp_path / "alias.sqlite3", registry.make("flipfour"), board=None, players=("?", "?")
    )
    other.move("d1")
    other.close()
    plays_on_moves = [g.moves for g in read_games(store)]
    assert plays_on_moves == [["a4-a6", "a7-a8/a7", "a6-a5/a6"], ["d1"]]
    first.close()


def test_the_claim_survives_other_connections_of_this_process_closing(tmp_path: Path) -> None:
    """Opening and closing the store elsewhere in the process leaves the owner's claim, and SQLite's locks."""
    store = tmp_path / "games.sqlite3"
    first = three_moves(store)
    read_games(store)  # opens and closes a connection of its own to the same file
    with pytest.raises(GameTaken):
        own(store)
    plays_on(first, store)
