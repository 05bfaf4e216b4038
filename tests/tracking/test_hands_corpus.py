"""The corpus's failing moves (tests/tracking/hands/, written by ``benchmarks/hands.py --write-failures``;
docs/hands.md): each script, replayed from its position in simulated time, must make the board take the
moves it means, asking nothing (the scripts of moves the board asked about leave the player's answers
out).  Every one failed at ed9c507, which its mark says with what the board did then: once the tracker
takes a script, its mark must go (the marks are strict).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benchmarks.corpus import Corpus, replay, script_facts
from engines import registry
from host.hardware.loading import load_board
from host.sim.script import parse

HERE = Path(__file__).parent / "hands"
SCRIPTS = sorted(HERE.rglob("*.script"))


def case(path: Path) -> Any:
    facts = script_facts(path.read_text())
    took = ", ".join(facts["took"]) or "nothing"
    reason = f"at ed9c507: {facts['verdict']}, took {took} (meant {', '.join(facts['meant'])})"
    return pytest.param(
        path, id=str(path.relative_to(HERE)), marks=pytest.mark.xfail(strict=True, reason=reason)
    )


@pytest.mark.parametrize("path", [case(p) for p in SCRIPTS])
def test_the_board_takes_the_moves_meant_asking_nothing(path: Path) -> None:
    text = path.read_text()
    facts = script_facts(text)
    game, board = registry.make(facts["game"]), load_board(facts["board"])
    journal = path.with_suffix(".journal").read_text().splitlines()
    texts = [line.removeprefix("move ") for line in journal if line.startswith("move ")]
    ai_move = facts["meant"][0] if facts["ai_move"] else None
    events = replay(game, board, texts, parse(text, set(game.geometry.names)), facts["side"], ai_move)
    meant = facts["meant"]
    assert Corpus.took(events)[: len(meant)] == meant
    assert not any(e.kind.value == "intent" and e.data["kind"] in ("confirm", "choose") for e in events)


def test_there_are_scripts_of_every_kind_of_failure() -> None:
    """The directory holds what benchmarks/hands.py wrote, grouped by verdict (docs/hands.md)."""
    assert {p.relative_to(HERE).parts[0] for p in SCRIPTS} >= {"asked", "wrong", "stalled"}
