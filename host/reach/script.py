"""Scripts of physical actions: the same hands, every time.

``magboard play --script FILE`` replays what a person did at the board, for
tests and for reproducing a bug report.  One action per line; ``#`` starts a
comment.  Times are milliseconds; each action takes ``step`` ms of script time
unless a ``wait`` says otherwise.

    lift a4               take the top object off a cell into the hand
    place a6              put the object last lifted on a cell
    place a7 stone:0      put a new object (kind[:colour], engines/physical.py) on a cell
    remove a7             take the top object off the board for good
    turn d4               turn the top object over (a reversible stone or piece)
    slide a4 a5 a6        slide the top object across cells, ending on the last
    tap c3                lift the top object and put it straight back, or touch the cell with a
                          piece when nothing on it has a magnet: how a player answers the LEDs
    wait 500              let time pass
    press confirm         a button: confirm, new_game, hint, take_back, pass
    step 100              the time each later action takes (default 100)

A script is at most MAX_BYTES, and a time at most MAX_MS (an hour): a script is a game's worth of
hands, and ``play --script /dev/zero`` or ``wait 99999999999999999999999`` must end in one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engines.physical import Thing
from host.files import MIB, read_text
from host.hardware.spec import Button
from host.numbers import whole

CELL_RE = re.compile(r"^[a-z]\d{1,2}$")
MAX_BYTES = MIB
MAX_MS = 3_600_000


class ScriptError(ValueError):
    """A script line that cannot be understood: the message names the line."""


@dataclass(frozen=True)
class Action:
    line: int
    verb: str
    cells: tuple[str, ...] = ()
    thing: Thing | None = None
    ms: int = 0
    button: str = ""


def format_action(action: Action) -> str:
    """The script line of an action (the inverse of parsing it)."""
    if action.verb in ("wait", "step"):
        return f"{action.verb} {action.ms}"
    if action.verb == "press":
        return f"press {action.button}"
    words = [action.verb, *action.cells]
    if action.thing is not None:
        colour = "" if action.thing.colour is None else f":{action.thing.colour}"
        words.append(f"{action.thing.kind}{colour}")
    return " ".join(words)


def parse_thing(text: str) -> Thing:
    """An object as a script names it: KIND or KIND:COLOUR (which kinds a board has, its hands check)."""
    kind, _, colour = text.partition(":")
    if colour and colour not in ("0", "1"):
        raise ValueError(f"colour must be 0 or 1, got {colour!r}")
    try:
        return Thing(kind, int(colour) if colour else None)
    except ValueError:
        raise ValueError(f"not an object: {text!r} (expected KIND or KIND:COLOUR, e.g. stone:0)") from None


def parse(text: str, cells: set[str]) -> list[Action]:
    """The actions of a script; ScriptError names the first bad line."""
    actions: list[Action] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        try:
            actions.append(_action(number, words, cells))
        except ValueError as exc:
            raise ScriptError(f"line {number}: {raw.strip()!r}: {exc}") from None
    return actions


def load_script(path: Path, cells: set[str]) -> list[Action]:
    """The actions of the script file at ``path``: OSError when it cannot be read, else as ``parse``."""
    return parse(read_text(path, MAX_BYTES), cells)


def _cells(names: list[str], cells: set[str], count: int | None) -> tuple[str, ...]:
    if count is not None and len(names) != count:
        raise ValueError(f"expected {count} cell{'s' if count > 1 else ''}")
    for name in names:
        if name not in cells:
            raise ValueError(f"no cell {name!r} on this board")
    return tuple(names)


def _number(words: list[str]) -> int:
    if len(words) != 2:
        raise ValueError(f"expected one whole number of milliseconds 0..{MAX_MS}")
    return whole(words[1], 0, MAX_MS, "a whole number of milliseconds")


def _action(number: int, words: list[str], cells: set[str]) -> Action:
    verb, args = words[0], words[1:]
    if verb in ("lift", "remove", "turn", "tap"):
        return Action(number, verb, _cells(args, cells, 1))
    if verb == "place":
        if len(args) not in (1, 2):
            raise ValueError("expected 'place CELL [KIND[:COLOUR]]'")
        thing = parse_thing(args[1]) if len(args) == 2 else None
        return Action(number, verb, _cells(args[:1], cells, 1), thing)
    if verb == "slide":
        if len(args) < 2:
            raise ValueError("expected 'slide FROM ... TO' with at least two cells")
        return Action(number, verb, _cells(args, cells, None))
    if verb in ("wait", "step"):
        return Action(number, verb, ms=_number(words))
    if verb == "press":
        if len(args) != 1 or args[0] not in {b.value for b in Button}:
            raise ValueError(f"expected 'press BUTTON' with one of {', '.join(b.value for b in Button)}")
        return Action(number, verb, button=args[0])
    raise ValueError(f"unknown action {verb!r} (lift, place, remove, turn, slide, tap, wait, press, step)")
