"""The board's intent in the game's own words: instructions as sentences.

One home for how the program speaks to a player, so the page, the terminal and
the README say the same thing: "Move Light's knight with its 2 rings from b2
to c3", "Turn over the stones on c3 and d3 (orange lights)".  The nouns, the
players' names and what a turn is come from the game's table
(engines/table.py); this module only puts them into sentences.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.game import Game, M, P
from engines.physical import Thing
from host.session.intent import Step
from host.session.lights import COLOUR_NAMES, Meaning
from host.tracking.plan import Do


def side_name(game: Game[P, M], side: int) -> str:
    return game.table.side(side)


def cells_sorted(cells: Iterable[str]) -> list[str]:
    """Cell names by file, then rank as a number: 'a2' before 'a10'."""
    return sorted(cells, key=lambda c: (c[0], int(c[1:]) if c[1:].isdigit() else 0))


def cell_list(cells: Iterable[str]) -> str:
    """'c3', 'c3 and d3', 'c3, d3 and e3'."""
    names = cells_sorted(cells)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def light(meaning: Meaning) -> str:
    return COLOUR_NAMES[meaning]


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def clause(text: str) -> str:
    """A sentence as it goes on after a colon or a word before it: 'put the board right: move ...'."""
    return text[:1].lower() + text[1:]


def either(phrases: Sequence[str]) -> str:
    """'a Black stone', 'a Black stone or a White stone', 'a Black queen, a Black stone or a White stone'."""
    if len(phrases) <= 1:
        return "".join(phrases)
    return ", ".join(phrases[:-1]) + " or " + phrases[-1]


def step_words(game: Game[P, M], step: Step) -> str:
    """One instruction as a clause: 'move the Black queen from b6 to a4'."""
    table = game.table
    if step.do is Do.MOVE:
        return f"move {table.named(step.things, definite=True)} from {step.source} to {step.target}"
    if step.do is Do.PUT:
        return f"put {table.named(step.things, definite=False)} on {step.target}"
    if step.do is Do.REMOVE:
        return f"take {table.named(step.things, definite=True)} off {step.source}"
    thing = step.thing
    if thing is None or thing.colour is None:
        return f"turn over {table.named(step.things, definite=True)} on {step.target}"
    # A turn's object is named as it must end up, so it is called by its kind: "the stone", not the
    # colour it does not show yet.
    noun = table.kind(thing.kind).noun.one
    return f"turn over the {noun} on {step.target} so that {table.side(thing.colour)} is up"


def steps_words(game: Game[P, M], steps: Sequence[Step]) -> str:
    """Instructions as one sentence; turns of several cells are said together."""
    if not steps:
        return ""
    clauses = [step_words(game, step) for step in steps if step.do is not Do.TURN]
    turns = [s for s in steps if s.do is Do.TURN]
    if len(turns) == 1:
        clauses.append(step_words(game, turns[0]) + f" ({light(Meaning.TURN)} light)")
    elif turns:
        thing = turns[0].thing
        noun = game.table.kind(thing.kind).noun.many if thing is not None else "pieces"
        targets = [t.target for t in turns if t.target is not None]
        clauses.append(f"turn over the {noun} on {cell_list(targets)} ({light(Meaning.TURN)} lights)")
    return capital("; ".join(clauses)) + "."


def turn_words(game: Game[P, M], pos: P) -> str:
    """What the player to move may do now, in the game's terms."""
    return game.table.turn_words(game, pos)


def holding(game: Game[P, M], thing: Thing, placeable: bool) -> str:
    """What to do with an object a hand took from the box, which the sensors cannot see yet: where it may go
    (``placeable``: a legal move on the way puts it down), else back to the box."""
    table = game.table
    held = f"{table.one(thing, definite=True)} in your hand"
    if placeable:
        return capital(f"put {held} on a green {table.cell.one}, or back in the box.")
    return capital(f"no legal move puts {held} on the board now: put it back in the box.")
