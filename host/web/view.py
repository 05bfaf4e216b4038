"""What the browser page draws, as JSON-ready dictionaries, from the session's one view.

The page knows no rules and no hardware: it gets the board's shape once
(``layout``) and then, whenever anything changes, the whole picture
(``picture``): what stands on every cell, what the hand holds, the box, the
LEDs as the board's intent lights them, and that intent's sentence and
buttons.  Everything comes from ``SessionView`` and the game's rules, never
from the session's internals.  Sending the whole picture each time keeps the
page a pure function of the last message, so a page that reconnects or misses
a message is right again with the next one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from engines.game import Game, M, MoveError, P
from engines.physical import Thing
from engines.table import SHARED, Noun, Role, Table
from host.hardware.spec import BoardSpec
from host.session import words
from host.session.intent import AiMove, Choose, Confirm, DeadStones, GameOver, Kind, Lifted, TurnUnderWay
from host.session.lights import BLINK_WORDS, DIM, LEGEND, Light, Meaning
from host.session.session_view import SessionView
from host.session.words import side_name
from host.store.games import Status, StoredGame, stamp
from host.words.spoken import spoken

Stacks = Mapping[str, Sequence[Thing]]
# While the player is in the middle of their own move, the lights do not ask for one position.
OWN_MOVE = frozenset({Kind.LIFTED, Kind.CONFIRM, Kind.CHOOSE})


def layout(game: Game[P, M], board: BoardSpec, simulated: bool) -> dict[str, object]:
    """The parts of the page that never change during a game: the cells, the legend, the tray."""
    geometry, table = game.geometry, game.table
    cells = []
    for index, name in enumerate(geometry.names):
        x, y = geometry.centre(index)
        cells.append(
            {"name": name, "x": round(x, 4), "y": round(-y, 4), "colour": table.cell_colour(game, index)}
        )
    links = sorted({tuple(sorted((a, b))) for a in range(geometry.size) for b in geometry.neighbours(a)})
    return {
        "type": "layout",
        "game": game.id,
        "name": game.name,
        "board": board.name,
        "drawing": table.drawing.shape,
        "cells": cells,
        "links": [[geometry.names[a], geometry.names[b]] for a, b in links],
        "sides": list(table.sides),
        "side_colours": list(table.side_colours),
        "objects": objects_json(game),
        "player_kind": table.player_kind,
        "simulated": simulated,
        "tray": [str(t) for t in tray_things(board)],
        "carries": carries_words(table),
        "notation": table.notation,
        "voluntary_pass": table.voluntary_pass,
        "legend": [
            {"meaning": e.meaning.value, "colour": e.colour_name, "rgb": list(e.rgb), "words": e.words}
            for e in LEGEND
            if e.meaning in meanings(table)
        ],
        "blinks": [{"blink": blink.value, "words": words} for blink, words in BLINK_WORDS.items()],
    }


def carries_words(table: Table) -> str:
    """What a click lifts with a carrier, for the page's help: 'a knight with the rings it carries'."""
    riders = table.riders.many if table.riders is not None else "objects"
    said = [f"{k.noun.indefinite} with the {riders} it carries" for k in table.objects if k.carries]
    return " or ".join(said)


def meanings(table: Table) -> frozenset[Meaning]:
    """The lights a game can show: turning over only where something has two sides."""
    if table.kinds(Role.REVERSIBLE):
        return frozenset(Meaning)
    return frozenset(Meaning) - {Meaning.TURN}


def objects_json(game: Game[P, M]) -> dict[str, dict[str, object]]:
    """Each kind of object as the page draws and names it."""
    out: dict[str, dict[str, object]] = {}
    for kind in game.table.objects:
        look = kind.look
        out[kind.kind] = {
            "noun": kind.noun.one,
            "role": kind.role.value,
            "shape": look.shape,
            "size": look.size,
            "fills": list(look.fills),
            "edges": list(look.edges),
            "width": look.width,
            "glyph": look.glyph,
            "glyph_inks": list(look.glyph_inks),
            "names": [game.table.name(Thing(kind.kind, colour)) for colour in kind.role.colours],
        }
    return out


