"""Which physical objects each game puts on the board, and how each can be turned.

A board file describes the magnet in every kind of object its game uses, and
what it must say depends on the object: a player's own piece (knight, queen, a
Space Tiles piece) may carry a different pole for each owner; a reversible
piece (a Desdemona stone, a Flip Four piece) carries one magnet, so turning it
over must turn the pole facing the sensor; a neutral object (ring, tile) has
one side down.  The kinds are those of engines/physical.py, grouped as each
game's ``cells()`` uses them (the hardware tests check this against the
engines once they exist).
"""

from __future__ import annotations

OWNED = "owned"  # belongs to one player for the whole game: colour = owner
REVERSIBLE = "reversible"  # two-sided: colour = the side facing up
NEUTRAL = "neutral"  # nobody's: colour is always None

GAME_OBJECTS: dict[str, dict[str, str]] = {
    "kingofrings": {
        "knight": OWNED,
        "ring_silver": NEUTRAL,
        "ring_blue": NEUTRAL,
        "ring_bigblue": NEUTRAL,
    },
    "desdemona": {"queen": OWNED, "stone": REVERSIBLE},
    "spacetiles": {"tile": NEUTRAL, "piece": OWNED},
    "flipfour": {"piece": REVERSIBLE},
}


def colours_of(role: str) -> tuple[int | None, ...]:
    """The colours an object of this role can show."""
    return (None,) if role == NEUTRAL else (0, 1)


def reversible_kinds(game_id: str) -> frozenset[str]:
    """The kinds of object a game turns over rather than swaps (a Desdemona stone, a Flip Four piece)."""
    return frozenset(kind for kind, role in GAME_OBJECTS.get(game_id, {}).items() if role == REVERSIBLE)
