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


@pytest.mark.parametrize(
    ("game", "step", "said"),
    [
        # A possessive takes no article (the game's own pieces: White's queen, Light's knight).
        (DESDEMONA, Step(Do.MOVE, "a7", "a9", (Thing("queen", 1),)), "Move White's queen from a7 to a9."),
        (DESDEMONA, Step(Do.REMOVE, "b8", None, (Thing("queen", 0),)), "Take Black's queen off b8."),
        (DESDEMONA, Step(Do.PUT, None, "b8", (Thing("queen", 0),)), "Put Black's queen on b8."),
        (KOR, Step(Do.MOVE, "b3", "a4", (Thing("knight", 0),)), "Move Light's knight from b3 to a4."),
        # A stone is named by the side it shows, with an article.
        (DESDEMONA, Step(Do.PUT, None, "b8", (Thing("stone", 0),)), "Put a Black stone on b8."),
        (DESDEMONA, Step(Do.REMOVE, "b8", None, (Thing("stone", 1),)), "Take the White stone off b8."),
        (KOR, Step(Do.PUT, None, "d4", (Thing("ring_bigblue"),)), "Put a big blue ring on d4."),
        # A turn names the object as it must end up: by its kind and the side to show.
        (
            DESDEMONA,
            Step(Do.TURN, "b8", "b8", (Thing("stone", 0),)),
            "Turn over the stone on b8 so that Black is up (orange).",
        ),
    ],
)
def test_a_step_is_said_with_the_right_article(game: Game[Any, Any], step: Step, said: str) -> None:
    assert steps_words(game, [step]) == said