def tray_things(board: BoardSpec) -> list[Thing]:
    """One tray compartment per object a player can take from the box (each colour of owned pieces)."""
    return [Thing(kind, colour) for kind, spec in board.objects.items() for colour in spec.role.colours]


def hand_words(game: Game[P, M], kind: str, count: int) -> str:
    """'3 knights in hand', '1 tile in supply'."""
    held = game.table.kind(kind).held
    noun = held.count(count) if held is not None else f"{count} in hand"
    return noun


def _count(stacks: Stacks, held: Sequence[Thing], match: Callable[[Thing], bool]) -> int:
    return sum(1 for stack in stacks.values() for t in stack if match(t)) + sum(1 for t in held if match(t))


def tray(
    view: SessionView[P, M], board: BoardSpec, stacks: Stacks, held: Sequence[Thing]
) -> dict[str, dict[str, object]]:
    """Each compartment's count and words.

    What a player holds in the game (``game.hands``: Flip Four's pieces to
    place, King of Rings knights in hand, Space Tiles pieces and tiles) is each
    player's own pool: what the game says they hold, less what has been taken
    out for the move under way (the simulated board and hand hold more of it
    than the committed position), more what has been taken off the board (a
    captured knight, a knight put in the box by mistake: the tray gives it
    back).  A reversible piece taken out is the mover's.
    Other objects are counted in the box: the set, less what is out of it; a
    two-sided object's one box once, by its first compartment (its other has
    no words), as both show the same stones.
    """
    game, pos = view.game, view.position
    hands = game.hands(pos)
    committed = game.cells(pos)
    mover = game.to_move(pos)
    out: dict[str, dict[str, object]] = {}
    for thing in tray_things(board):
        role = board.objects[thing.kind].role
        owner = SHARED if thing.colour is None else thing.colour
        pool = hands.get(owner, {}).get(thing.kind)
        if pool is None:
            continue
        if role is Role.REVERSIBLE:
            same_kind = lambda t, kind=thing.kind: t.kind == kind  # noqa: E731
            taken = _count(stacks, held, same_kind) - _count(committed, (), same_kind)
            taken = taken if thing.colour == mover else 0
        else:
            same = lambda t, want=thing: t == want  # noqa: E731
            taken = _count(stacks, held, same) - _count(committed, (), same)
        count = max(0, pool - taken)  # what was taken off the board is back in the hand or the box
        owner_name = "" if thing.colour is None else f"{side_name(game, thing.colour)}: "
        out[str(thing)] = {"count": count, "words": owner_name + hand_words(game, thing.kind, count)}
    said: set[str] = set()  # two-sided kinds whose one box is counted already
    for name, count in box_counts(board, stacks, held).items():
        if name in out:
            continue
        kind = parse_kind(name)
        if board.objects[kind].role is not Role.REVERSIBLE:
            out[name] = {"count": count, "words": f"{count} in the box"}
            continue
        # One box of two-sided stones, whichever side a hand turns up: counted once, under the first.
        noun = game.table.kind(kind).noun
        words_said = "" if kind in said else f"{noun.count(count)} in the box, either side up"
        out[name] = {"count": count, "words": words_said}
        said.add(kind)
    return out


def parse_kind(name: str) -> str:
    """The kind of a tray compartment's name ('stone:1' -> 'stone')."""
    return name.partition(":")[0]


def box_counts(board: BoardSpec, stacks: Stacks, held: Sequence[Thing]) -> dict[str, int]:
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
        if spec.role is Role.REVERSIBLE:
            used = sum(n for t, n in out_of_box.items() if t.kind == thing.kind)
            total = spec.count
        elif spec.role is Role.NEUTRAL:
            used, total = out_of_box.get(thing, 0), spec.count
        else:
            used, total = out_of_box.get(thing, 0), spec.count // 2
        counts[str(thing)] = max(0, total - used)
    return counts


