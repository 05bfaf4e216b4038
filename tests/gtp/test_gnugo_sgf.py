"""Our SGF of a finished Go 7x7 game, loaded into GnuGo with ``loadsgf``: its ``final_score`` is ours on
every game whose dead stones are settled (tests/gtp/gnugo_scoring.py; benchmarks/bench_gnugo_sgf.py runs
50).  Without gnugo this is skipped, but never in CI (.ci/run installs it): under CI=true it fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.records import Record
from engines.sgf import dump
from tests.gtp.gnugo_scoring import cleaned_game, gnugo_count

GAMES = 5


pytestmark = pytest.mark.usefixtures("gnugo")  # tests/gtp/conftest.py


def test_gnugo_counts_our_sgf_as_we_do(tmp_path: Path) -> None:
    counted = 0
    for seed in range(3 * GAMES):
        texts = cleaned_game(seed)
        if texts is None:
            continue
        sgf = tmp_path / f"game{seed}.sgf"
        sgf.write_bytes(dump(Record("go7", ("GNU Go", "GNU Go"), (), texts)))
        ours = sgf.read_text().split("RE[")[1].split("]")[0]
        theirs, dead = gnugo_count(sgf)
        assert dead == [], (seed, texts)  # settled: GnuGo holds no stone dead, so its count is by area
        assert theirs == ours, (seed, texts)
        counted += 1
        if counted == GAMES:
            return
    pytest.fail(f"only {counted} of {3 * GAMES} games ended by two passes")


def test_gnugo_loads_our_sgf_of_agreed_dead_stones_and_counts_as_we_agreed(tmp_path: Path) -> None:
    # Black's c file against White's b file and a Black stone at a4 behind the wall, agreed dead: the
    # last node's TB/TW and comment do not trouble loadsgf, and GnuGo holds a4 dead and counts as we did.
    moves = [m for rank in range(1, 8) for m in (f"c{rank}", f"b{rank}")] + ["a4", "pass", "pass"]
    sgf = tmp_path / "agreed.sgf"
    sgf.write_bytes(dump(Record("go7", ("Ann", "Bo"), (), moves, {"dead": "a4"})))
    assert "RE[B+13.5]" in sgf.read_text()
    assert gnugo_count(sgf) == ("B+13.5", ["A4"])
