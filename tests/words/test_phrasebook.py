"""The words as data: docs/words/<game>.md is what the board says now, and it says every kind of intent.

A change of wording shows here as a diff of sentences for a person to read; the
files are regenerated with `magboard words --write` at the root of the repository.
"""

from __future__ import annotations

import difflib
from functools import cache

import pytest

from engines import registry
from host.session.intent import Kind
from host.words.phrasebook import COMMAND, Phrasebook, ended, masker, never_said, pattern, phrasebook
from tests.conftest import ROOT

GAMES = registry.available()


@cache
def book(game_id: str) -> Phrasebook:
    return phrasebook(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_committed_words_are_what_the_board_says(game_id: str) -> None:
    generated = book(game_id)
    path = ROOT / generated.path
    committed = path.read_text(encoding="utf-8") if path.exists() else ""
    diff = "".join(
        difflib.unified_diff(
            committed.splitlines(keepends=True),
            generated.render().splitlines(keepends=True),
            f"{generated.path} (committed)",
            f"{generated.path} (what the board says now)",
        )
    )
    assert not diff, f"the board's words changed: read the diff, then run `{COMMAND}`\n{diff}"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_kind_of_intent_is_said_or_the_game_says_why_not(game_id: str) -> None:
    generated = book(game_id)
    said = {row.kind for row in generated.rows}
    never = never_said(generated.game)
    for kind in Kind:
        assert (kind in said) != (kind.value in never), (kind, "said" if kind in said else "not said")
    for name in generated.game.table.endings:
        found = any(row.situation == ended(name) for row in generated.rows)
        assert found != (name in never), (name, "said" if found else "not said")
    assert not [r for r in generated.rows if "Table.endings lacks" in r.situation]
    assert all("NO REASON" not in why for why in generated.unreached.values())


@pytest.mark.parametrize("game_id", GAMES)
def test_every_board_of_the_game_is_driven(game_id: str) -> None:
    boards = {board for row in book(game_id).rows for board in row.boards}
    assert boards == {f"{game_id}-reed", f"{game_id}-hall"}


def test_the_same_wording_with_other_cells_counts_and_players_is_one_row() -> None:
    mask = masker(registry.make("kingofrings"))
    assert mask("Move Light's knight with its 2 rings from b3 to b5.") == mask(
        "Move Dark's knight with its 3 rings from g1 to a7."
    )
    assert mask("The sensors cannot tell a6xa5 or b7xa6 or c5xb4 apart.") == mask(
        "The sensors cannot tell a6xa5 or b7xa6 apart."
    )
    assert mask("with its ring") != mask("with its 2 rings")  # a count of one is its own grammar
    spacetiles = masker(registry.make("spacetiles"))
    assert spacetiles("Put an Orange piece on c3.") != spacetiles(
        "Put a Violet piece on c3."
    )  # the article stays


def test_an_ending_template_matches_what_it_says_whatever_fills_it() -> None:
    template = "{side} shows {line} (an over-line) after {mover}'s turn, and loses."
    assert pattern(template).match("Red shows 2 lines of 4 (an over-line) after Yellow's turn, and loses.")
    assert not pattern(template).match("Red shows a line of exactly 4 at the start of its turn, and wins.")