def light_json(light: Light) -> dict[str, object]:
    """A light as the LED shows it (``rgb``, dimmed for a hint) and the colour of its meaning (``colour``).

    The page draws the meaning's colour and dims by opacity: a dimmed red is
    nearly black on a screen, and its badge could not be read.
    """
    r, g, b = light.meaning.colour
    if light.dim:
        r, g, b = int(r * DIM), int(g * DIM), int(b * DIM)
    return {
        "meaning": light.meaning.value,
        "rgb": [r, g, b],
        "colour": list(light.meaning.colour),
        "blink": light.blink.value,
        "period_ms": light.blink.period_ms,
        "dim": light.dim,
    }


def goal(view: SessionView[P, M]) -> P | None:
    """The position the lights lead the board to, or None while the player makes their own move.

    The AI's move (or the rest of a turn under way) from the committed
    position; otherwise the committed position itself (after Take back or New
    game, or to put a mistake right).
    """
    game, pos, intent = view.game, view.position, view.intent
    if intent.kind in OWN_MOVE:
        return None
    move = intent.move if isinstance(intent, AiMove | TurnUnderWay) else ""
    if not move:
        return None if intent.kind is Kind.TURN_UNDER_WAY else pos
    try:
        return game.play(pos, game.parse_move(pos, move))
    except MoveError:
        return None


def intent_json(view: SessionView[P, M]) -> dict[str, object]:
    """The intent's kind, sentence and buttons, and what its kind adds (the move, the choices, ...)."""
    intent = view.intent
    out = intent.summary()
    if isinstance(intent, AiMove | Confirm | TurnUnderWay):
        out["move"] = intent.move
    if isinstance(intent, Choose):
        out["choices"] = list(intent.choices)
        out["shown"] = intent.shown
    if isinstance(intent, Lifted):
        out["origins"] = list(intent.origins)
        out["targets"] = sorted(intent.targets)
    return out


def over_json(view: SessionView[P, M]) -> dict[str, object] | None:
    """Who won, why, and the cells that decided it (the intent's, else read from the final position)."""
    intent = view.intent
    if isinstance(intent, DeadStones):
        return None  # the players still agree on the dead stones: the game is over when they do
    shown = ending_json(view.game, view.position)
    if shown is not None and isinstance(intent, GameOver) and intent.reason:
        # The intent's winner too: after an agreement on dead stones it is the agreed board's.
        shown |= {"winner": intent.winner, "reason": intent.reason, "cells": sorted(intent.cells)}
    return shown


def ending_json(game: Game[P, M], pos: P) -> dict[str, object] | None:
    """Who won, why, and the cells that decided it, read from a final position (None while not over)."""
    outcome = game.outcome(pos)
    if outcome is None:
        return None
    ending = game.table.explain(game, pos)
    return {"winner": outcome.winner, "reason": ending.reason, "cells": sorted(ending.cells)}


def players_json(game: Game[P, M], pos: P, ai_side: int | None) -> list[dict[str, object]]:
    """Each player as the page lists them: name, whether to move, what they hold, their points."""
    hands = game.hands(pos)
    score = game.score(pos)
    over = game.is_over(pos)
    out: list[dict[str, object]] = []
    for side in (0, 1):
        held = [
            {"thing": str(Thing(kind, side)), "count": n, "words": hand_words(game, kind, n)}
            for kind, n in hands.get(side, {}).items()
        ]
        out.append(
            {
                "side": side,
                "name": side_name(game, side),
                "to_move": not over and game.to_move(pos) == side,
                "hand": held,
                "score": score[side] if score is not None else None,
                "ai": ai_side == side,
            }
        )
    return out


