"""What the browser page draws, as JSON-ready dictionaries.

The page knows no rules and no hardware: it gets the board's shape once
(``layout``) and then, whenever anything changes, the whole picture
(``picture``): what stands on every cell, what the hand holds, the objects
left in the box, the LEDs as the session lights them, and the game's state
in words.  Sending the whole picture each time keeps the page a pure
function of the last message, so a page that reconnects or misses a message
is right again with the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.game import Game
from engines.physical import Thing
from host.hardware.objects import NEUTRAL, REVERSIBLE
from host.hardware.spec import BoardSpec
from host.session.lights import DIM, Light
from host.session.session import Session

# How each game's cells are drawn: squares, hexagons, or points joined by lines.
DRAWING = {"kingofrings": "square", "desdemona": "square", "spacetiles": "hex", "flipfour": "point"}
SIDE_NAMES = {
    "kingofrings": ("Light", "Dark"),
    "desdemona": ("Black", "White"),
    "spacetiles": ("Orange", "Violet"),
    "flipfour": ("Red", "Yellow"),
}


def ai_json(session: Session) -> dict[str, Any]:
    """The AI opponent as the page shows it: its side, level and time (or nodes) per move."""
    opponent, side = session.opponent, session.settings.ai_side
    if opponent is None or side is None:
        return {"side": None}
    return {
        "side": side,
        "level": getattr(opponent, "level", None),
        "seconds": getattr(opponent, "seconds", None),
        "nodes": getattr(opponent, "nodes", None),
    }


def layout(game: Game[Any, Any], board: BoardSpec, simulated: bool) -> dict[str, Any]:
    """The parts of the page that never change during a game: the cells and where they are."""
    geometry = game.geometry
    cells = []
    for index, name in enumerate(geometry.names):
        x, y = geometry.centre(index)
        cells.append({"name": name, "x": round(x, 4), "y": round(-y, 4)})
    links = sorted({tuple(sorted((a, b))) for a in range(geometry.size) for b in geometry.neighbours(a)})
    return {
        "type": "layout",
        "game": game.id,
        "name": game.name,
        "board": board.name,
        "drawing": DRAWING.get(game.id, "square" if geometry.shape == "square" else "hex"),
        "cells": cells,
        "links": [[geometry.names[a], geometry.names[b]] for a, b in links],
        "sides": list(SIDE_NAMES.get(game.id, ("Player 0", "Player 1"))),
        "simulated": simulated,
        "tray": [str(t) for t in tray_things(board)],
    }


def tray_things(board: BoardSpec) -> list[Thing]:
    """One tray compartment per object a player can take from the box (each colour of owned pieces)."""
    things = []
    for kind, spec in board.objects.items():
        if spec.role == NEUTRAL:
            things.append(Thing(kind))
        else:
            things.extend((Thing(kind, 0), Thing(kind, 1)))
    return things


def box_counts(
    board: BoardSpec, stacks: Mapping[str, Sequence[Thing]], held: Sequence[Thing]
) -> dict[str, int]:
    """How many of each tray object are left in the box: the set, less what is on the board or in the hand.

    Owned pieces are counted per colour (half the set each); reversible ones
    share one pool whichever side is up.
    """
    out_of_box: dict[Thing, int] = {}
    for thing in [*held, *(t for stack in stacks.values() for t in stack)]:
        out_of_box[thing] = out_of_box.get(thing, 0) + 1
    counts = {}
    for thing in tray_things(board):
        spec = board.objects[thing.kind]
        if spec.role == REVERSIBLE:
            used = sum(n for t, n in out_of_box.items() if t.kind == thing.kind)
            total = spec.count
        elif spec.role == NEUTRAL:
            used, total = out_of_box.get(thing, 0), spec.count
        else:
            used, total = out_of_box.get(thing, 0), spec.count // 2
        counts[str(thing)] = max(0, total - used)
    return counts


def light_json(light: Light) -> dict[str, Any]:
    r, g, b = light.meaning.colour
    if light.dim:
        r, g, b = int(r * DIM), int(g * DIM), int(b * DIM)
    return {
        "meaning": light.meaning.value,
        "rgb": [r, g, b],
        "blink": light.blink.value,
        "period_ms": light.blink.period_ms,
        "dim": light.dim,
    }


def picture(
    session: Session,
    stacks: Mapping[str, Sequence[Thing]],
    board: BoardSpec,
    held: Sequence[Thing] = (),
    changed: Sequence[str] = (),
    message: str = "",
) -> dict[str, Any]:
    """Everything the page shows now.

    ``stacks`` is what stands on the board: the simulated board's contents,
    or on a real board the committed position, with ``changed`` naming the
    cells whose sensors disagree with it (a piece lifted or put down).
    """
    view = session.view()
    game, pos = view.game, view.position
    score = game.score(pos)
    return {
        "type": "picture",
        "cells": {name: [str(t) for t in stack] for name, stack in stacks.items() if stack},
        "changed": sorted(changed),
        "held": [str(t) for t in held],
        "box": box_counts(board, stacks, held),
        "leds": {cell: light_json(light) for cell, light in sorted(view.intent.scene.items())},
        "to_move": game.to_move(pos) if not game.is_over(pos) else None,
        "state": view.intent.kind.value,
        "status": view.status,
        "score": list(score) if score is not None else None,
        "moves": list(view.moves),
        "pending": game.format_move(pos, session.pending) if session.pending is not None else None,
        "hint": list(view.hint),
        "ai": ai_json(session),
        "message": message,
    }
