"""Why a finished game ended, in the game's own words, and the cells that decided it.

The rules engine says who won (``Game.outcome``); a player also wants to see
why - the line of four, the over-line, the empty tile supply, the stone count -
and where on the board it is.  ``explain`` reads that from the final position
alone (RULES.md, "Result" of each game), so the page and the board's game-over
lights can show it for any finished game, a resumed one included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engines.game import Game
from engines.physical import Thing
from host.session.words import side_name

Stacks = Mapping[str, tuple[Thing, ...]]

# What the points of a counting game are (RULES.md "Score").
SCORE_UNITS: dict[str, tuple[str, str]] = {
    "desdemona": ("stone", "stones"),
    "kingofrings": ("point", "points"),
}
RING_KINDS = frozenset({"ring_silver", "ring_blue", "ring_bigblue"})


def score_words(game: Game[Any, Any], score: tuple[int, int]) -> str:
    """The score with the players' names and its unit: 'Black 13 stones - White 28 stones'."""
    one, many = SCORE_UNITS.get(game.id, ("point", "points"))
    said = [f"{side_name(game, side)} {n} {one if n == 1 else many}" for side, n in enumerate(score)]
    return " - ".join(said)


def explain(game: Game[Any, Any], pos: Any) -> tuple[str, frozenset[str]]:
    """(the reason the game ended, the cells that decided it); ValueError if it is not over."""
    outcome = game.outcome(pos)
    if outcome is None:
        raise ValueError("the game is not over")
    stacks = game.cells(pos)
    if game.id == "flipfour":
        return _flipfour(game, pos, stacks)
    if game.id == "spacetiles":
        return _spacetiles(game, pos, stacks, outcome.winner)
    score = game.score(pos)
    counted = f" {score_words(game, score)}." if score is not None else ""
    if game.id == "desdemona":
        cells = _owned(stacks, "stone", outcome.winner)
        return "Neither player can move a queen (two passes in a row)." + counted, cells
    if game.id == "kingofrings":
        loose = any(stack and stack[-1].kind in RING_KINDS for stack in stacks.values())
        why = "Two passes in a row." if loose else "The last loose ring is taken."
        holders = frozenset(
            cell
            for cell, stack in stacks.items()
            if len(stack) > 1 and (outcome.winner is None or stack[-1].colour == outcome.winner)
        )
        return why + counted, holders
    return counted.strip(), frozenset()


def _owned(stacks: Stacks, kind: str, side: int | None) -> frozenset[str]:
    """The cells whose top object is a ``kind`` of ``side`` (None: none, as in a draw)."""
    if side is None:
        return frozenset()
    return frozenset(c for c, s in stacks.items() if s and s[-1].kind == kind and s[-1].colour == side)


def _runs(game: Game[Any, Any], member: Iterable[str], min_length: int) -> list[tuple[str, ...]]:
    """Every maximal run of ``member`` cells along a line of the board, at least ``min_length`` long."""
    names = game.geometry.names
    inside = set(member)
    out = []
    for line in game.geometry.lines(min_length=min_length):
        run: list[str] = []
        for cell in (*line, None):
            if cell is not None and names[cell] in inside:
                run.append(names[cell])
                continue
            if len(run) >= min_length:
                out.append(tuple(run))
            run = []
    return out


def _showing(stacks: Stacks, side: int) -> set[str]:
    return {c for c, s in stacks.items() if s and s[-1].kind == "piece" and s[-1].colour == side}


def _flipfour(game: Game[Any, Any], pos: Any, stacks: Stacks) -> tuple[str, frozenset[str]]:
    """RULES.md section 4: the mover's over-line, then the opponent's, then a line of exactly 4."""
    to_move = game.to_move(pos)
    mover = 1 - to_move

    def overline(side: int) -> tuple[str, list[tuple[str, ...]]] | None:
        runs = _runs(game, _showing(stacks, side), 4)
        fives = [r for r in runs if len(r) >= 5]
        fours: list[tuple[str, ...]] = [r for r in runs if len(r) == 4]
        if fives:
            return f"a line of {len(fives[0])}", fives
        if len(fours) >= 2:
            return f"{len(fours)} lines of 4", fours
        return None

    for side, when in ((mover, "after its own turn"), (to_move, f"after {side_name(game, mover)}'s turn")):
        over = overline(side)
        if over is not None:
            words, runs = over
            name = side_name(game, side)
            return (
                f"{name} shows {words} (an over-line) {when}, and loses.",
                frozenset(c for r in runs for c in r),
            )
    fours = [r for r in _runs(game, _showing(stacks, to_move), 4) if len(r) == 4]
    name = side_name(game, to_move)
    if fours:
        return f"{name} shows a line of exactly 4 at the start of its turn, and wins.", frozenset(fours[0])
    return f"{name} has no legal move, and loses.", frozenset(_showing(stacks, to_move))


def _spacetiles(
    game: Game[Any, Any], pos: Any, stacks: Stacks, winner: int | None
) -> tuple[str, frozenset[str]]:
    """RULES.md section 2: runs judged for the player who just moved, else no legal turn."""
    to_move = game.to_move(pos)
    mover = 1 - to_move
    pieces = {c for c, s in stacks.items() if s and s[-1].kind == "piece"}
    name, other = side_name(game, mover), side_name(game, to_move)
    if winner == to_move:
        sixes = _runs(game, pieces, 6)
        cells = frozenset(c for r in sixes for c in r)
        return f"{name} made a run of {max(map(len, sixes), default=6)} pieces in a row, and loses.", cells
    own = _runs(game, _showing(stacks, mover), 4)
    if own:
        return f"{name} made a run of {len(own[0])} of its own pieces, and wins.", frozenset(own[0])
    fives = [r for r in _runs(game, pieces, 5) if len(r) == 5]
    if fives:
        return f"{name} made a run of exactly 5 pieces, and wins.", frozenset(fives[0])
    supply = game.hands(pos).get(2, {}).get("tile", 0)
    if not supply:
        return f"The tile supply is empty: {other} has no turn, and loses.", frozenset()
    names = game.geometry.names
    index = game.geometry.index
    frontier = frozenset(
        cell
        for cell, stack in stacks.items()
        if not stack and any(stacks[names[n]] for n in game.geometry.neighbours(index[cell]))
    )
    return f"{other} has no legal turn: no tile it can place lets it finish the turn, and loses.", frontier