def badges(game: Game[P, M], stacks: Stacks, committed: Stacks | None = None) -> dict[str, dict[str, object]]:
    """What the carried objects of each stack are worth (a King of Rings knight's rings and points).

    Where the board still holds the committed position's carrier on a cell, the
    badge is the game's count (the score's), whatever the hand did to objects
    the sensors cannot see; elsewhere (a piece put down during a move) it counts
    what stands there.
    """
    table = game.table
    out = {}
    for cell, stack in stacks.items():
        believed = committed.get(cell, ()) if committed is not None else ()
        counted = believed if believed and believed[-1] in stack else stack
        badge = table.badge(counted)
        if badge is None or table.riders is None:
            continue
        worth = (table.score_unit or Noun("point", "points")).count(badge.points)
        out[cell] = {
            "count": badge.count,
            "points": badge.points,
            "words": f"{table.riders.count(badge.count)}, {worth}",
        }
    return out


def ghosts(view: SessionView[P, M], target: P | None, stacks: Stacks) -> dict[str, list[str]]:
    """Where a light asks for something to be put: what the cell must hold then, drawn faintly.

    A Space Tiles AI move lights a new tile and pieces alike; the ghost shows which is which.
    """
    if target is None:
        return {}
    wanted = view.game.cells(target)
    return {
        cell: [str(t) for t in wanted[cell]]
        for cell, light in view.intent.scene.items()
        if light.meaning is Meaning.PUT and not light.dim and tuple(stacks.get(cell, ())) != wanted[cell]
    }


def ai_json(view: SessionView[P, M]) -> dict[str, object]:
    ai = view.ai
    if ai is None:
        return {"side": None}
    return {
        "side": ai.side, "level": ai.level, "seconds": ai.seconds, "nodes": ai.nodes, "name": ai.name,
        "stopped": ai.stopped,
    }  # fmt: skip


def unseen_words(view: SessionView[P, M], believed: Sequence[Thing]) -> str:
    """What the game believes stands on a cell whose difference the sensors cannot see, bottom first."""
    if not believed:
        return "the game believes this cell is empty (the sensors cannot see what is on it)"
    names = " under ".join(view.game.table.named((t,), definite=False) for t in believed)
    return f"the game believes this cell holds {names} (the sensors cannot see the difference)"


def turns(moves: Sequence[str]) -> list[list[str]]:
    """The moves as numbered turns: each turn the two sides' plies."""
    return [list(moves[i : i + 2]) for i in range(0, len(moves), 2)]


def picture(
    view: SessionView[P, M],
    stacks: Stacks,
    board: BoardSpec,
    held: Sequence[Thing] = (),
    changed: Sequence[str] = (),
    message: str = "",
    target: P | None = None,
    can_set_up: bool = False,
    unseen: Mapping[str, Sequence[Thing]] | None = None,
    placements: Iterable[str] | None = None,
) -> dict[str, object]:
    """Everything the page shows now.

    ``stacks`` is what stands on the board: the simulated board's contents,
    or on a real board the committed position, with ``changed`` naming the
    cells whose sensors disagree with it (a piece lifted or put down).
    ``target`` is ``goal(view)``; ``can_set_up`` whether the simulated hands
    can carry out what the lights ask.  ``unseen`` (simulated board only):
    cells where the board holds something else than the game believes but the
    sensors cannot tell, with what the game believes stands there.  ``placements``: where a legal
    move puts the object the hand took from the tray, None while it holds none.  The sensors cannot see
    a hand above the board, so the board's own intent does not know of it; the page does, and shows it
    as it shows a lifted piece: the cells lit green with a dot, and a sentence for what is held.
    """
    game, pos = view.game, view.position
    score = game.score(pos)
    moves = view.moves
    intent = view.intent
    leds = {cell: light_json(light) for cell, light in sorted(intent.scene.items())}
    status = view.status
    if placements is not None and held:
        places = sorted(placements)
        leds |= {cell: light_json(Light(Meaning.PUT)) for cell in places}
        status = words.holding(game, held[-1], bool(places))
    return {
        "type": "picture",
        "cells": {name: [str(t) for t in stack] for name, stack in stacks.items() if stack},
        "changed": sorted(changed),
        "unseen": {cell: unseen_words(view, things) for cell, things in sorted((unseen or {}).items())},
        "held": [str(t) for t in held],
        "tray": tray(view, board, stacks, held),
        "leds": leds,
        "targets": sorted(intent.targets) if isinstance(intent, Lifted) else sorted(placements or ()),
        "ghosts": ghosts(view, target, stacks),
        "last_move": sorted(view.last_move),
        "stacks": badges(game, stacks, game.cells(pos)),
        "intent": intent_json(view),
        "status": status,
        "spoken": spoken(game, status),  # the status as the page's Speak switch says it
        "notices": list(view.notice_words),
        "to_move": None if game.is_over(pos) else game.to_move(pos),
        "players": players_json(game, pos, view.ai.side if view.ai is not None else None),
        "supply": [hand_words(game, k, n) for k, n in game.hands(pos).get(SHARED, {}).items()],
        "score": game.table.score_words(score) if score is not None else None,
        "over": over_json(view),
        "turns": turns(moves),
        "ply": len(moves),
        "hint": list(view.hint),
        "ai": ai_json(view),
        "message": message,
        "setup": can_set_up,
    }


