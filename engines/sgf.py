"""Games as SGF, the Smart Game Format (FF[4]) every Go program, server and editor reads and writes.

A game SGF has a number for (GM[1] Go, GM[18] the Amazons) names its facts in
``Game.sgf`` ("module:attribute", imported only when a record is written or
read, as ``gtp`` is): the game number and board size, the root properties its
rules fix (komi, rules), the setup its start is, SGF's colour of each player,
and a move as an SGF value and back.  This module knows SGF and no game: it
writes a record (engines/records.py) as SGF and reads one back, with sgfmill
(PyPI) for the syntax.  Reading keeps the main line and checks every move by
playing it, so an SGF that loads is a legal game; SgfError says where one is not.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr
from sgfmill import sgf, sgf_grammar

from engines import registry
from engines.game import Game, MoveError, Outcome
from engines.records import Record

P = TypeVar("P")
M = TypeVar("M", bound=Hashable)

MAX_BYTES = 1024 * 1024  # as a text record (engines/records.py): a game of 7x7 Go is a few hundred bytes
APPLICATION = "magboard"
# The setup properties: a game starts from its own start, so a file may give only that.
SETUP = ("AB", "AW", "AE", "AA")


class SgfError(ValueError):
    """An SGF file that cannot be read as a game magboard plays: the message says where and what."""


@mypyc_attr(allow_interpreted_subclasses=True)
class SgfFacts(ABC, Generic[P, M]):
    """A game as SGF writes it."""

    number: int  # GM
    size: int  # SZ
    # SGF's colour ("B" or "W") of player 0 and of player 1: SGF's B is whoever moves first.
    colours: tuple[str, str] = ("B", "W")
    # The root properties the rules fix ("KM", "7.5"): written, and a file saying otherwise is noted.
    fixed: tuple[tuple[str, str], ...] = ()
    # The start position as SGF setup properties (AB, AW, AA), each with its points sorted.
    start: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __init__(self, game: Game[P, M]) -> None:
        self.game = game

    @abstractmethod
    def value(self, pos: P, move: M) -> str:
        """The SGF value of ``move`` played in ``pos`` ("dd", "" for Go's pass)."""

    @abstractmethod
    def move(self, pos: P, value: str) -> M:
        """The legal move of ``pos`` the SGF ``value`` names; MoveError says why there is none."""

    def result(self, pos: P, outcome: Outcome) -> str:
        """The RE value of a finished game: "0" for a draw, "B+" or "W+" for a win (SGF's score is
        optional, "some games don't have a score"); a game that counts points says them."""
        if outcome.winner is None:
            return "0"
        return f"{self.colours[outcome.winner]}+"

    def territory(self, pos: P, dead: frozenset[str]) -> tuple[list[str], list[str]] | None:
        """SGF's TB and TW of the final ``pos`` with the stones on ``dead`` agreed dead: each player's
        territory as SGF points, a dead stone's point its capturer's; None for a game without them."""
        return None

    def dead(self, pos: P, territory: tuple[list[str], list[str]]) -> frozenset[str]:
        """The stones of ``pos`` that a file's TB and TW (``territory``) hold dead, by cell name."""
        return frozenset()

    def point(self, name: str) -> str:
        """A cell name of ours ("d4": file letter, rank from 1 at the first player's side) as an SGF
        point: column letter from the left, row letter from the top."""
        return name[0] + chr(ord("a") + self.size - int(name[1:]))

    def name(self, point: str) -> str:
        """The cell name of an SGF point; MoveError when it is off the board."""
        if len(point) != 2 or not all("a" <= c < chr(ord("a") + self.size) for c in point):
            raise MoveError(f"[{point}] is not a point of the {self.size}x{self.size} board")
        return f"{point[0]}{self.size - (ord(point[1]) - ord('a'))}"


def sgf_facts(game: Game[P, M]) -> SgfFacts[P, M] | None:
    """The game's SGF facts, or None for a game SGF does not keep."""
    target = game.sgf
    if not target:
        return None
    facts: SgfFacts[P, M] = registry.named(target)(game)
    return facts


def kept_games() -> list[tuple[str, SgfFacts[Any, Any]]]:
    """The installed games SGF keeps, with their facts."""
    found = []
    for game_id in registry.available():
        facts = sgf_facts(registry.make(game_id))
        if facts is not None:
            found.append((game_id, facts))
    return found


def _names() -> str:
    return ", ".join(f"{game_id} (GM[{f.number}] SZ[{f.size}])" for game_id, f in kept_games()) or "none"


def dump(record: Record) -> bytes:
    """The record as an SGF file (UTF-8): the rules' fixed properties, the players as PB and PW by their
    SGF colours, DT, RE when the rules say the game is over, and every move.  A game whose players
    agreed its dead stones (the record's ``dead``) ends with their territory (TB, TW, where a reader
    finds the dead stones), a comment naming them, and RE their count.  SgfError for a game SGF
    does not keep."""
    game = record.make_game()
    facts = sgf_facts(game)
    if facts is None:
        raise SgfError(f"{record.game} has no SGF form (the games SGF keeps: {_names()})")
    tree = sgf.Sgf_game(facts.size)
    root = tree.get_root()
    root.set_raw("GM", str(facts.number).encode())
    root.set_raw("AP", APPLICATION.encode())
    for key, value in facts.fixed:
        root.set_raw(key, value.encode())
    for key, points in facts.start:
        root.set_raw_list(key, [p.encode() for p in points])
    for player, colour in enumerate(facts.colours):
        root.set("P" + colour, record.players[player])
    date = record.extra.get("date", "").split(" ")[0]
    if date:
        root.set("DT", date)
    pos = game.start()
    for text in record.moves:
        move = game.parse_move(pos, text)
        tree.extend_main_sequence().set_raw(facts.colours[game.to_move(pos)], facts.value(pos, move).encode())
        pos = game.play(pos, move)
    outcome = game.outcome(pos)
    agreed = record.extra.get("dead")
    if agreed is not None and game.table.dead_proposal(game, pos) is not None:
        dead = frozenset(agreed.split())
        outcome, _ = game.table.agreed(game, pos, dead)
        territory = facts.territory(pos, dead)
        last = tree.get_last_node()
        for key, owned in zip(("TB", "TW"), territory or ([], []), strict=True):
            if owned:
                last.set_raw_list(key, [p.encode() for p in owned])
        last.set("C", f"Dead stones agreed: {' '.join(sorted(dead)) or 'none'}.")
    if outcome is not None:
        root.set_raw("RE", facts.result(pos, outcome).encode())
    data: bytes = tree.serialise()
    return data


def _where(data: bytes, reason: str) -> str:
    """Where sgfmill's reader stopped in ``data``, for its message: " (line L, column C)" where it could
    not read on, " (the file ends too soon)" when it ran out, else nothing (sgfmill says no more)."""
    _, stop = sgf_grammar.tokenise(data)
    if stop < len(data.rstrip()):
        line = data.count(b"\n", 0, stop) + 1
        column = stop - (data.rfind(b"\n", 0, stop) + 1) + 1
        return f" (line {line}, column {column})"
    return " (the file ends too soon)" if reason.startswith("unexpected end") else ""


def _text(node: Any, key: str) -> str | None:
    """A property of ``node`` as text (decoded by the file's CA, escapes undone), or None without it."""
    if not node.has_property(key):
        return None
    try:
        value = node.get(key)
    except ValueError as exc:
        raise SgfError(f"root: {key}[{node.get_raw(key).decode('utf-8', 'replace')}]: {exc}") from None
    return f"{value:g}" if isinstance(value, float) else str(value).strip()


def load(data: bytes) -> tuple[Record, list[str]]:
    """The game of an SGF file and what of it was not kept (variations, a different komi, ...).

    SgfError names the node and move of the first thing that is not a game magboard plays.  TB and TW on
    the last node of a game that ends by agreeing its dead stones give them (the record's ``dead``), and
    RE is checked against their count."""
    if len(data) > MAX_BYTES:
        raise SgfError(f"longer than {MAX_BYTES // 1024} KiB: not a game record")
    try:
        parsed = sgf_grammar.parse_sgf_game(data)
    except ValueError as exc:
        raise SgfError(f"not SGF: {exc}{_where(data, str(exc))}") from None
    try:
        tree = sgf.Sgf_game.from_coarse_game_tree(parsed)
    except ValueError as exc:  # the root's board size or character set
        raise SgfError(f"root: {exc}") from None
    root = tree.get_root()
    number = _text(root, "GM") or "1"
    size = tree.get_size()
    found = [(g, f) for g, f in kept_games() if str(f.number) == number and f.size == size]
    if not found:
        raise SgfError(f"root: GM[{number}] SZ[{size}] is no game magboard plays (it plays {_names()})")
    game_id, facts = found[0]
    game = registry.make(game_id)
    notes: list[str] = []
    for key, value in facts.fixed:
        given = _text(root, key)
        if given is not None and given.lower() != value.lower():
            notes.append(f"{key}[{given}] differs from {game_id}'s {key}[{value}]: counted by {game_id}'s")
    start = dict(facts.start)
    for key in SETUP:
        if root.has_property(key):
            given_points = tuple(sorted(p.decode("ascii", "replace") for p in root.get_raw_list(key)))
            if given_points != start.get(key):
                raise SgfError(f"root: {key} sets up a position of its own; {game_id} starts from its start")
    players = ["?", "?"]
    for player, colour in enumerate(facts.colours):
        players[player] = _text(root, "P" + colour) or "?"
    extra: dict[str, str] = {}
    date = _text(root, "DT")
    if date:
        extra["date"] = date.split(",")[0]
    pos = game.start()
    moves: list[str] = []
    for number_, node in enumerate(tree.get_main_sequence()):
        where = "root" if number_ == 0 else f"node {number_}"
        if number_ and any(node.has_property(key) for key in SETUP):
            raise SgfError(f"{where}: sets up stones in the middle of the game")
        if node.has_property("B") and node.has_property("W"):
            raise SgfError(f"{where}: holds two moves, a B and a W")
        mover, raw = node.get_raw_move()  # ("b", b"dd"), or (None, None) in a node without a move
        if mover is None:
            continue
        value = raw.decode("ascii", "replace")
        said = f"{mover.upper()}[{value}]"
        player = game.to_move(pos)
        expected = facts.colours[player]
        if mover.upper() != expected:
            side = game.table.side(player)
            raise SgfError(f"{where}, move {len(moves) + 1}: {said}, but {expected} ({side}) moves now")
        try:
            move = facts.move(pos, value)
        except MoveError as exc:
            raise SgfError(f"{where}, move {len(moves) + 1}: {said}: {exc}") from None
        moves.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    if len(root) > 1 or any(len(node) > 1 for node in tree.get_main_sequence()):
        notes.append("variations left out: the main line is kept")
    given_result = _text(root, "RE")
    outcome = game.outcome(pos)
    last = tree.get_last_node()
    agreeing = game.table.dead_proposal(game, pos) is not None
    if agreeing and (last.has_property("TB") or last.has_property("TW")):
        black, white = (
            [p.decode("ascii", "replace") for p in last.get_raw_list(key)] if last.has_property(key) else []
            for key in ("TB", "TW")
        )
        try:
            dead = facts.dead(pos, (black, white))
        except MoveError as exc:
            raise SgfError(f"last node: TB/TW: {exc}") from None
        extra["dead"] = " ".join(sorted(dead))
        outcome, _ = game.table.agreed(game, pos, dead)
    ours = None if outcome is None else facts.result(pos, outcome)
    if given_result and given_result != ours:
        notes.append(f"RE[{given_result}], but by {game_id}'s rules the game " +
                     ("goes on" if ours is None else f"ends {ours}"))  # fmt: skip
    return Record(game_id, (players[0], players[1]), (), moves, extra), notes


def looks_like_sgf(data: bytes) -> bool:
    """Whether a file is SGF rather than a text record: SGF begins with its first game tree, '(;'."""
    return data.lstrip()[:1] == b"("
