"""The words of a hand step: the right article for each kind of object name."""

from __future__ import annotations

from typing import Any

import pytest

from engines import registry
from engines.game import Game
from engines.physical import Thing
from host.session.intent import Step
from host.session.words import steps_words
from host.tracking.plan import Do

DESDEMONA = registry.make("desdemona")  # player 0 is Black, player 1 White (RULES.md)
KOR = registry.make("kingofrings")
SPACETILES = registry.make("spacetiles")  # Orange, Violet
FLIPFOUR = registry.make("flipfour")  # Red, Yellow


@pytest.mark.parametrize(
    ("game", "step", "said"),
    [
        # Desdemona's colours name its objects (a Black queen, as a Black stone); The King of Rings'
        # knights belong to a player, and a possessive takes no article.
        (DESDEMONA, Step(Do.MOVE, "a7", "a9", (Thing("queen", 1),)), "Move the White queen from a7 to a9."),
        (DESDEMONA, Step(Do.REMOVE, "b8", None, (Thing("queen", 0),)), "Take the Black queen off b8."),
        (DESDEMONA, Step(Do.PUT, None, "b8", (Thing("queen", 0),)), "Put a Black queen on b8."),
        (KOR, Step(Do.MOVE, "b3", "a4", (Thing("knight", 0),)), "Move Light's knight from b3 to a4."),
        # A knight carries its rings: they are named with it.
        (
            KOR,
            Step(Do.MOVE, "b3", "b5", (Thing("ring_silver"), Thing("ring_blue"), Thing("knight", 1))),
            "Move Dark's knight with its 2 rings from b3 to b5.",
        ),
        (
            KOR,
            Step(Do.REMOVE, "c3", None, (Thing("ring_silver"), Thing("knight", 0))),
            "Take Light's knight with its ring off c3.",
        ),
        (SPACETILES, Step(Do.PUT, None, "c3", (Thing("piece", 0),)), "Put an Orange piece on c3."),
        (SPACETILES, Step(Do.PUT, None, "c3", (Thing("tile"),)), "Put a tile on c3."),
        (SPACETILES, Step(Do.MOVE, "c3", "d3", (Thing("piece", 1),)), "Move the Violet piece from c3 to d3."),
        # Objects that cannot be told apart are named together, each with its article (a reed board does not
        # feel a tile under a piece).
        (
            SPACETILES,
            Step(Do.MOVE, "a1", "d3", (Thing("tile"), Thing("piece", 0))),
            "Move the Orange piece and the tile from a1 to d3.",
        ),
        (
            SPACETILES,
            Step(Do.PUT, None, "e1", (Thing("tile"), Thing("piece", 1))),
            "Put a Violet piece and a tile on e1.",
        ),
        (FLIPFOUR, Step(Do.PUT, None, "c3", (Thing("piece", 1),)), "Put a Yellow piece on c3."),
        # A stone is named by the side it shows, with an article.
        (DESDEMONA, Step(Do.PUT, None, "b8", (Thing("stone", 0),)), "Put a Black stone on b8."),
        (DESDEMONA, Step(Do.REMOVE, "b8", None, (Thing("stone", 1),)), "Take the White stone off b8."),
        (KOR, Step(Do.PUT, None, "d4", (Thing("ring_bigblue"),)), "Put a big blue ring on d4."),
        # A turn names the object as it must end up: by its kind and the side to show.
        (
            DESDEMONA,
            Step(Do.TURN, "b8", "b8", (Thing("stone", 0),)),
            "Turn over the stone on b8 so that Black is up (orange light).",
        ),
    ],
)
def test_a_step_is_said_with_the_right_article(game: Game[Any, Any], step: Step, said: str) -> None:
    assert steps_words(game, [step]) == said