def past_game_json(game: Game[P, M], stored: StoredGame, moves: int, live: int | None) -> dict[str, object]:
    """One game of the page's "Past games" list, in words: who, when, how it stands, how long."""
    return {
        "id": stored.id,
        "players": list(stored.players),
        "date": stamp(stored.started_at)[:16] if stored.started_at is not None else "",
        "state": state_words(game, stored, live),
        "moves": moves,
        "live": stored.id == live,
    }


def state_words(game: Game[P, M], stored: StoredGame, live: int | None) -> str:
    """How a stored game stands: being played, unfinished, abandoned, or who won and the score (the live
    game's too, once it is over)."""
    if stored.status is Status.ABANDONED:
        return "abandoned"
    if stored.outcome is None:
        return "being played now" if stored.id == live else "unfinished"
    winner = stored.outcome.winner
    said = "a draw" if winner is None else f"{side_name(game, winner)} won"
    score = stored.outcome.score
    return said if score is None else f"{said}, {game.table.score_words(score)}"


def replay_json(
    game: Game[P, M], stored: StoredGame, positions: Sequence[P], step: int, live: int | None
) -> dict[str, object]:
    """A stored game's position after ``step`` of its moves (``positions`` from the start), drawn as the
    live board is but with no lights, no hand and no box: nothing to do on it, only to look."""
    pos = positions[step]
    moves = stored.moves
    stacks = game.cells(pos)
    last: list[str] = []
    words_now = f"Game {stored.id} at its start."
    if step:
        before = game.cells(positions[step - 1])
        last = sorted(cell for cell in stacks if before[cell] != stacks[cell])
        mover = side_name(game, game.to_move(positions[step - 1]))
        words_now = f"Game {stored.id} after move {step} of {len(moves)}: {mover} played {moves[step - 1]}."
    score = game.score(pos)
    return {
        "type": "replay",
        "game": past_game_json(game, stored, len(moves), live),
        "step": step,
        "steps": len(moves),
        "status": words_now,
        "picture": {
            "cells": {name: [str(t) for t in stack] for name, stack in stacks.items() if stack},
            "changed": [],
            "unseen": {},
            "held": [],
            "leds": {},
            "targets": [],
            "ghosts": {},
            "last_move": last,
            "stacks": badges(game, stacks),
            "players": players_json(game, pos, None),
            "supply": [hand_words(game, k, n) for k, n in game.hands(pos).get(SHARED, {}).items()],
            "score": game.table.score_words(score) if score is not None else None,
            "over": ending_json(game, pos),
            "turns": turns(moves),
            "ply": step,
        },
    }
