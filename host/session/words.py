"""The board's intent in the game's own words: sides, objects and instructions as sentences.

One home for how the program speaks to a player, so the page, the terminal and
the README say the same thing: "Black", "White's knight with 3 rings",
"Turn over the stones on c3 and d3 (orange lights)".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engines.game import Game
from engines.physical import Thing
from host.session.intent import Step
from host.session.lights import COLOUR_NAMES, Meaning
from host.tracking.plan import Do

SIDE_NAMES: dict[str, tuple[str, str]] = {
    "kingofrings": ("Light", "Dark"),
    "desdemona": ("Black", "White"),
    "spacetiles": ("Orange", "Violet"),
    "flipfour": ("Red", "Yellow"),
}
OBJECT_NAMES: dict[str, str] = {
    "knight": "knight",
    "ring_silver": "silver ring",
    "ring_blue": "blue ring",
    "ring_bigblue": "big blue ring",
    "queen": "queen",
    "stone": "stone",
    "tile": "tile",
    "piece": "piece",
}
# What a turn is, said to the player whose turn it is.
TURN_WORDS: dict[str, str] = {
    "kingofrings": "step, jump or drop a knight",
    "desdemona": "move a queen, then shoot a {opponent} stone or capture",
    "spacetiles": "place a tile, then move or place your pieces",
    "flipfour": "place one or two pieces, or jump a piece over a line",
}
REVERSIBLE_KINDS = frozenset({"stone"})  # named by colour up: "a White stone"; Flip Four's pieces likewise


def sides(game: Game[Any, Any]) -> tuple[str, str]:
    return SIDE_NAMES.get(game.id, ("Player 0", "Player 1"))


def side_name(game: Game[Any, Any], side: int) -> str:
    return sides(game)[side]


def thing_name(game: Game[Any, Any], thing: Thing | None) -> str:
    """An object as a player names it: 'White stone', "Dark's knight", 'silver ring', 'tile'."""
    if thing is None:
        return "piece"
    name = OBJECT_NAMES.get(thing.kind, thing.kind)
    if thing.colour is None:
        return name
    colour = side_name(game, thing.colour)
    if thing.kind in REVERSIBLE_KINDS or game.id == "flipfour":
        return f"{colour} {name}"
    return f"{colour}'s {name}"


def things_name(game: Game[Any, Any], things: Sequence[Thing]) -> str:
    """Several objects carried together: a knight with its rings, or one object."""
    if not things:
        return "piece"
    main = [t for t in things if t.colour is not None] or list(things)
    rest = len(things) - len(main)
    words = " and ".join(thing_name(game, t) for t in main)
    if rest:
        words += f" with {rest} ring{'s' * (rest > 1)}" if game.id == "kingofrings" else f" and {rest} more"
    return words


def cell_list(cells: Iterable[str]) -> str:
    """'c3', 'c3 and d3', 'c3, d3 and e3'."""
    names = sorted(cells, key=lambda c: (c[0], int(c[1:]) if c[1:].isdigit() else 0))
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def light(meaning: Meaning) -> str:
    return COLOUR_NAMES[meaning]


def _the(what: str) -> str:
    """'the White stone', but "White's queen" (a possessive needs no article)."""
    return what if "'s " in what else f"the {what}"


def indefinite(what: str) -> str:
    """'a tile', 'an Orange piece', but "Light's knight"."""
    if "'s " in what:
        return what
    return f"an {what}" if what[0].lower() in "aeiou" else f"a {what}"


def step_words(game: Game[Any, Any], step: Step, things: Sequence[Thing] = ()) -> str:
    """One instruction as a clause: 'move the Black queen from b6 to a4'."""
    carried = things or ((step.thing,) if step.thing is not None else ())
    what = things_name(game, carried)
    if step.do is Do.MOVE:
        return f"move {_the(what)} from {step.source} to {step.target}"
    if step.do is Do.PUT:
        return f"put {indefinite(what)} on {step.target}"
    if step.do is Do.REMOVE:
        return f"take {_the(what)} off {step.source}"
    if step.thing is None or step.thing.colour is None:
        return f"turn over {_the(what)} on {step.target}"
    # A turn's object is named as it must end up, so it is called by its kind: "the stone", not the
    # colour it does not show yet.
    kind = OBJECT_NAMES.get(step.thing.kind, step.thing.kind)
    return f"turn over the {kind} on {step.target} so that {side_name(game, step.thing.colour)} is up"


def steps_words(game: Game[Any, Any], steps: Sequence[Step]) -> str:
    """Instructions as one sentence; turns of several cells are said together."""
    if not steps:
        return ""
    clauses: list[str] = []
    turns = [s for s in steps if s.do is Do.TURN]
    for step in steps:
        if step.do is not Do.TURN:
            clauses.append(step_words(game, step))
    if len(turns) == 1:
        clauses.append(step_words(game, turns[0]) + f" ({light(Meaning.TURN)})")
    elif turns:
        kind = OBJECT_NAMES.get(turns[0].thing.kind if turns[0].thing else "piece", "piece")
        targets = [t.target for t in turns if t.target is not None]
        clauses.append(f"turn over the {kind}s on {cell_list(targets)} ({light(Meaning.TURN)} lights)")
    text = "; ".join(clauses)
    return text[0].upper() + text[1:] + "."


def turn_words(game: Game[Any, Any], side: int) -> str:
    opponent = side_name(game, 1 - side)
    return TURN_WORDS.get(game.id, "make your move").format(opponent=opponent)
