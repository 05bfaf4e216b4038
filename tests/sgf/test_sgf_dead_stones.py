"""The dead stones Go's players agreed, in SGF (engines/sgf.py, engines/go7/sgf.py): FF[4] has no property
for a dead stone, so the last node's TB and TW are the territory counted with them off (a dead stone's
point its capturer's, as KGS writes it), a comment names them, and RE is the agreed count.  sgfmill reads
the territory, our reader finds the dead stones in it again, and the store's export and import keep them."""

from __future__ import annotations

from pathlib import Path

import pytest
from sgfmill import sgf as sgfmill

from engines import registry
from engines.outcome import Outcome
from engines.records import Record
from engines.sgf import SgfError, dump, load
from host.store.games import read_games
from host.store.recorder import GameRecorder
from tests.conftest import run_cli

# Black's c file against White's b file, a Black stone at a4 behind White's wall, then two passes.
MOVES = [m for rank in range(1, 8) for m in (f"c{rank}", f"b{rank}")] + ["a4", "pass", "pass"]


def agreed(dead: str) -> Record:
    return Record("go7", ("Ann", "Bo"), (), MOVES, {"dead": dead})


def test_the_agreed_dead_stones_are_written_as_territory_with_the_agreed_result() -> None:
    tree = sgfmill.Sgf_game.from_bytes(dump(agreed("a4")))
    last = tree.get_last_node()
    # sgfmill's points are (row from the bottom, column from the left).  With a4 off, the a file (a4's
    # point too) is White's; the d to g files are Black's; c and b are stones.
    assert last.get("TW") == {(row, 0) for row in range(7)}
    assert last.get("TB") == {(row, col) for row in range(7) for col in range(3, 7)}
    assert "a4" in last.get("C")
    # Black c1-c7 and d-g 35, White b1-b7 and the a file 14: 35 - 14 - 7.5.
    assert tree.get_root().get("RE") == "B+13.5"


def test_without_agreed_dead_stones_the_rules_count_stands_and_no_territory_is_written() -> None:
    tree = sgfmill.Sgf_game.from_bytes(dump(Record("go7", ("Ann", "Bo"), (), MOVES)))
    assert not tree.get_last_node().has_property("TB")
    # As it stands a4 is Black's and the a file nobody's: Black 36, White 7.
    assert tree.get_root().get("RE") == "B+21.5"


def test_our_reader_finds_the_dead_stones_again_and_the_agreed_result_is_no_surprise() -> None:
    record, notes = load(dump(agreed("a4")))
    assert record.extra["dead"] == "a4" and record.moves == MOVES
    assert notes == []  # RE[B+13.5] is the agreed count


def test_a_territory_point_off_the_board_is_refused() -> None:
    data = dump(agreed("a4")).replace(b"TW[aa]", b"TW[zz]")
    with pytest.raises(SgfError, match=r"last node: TB/TW: \[zz\] is not a point of the 7x7 board"):
        load(data)


def test_the_store_exports_and_imports_the_agreed_dead_stones(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    recorder = GameRecorder.open(store, registry.make("go7"), board="go7-hall", players=("Ann", "Bo"))
    for move in MOVES:
        recorder.move(move)
    recorder.agreed(("a4",))
    recorder.close()
    out = tmp_path / "game.sgf"
    result = run_cli("history", "--journal", str(store), "export", "1", "--format", "sgf", "-o", str(out))
    assert result.returncode == 0, result.stderr
    result = run_cli("history", "--journal", str(store), "import", str(out))
    assert result.returncode == 0, result.stderr
    played, imported = read_games(store)
    assert played.dead == imported.dead == ("a4",)
    assert played.outcome == imported.outcome == Outcome(0, (35, 14))


def test_a_record_naming_a_dead_stone_where_none_stands_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "game.txt"
    text.write_text(Record("go7", ("Ann", "Bo"), (), MOVES, {"dead": "e4"}).to_text())
    result = run_cli("history", "--journal", str(tmp_path / "games.sqlite3"), "import", str(text))
    assert result.returncode != 0
    assert "dead e4: no stone stands there at the end of the game" in result.stderr


def test_dead_stones_of_a_game_still_being_played_are_not_written() -> None:
    record = Record("go7", ("Ann", "Bo"), (), MOVES[:-1], {"dead": "a4"})
    tree = sgfmill.Sgf_game.from_bytes(dump(record))
    assert not tree.get_last_node().has_property("TW") and not tree.get_root().has_property("RE")


def test_territory_marked_on_a_game_still_being_played_names_no_dead_stones() -> None:
    data = dump(agreed("a4")).replace(b"W[];B[]C[", b"W[]C[")  # the last pass left out, TB/TW kept
    record, _ = load(data)
    assert record.moves == MOVES[:-1] and "dead" not in record.extra
