"""The King of Rings at the table: knights that carry the rings they win, and the words for them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from engines.table import Drawing, Ending, GameView, Look, Noun, ObjectKind, Role, Table

KNIGHT_LOOK = Look("disc", 0.3, fills=("#f2efe6", "#2b2b2b"), glyph="\u265e", glyph_inks=("#222", "#eee"))
KNIGHT = ObjectKind(
    "knight",
    Role.OWNED,
    Noun("knight", "knights"),
    KNIGHT_LOOK,
    held=Noun("knight in hand", "knights in hand"),
    carries=True,  # RULES.md: a knight moves with the rings it won
)


def ring(kind: str, colour: str, size: float, width: float, points: int) -> ObjectKind:
    """A ring: nobody's, carried under the knight that won it, worth its points (RULES.md)."""
    name = f"{colour} ring"
    return ObjectKind(
        kind, Role.NEUTRAL, Noun(name, f"{name}s"), Look("ring", size, fills=(COLOURS[colour],), width=width),
        rides=True, points=points,
    )  # fmt: skip


COLOURS = {"silver": "#c9c9c9", "blue": "#2a6fdb", "big blue": "#123f99"}
RINGS = (
    ring("ring_silver", "silver", 0.34, 0.07, 1),
    ring("ring_blue", "blue", 0.36, 0.09, 3),
    ring("ring_bigblue", "big blue", 0.4, 0.13, 5),
)
BLUE, PLAIN = "#9db7cf", "#d8b584"


class KingOfRingsTable(Table):
    sides = ("Light", "Dark")
    side_colours = ("#f2efe6", "#2b2b2b")
    possessive = True
    objects = (KNIGHT, *RINGS)
    riders = Noun("ring", "rings")
    cell = Noun("square", "squares")
    drawing = Drawing("square", checkered=(BLUE, PLAIN))
    notation = "b2-c3, b2xc3, *d4 or pass"
    said_symbols: ClassVar[Mapping[str, str]] = {"-": " to ", "x": " takes ", "*": "drop on "}
    turn = "step, jump or drop a knight"
    score_unit: ClassVar[Noun | None] = Noun("point", "points")
    endings: ClassVar[Mapping[str, str]] = {
        "the last ring taken": "The last loose ring is taken. {score}.",
        "two passes": "Two passes in a row. {score}.",
    }
    never: ClassVar[Mapping[str, str]] = {
        "choose": "each move lands one knight on a square of its own, which the hand touches there, so the "
        "sensors tell every two moves apart",
        "confirm": "no turn is the beginning of another (a drop never grows into a step: that knight came "
        "from the hand, not the board)",
    }

    def turn_words(self, game: GameView, pos: Any) -> str:
        """The ways a knight may move now (RULES.md): a step with no ring, a jump as far as its rings, a
        drop from the hand; a pass only when none is possible; and where a knight can be taken, that it
        comes off first."""
        stacks = game.cells(pos)
        ways = set()
        takes = False
        for move in game.legal_moves(pos):
            text = game.format_move(pos, move)
            takes = takes or "x" in text
            if text.startswith("*"):
                ways.add("drop")
            elif text != "pass":
                ways.add("step" if len(stacks[re.split("[-x]", text)[0]]) == 1 else "jump")  # a holder jumps
        said = [way for way in ("step", "jump", "drop") if way in ways]
        if not said:
            return "pass (no knight can step, jump or drop)"
        ways_said = (", ".join(said[:-1]) + " or " if len(said) > 1 else "") + said[-1] + " a knight"
        # A knight taken leaves its rings to the taker (RULES.md): off first, or they would go on top of it.
        return ways_said + ("; to take a knight, lift it off its square first" if takes else "")

    def cell_colour(self, game: GameView, index: int) -> str:
        """a1 is blue, or b1 with the ``blue_parity`` option (RULES.md)."""
        q, r = game.geometry.coords[index]
        blue = (q + r) % 2 == (1 if "blue_parity" in game.chosen else 0)
        return BLUE if blue else PLAIN

    def ending(self, game: GameView, pos: Any) -> Ending:
        """The last loose ring taken, or two passes; the stacks of the winner (of both in a draw)."""
        outcome = game.outcome(pos)
        assert outcome is not None
        stacks = game.cells(pos)
        rings = self.kinds_riding
        loose = any(stack and stack[-1].kind in rings for stack in stacks.values())
        holders = frozenset(
            cell
            for cell, stack in stacks.items()
            if len(stack) > 1
            and stack[-1].kind == KNIGHT.kind
            and (outcome.winner is None or stack[-1].colour == outcome.winner)
        )
        return self.because("two passes" if loose else "the last ring taken", game, pos, holders)
