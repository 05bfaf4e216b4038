"""Every sentence a game's board can say, found by playing it: the words as a table a person reads once.

A sentence is put together from the game's table (nouns, names, the turn in
words, why a game ended) by host/session/words.py and describe.py, so a wrong
article, or words that get a rule wrong, show only in the situation that says
them.  The phrasebook drives a session on each board file of a game through
scenarios that reach every kind of intent - positions of seeded random games,
the hands of host/session/handboard.py, the board's own sensor model - and
keeps one row for each way of saying something: the same sentence with other
cells, counts or players is the same row, with the sentence as it is said aloud
(host/words/spoken.py).  ``magboard words`` writes the rows to
docs/words/<game>.md and a test regenerates them, so a change of wording is
reviewed as a diff of sentences.

Nothing here knows a game: the scenarios come from the legal moves, their hand
steps and the table, and what a game's board never says, the game says itself
(``Table.never``).
"""

from __future__ import annotations

import random
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic

from engines import registry
from engines.game import Game, M, P
from engines.physical import Thing
from engines.table import Role, Table
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import BoardSpec, Button
from host.peers.gtp.opponent import gave_up
from host.session.ai_worker import OpponentGone
from host.session.handboard import HandBoard
from host.session.intent import Intent, Kind, Mistake, Restore
from host.session.session import Session, Settings
from host.tracking.plan import Do, Step, plan
from host.words.spoken import spoken

SEED = 25
GAMES = 200  # seeded random games searched, at most, for each way a game ends
PROBED = 2  # the random games whose positions the scenarios start from
SETTLE = 400  # ms: longer than the session's settle time
SAMPLE = 120  # legal moves looked at in one position, at most (a seeded sample)
SCANNED = 20  # positions of a random game looked at, at most, for a shape of move not met yet
LOOKED_AT = 12  # moves a long random game tries, at most, for one that does not end the game
ENGINE = "GNU Go 3.8"  # an engine as it names itself, for the sentences of a game an engine can play
DIRECTORY = Path("docs") / "words"
COMMAND = "magboard words --write"

Line = list[tuple[P, str]]  # a random game: each position with the move played from it ('' at the end)
Said = Iterator[tuple[str, Intent]]  # what a scenario meets: each situation with the intent it gave
Plan = tuple[Step[int], ...]  # what hands do to make a move (cells by index)


@dataclass(frozen=True)
class Row:
    """One way of saying something: in which situation, on which boards, and the sentence first met."""

    kind: Kind
    situation: str
    boards: tuple[str, ...]
    sentence: str


@dataclass(frozen=True)
class Phrasebook(Generic[P, M]):
    game: Game[P, M]
    rows: tuple[Row, ...]
    unreached: dict[str, str]  # what no scenario met (an intent kind, an ending), and why

    @property
    def path(self) -> Path:
        return DIRECTORY / f"{self.game.id}.md"

    def render(self) -> str:
        """The rows as a Markdown table, by kind (intent.py's order), situation and sentence."""
        order = list(Kind)
        lines = [
            f"# What the board says: {self.game.name}",
            "",
            "Every sentence the board says, one row for each way of saying it (cells, counts and players",
            "are those first met), and as the voice and the page's Speak switch say it (spoken). Generated",
            f"by `{COMMAND}` (host/words/phrasebook.py); tests/words/test_phrasebook.py checks that it is",
            "up to date.",
            "",
            "| intent | situation | board | sentence | spoken |",
            "| --- | --- | --- | --- | --- |",
        ]
        for row in sorted(self.rows, key=lambda r: (order.index(r.kind), r.situation, r.sentence)):
            said = spoken(self.game, row.sentence)
            cells = (row.kind.value, row.situation, ", ".join(row.boards), row.sentence, said)
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        if self.unreached:
            lines += ["", "## Never said", ""]
            lines += [f"- {what}: {why}" for what, why in sorted(self.unreached.items())]
        return "\n".join(lines) + "\n"


def phrasebook(game_id: str) -> Phrasebook[Any, Any]:
    """Every sentence of a game on each of its board files; the same every time (seeded).

    The game's positions and moves are of its own types, which only the registry knows."""
    game = registry.make(game_id)
    games, moves = RandomGames(game), Moves(game)
    mask = masker(game)
    found: dict[tuple[Kind, str, str], tuple[str, list[str]]] = {}
    for spec in (load_board(board) for board in board_ids()):
        if spec.game != game_id:
            continue
        for situation, intent in Scenarios(game, spec, games, moves).said():
            key = (intent.kind, situation, mask(intent.sentence))
            boards = found.setdefault(key, (intent.sentence, []))[1]
            if spec.id not in boards:
                boards.append(spec.id)
    rows = tuple(
        Row(k, situation, tuple(boards), said) for (k, situation, _), (said, boards) in found.items()
    )
    return Phrasebook(game, rows, unreached(game, rows))


def unreached(game: Game[P, M], rows: Sequence[Row]) -> dict[str, str]:
    """The intent kinds and endings that no scenario met, with the game's reason (or that it gave none)."""
    never = never_said(game)
    kinds = {row.kind for row in rows}
    endings = {row.situation for row in rows if row.kind is Kind.GAME_OVER}
    out = {}
    for kind in Kind:
        if kind not in kinds:
            out[f"intent {kind.value}"] = never.get(kind.value, "NO REASON GIVEN (Table.never)")
    for name in game.table.endings:
        if ended(name) not in endings:
            out[f"ending {name!r}"] = never.get(name, f"NOT FOUND in {GAMES} random games, NO REASON GIVEN")
    return out


def never_said(game: Game[P, M]) -> dict[str, str]:
    """What a game's board never says, and why: what the game says (``Table.never``), and that no engine
    stops where only the built-in AI can play."""
    never = dict(game.table.never)
    if type(game.table).dead_proposal is Table.dead_proposal:  # the game's rules end it: nothing agreed
        never.setdefault(
            Kind.DEAD_STONES.value, "the rules' end is the end: no stones are agreed dead at the table"
        )
    if not game.gtp:
        never.setdefault(
            Kind.OPPONENT_STOPPED.value,
            f"only the built-in AI plays {game.name} (it speaks no GTP), and it never stops",
        )
    return never


def masker(game: Game[P, M]) -> Callable[[str], str]:
    """A sentence without its cells, players and counts of two or more: what makes it the same wording.

    A list of cells or moves is one blank however long; the article before a
    player's name stays ('a Violet', 'an Orange'), and so does a count of one
    ('its ring' and 'its 2 rings' are two wordings).
    """
    cell = re.compile("|".join(sorted(map(re.escape, game.geometry.names), key=len, reverse=True)))
    token = r"[#*][^\s;.()]*"
    listed = re.compile(rf"{token}(?:(?:, | or | and ){token})+")
    side = re.compile(r"\b(" + "|".join(map(re.escape, game.table.sides)) + r")\b")
    number = re.compile(r"\b([2-9]|\d\d+)\b")
    return lambda text: number.sub("N", side.sub("P", listed.sub("#…", cell.sub("#", text))))


def ended(name: str) -> str:
    return f"the game ends: {name}"


class RandomGames(Generic[P, M]):
    """Seeded games of uniformly random moves, played as they are asked for, the same every time."""

    def __init__(self, game: Game[P, M]) -> None:
        self.game = game
        self.rng = random.Random(SEED)
        self.played: list[Line[P]] = []

    def __getitem__(self, number: int) -> Line[P]:
        """Game ``number``: the odd ones play on where they can (a move that ends the game only when every
        move of a sample does), to reach the endings a game rarely comes to."""
        while len(self.played) <= number:
            game, rng, pos, line = self.game, self.rng, self.game.start(), []
            long = len(self.played) % 2 == 1
            while not game.is_over(pos):
                moves = game.legal_moves(pos)
                move = rng.choice(moves)
                if long:
                    sample = rng.sample(moves, min(len(moves), LOOKED_AT))
                    move = next((m for m in sample if not game.is_over(game.play(pos, m))), move)
                line.append((pos, game.format_move(pos, move)))
                pos = game.play(pos, move)
            self.played.append([*line, (pos, "")])
        return self.played[number]


class Moves(Generic[P, M]):
    """A seeded sample of each position's legal moves, with what hands do to make each (any board)."""

    def __init__(self, game: Game[P, M]) -> None:
        self.game = game
        self.rng = random.Random(SEED)
        self.reversible = game.table.kinds(Role.REVERSIBLE)
        self._known: dict[int, dict[str, tuple[M, Plan]]] = {}

    def __call__(self, pos: P) -> dict[str, tuple[M, Plan]]:
        key = self.game.key(pos)
        if key not in self._known:
            game = self.game
            by_text = {game.format_move(pos, m): m for m in game.legal_moves(pos)}
            texts = sorted(by_text)
            if len(texts) > SAMPLE:
                texts = sorted(self.rng.sample(texts, SAMPLE))
            names = game.geometry.names
            cells = game.cells(pos)
            out = {}
            for text in texts:
                after = game.changes(pos, by_text[text])
                before = {i: tuple(cells[names[i]]) for i in after}
                out[text] = (by_text[text], plan(before, after, self.reversible, game.geometry.distance))
            self._known[key] = out
        return self._known[key]


class Playing:
    """The AI as a scenario wants it: it plays the move it is given, or waits until it is let go."""

    def __init__(self, text: str = "", held: bool = False) -> None:
        self.text = text
        self.go = threading.Event()
        if not held:
            self.go.set()

    def start(self, game: Game[P, M]) -> None:
        """Nothing to get ready: a scenario gives its moves."""

    def choose(self, game: Game[P, M], pos: P) -> M:
        self.go.wait()
        texts = game.legal_texts(pos)
        return game.parse_move(pos, self.text if self.text in texts else texts[0])

    def hint(self, game: Game[P, M], pos: P) -> list[M]:
        return [game.parse_move(pos, game.legal_texts(pos)[0])]


class Engine(Playing):
    """A GTP engine as a scenario wants it: named, and stopped (dead) until the built-in AI takes over."""

    def __init__(self, stopped: bool) -> None:
        super().__init__()
        self.name = ENGINE
        self._dead = stopped
        self.trouble: str | None = None  # said by the board's notice, which a scenario leaves out

    @property
    def stopped(self) -> str | None:
        return ENGINE if self._dead else None

    def take_over(self) -> None:
        self._dead = False

    def refuse(self, why: str) -> None:
        self._dead = True

    def close(self) -> None:
        """No process to stop."""

    def choose(self, game: Game[P, M], pos: P) -> M:
        if self._dead:
            raise OpponentGone(gave_up(ENGINE, "'gnugo --mode gtp' died (killed by signal 9)"))
        return super().choose(game, pos)


class Scenarios(Generic[P, M]):
    """What a person meets on one board, as (situation, intent): each scenario on a fresh session."""

    def __init__(
        self, game: Game[P, M], spec: BoardSpec, games: RandomGames[P, M], moves: Moves[P, M]
    ) -> None:
        self.game = game
        self.table = game.table
        self.names = game.geometry.names
        self.model = SensorModel(spec)
        self.games = games
        self.moves = moves

    def said(self) -> Said:
        yield from self.turns()
        for situation, intent in self.hands():
            # A move made, or a mistake put right, ends in a turn said above.
            if intent.kind not in (Kind.YOUR_TURN, Kind.GAME_OVER):
                yield situation, intent
        yield from self.endings()

    def hands(self) -> Said:
        for history, moves in self.positions():
            yield from self.lifted(history, moves)
            yield from self.under_way(history, moves)
            yield from self.alike(history, moves)
            yield from self.mistakes(history, moves)
            yield from self.ai_moves(history, moves)
        yield from self.thinking()
        yield from self.restoring()
        if self.game.gtp:
            yield from self.engine()

    # --- sessions and positions ------------------------------------------------------------------
    def session(
        self,
        history: Sequence[P],
        moves: Sequence[str],
        ai: Playing | None = None,
        ai_side: int | None = None,
        background: bool = False,
    ) -> tuple[Session[P, M], HandBoard[P, M]]:
        """A session resumed at ``history``; with ``ai`` the AI plays ``ai_side`` (or the side to move)."""
        if ai is not None and ai_side is None:
            ai_side = self.game.to_move(history[-1])
        session = Session(
            self.game,
            self.model.reading_of,
            Reading.EMPTY,
            opponent=ai or Playing(),
            settings=Settings(ai_side=ai_side, think_in_background=background),
            history=history,
            moves=moves,
        )
        return session, HandBoard(session, self.model)

    def positions(self) -> Iterator[tuple[list[P], list[str]]]:
        """The first plies and a few later positions of the first random game (none finished), and of the
        first random games the first where a shape of move can be made that no position before could (a
        drop, a capture)."""
        shapes: set[str] = set()
        for number in range(PROBED):
            line = self.games[number]
            last = len(line) - 2
            chosen = {0, 1, 2, last // 3, 2 * last // 3, last} if number == 0 else set()
            for ply in sorted(chosen.union(range(0, last + 1, max(1, last // SCANNED)))):
                if ply in chosen or not set(self.shapes(line[ply][0])) <= shapes:
                    shapes |= set(self.shapes(line[ply][0]))
                    yield self.upto(line, ply)

    @staticmethod
    def upto(line: Line[P], ply: int) -> tuple[list[P], list[str]]:
        """The history and the moves of a random game up to ``ply``."""
        return [p for p, _ in line[: ply + 1]], [t for _, t in line[:ply]]

    def shapes(self, pos: P) -> dict[str, tuple[str, Plan]]:
        """One move of each shape (what its steps do to what), by the shape in words."""
        out: dict[str, tuple[str, Plan]] = {}
        for text, (_, steps) in self.moves(pos).items():
            out.setdefault(self.steps_said(pos, steps), (text, steps))
        return out

    # --- situations in words -----------------------------------------------------------------------
    def whose(self, pos: P, thing: Thing, many: bool = False) -> str:
        """'own queen', 'opposing stones', 'tile': an object as the player to move sees it."""
        noun = self.table.kind(thing.kind).noun
        word = noun.many if many else noun.one
        if thing.colour is None:
            return word
        return f"{'own' if thing.colour == self.game.to_move(pos) else 'opposing'} {word}"

    def steps_said(self, pos: P, steps: Sequence[Step[int]]) -> str:
        """Steps as a situation, in no order: 'move own queen, put opposing stone', 'turn 2 or more'.

        Alike steps are said once, with their plural; which side a turn shows,
        the sentence says.
        """
        said: Counter[tuple[str, Thing | None, int]] = Counter()
        for step in steps:
            thing = None if step.do is Do.TURN else step.things[-1]
            said[(step.do.value, thing, min(len(step.things) - 1, 2))] += 1
        parts = []
        for (verb, thing, riders), count in said.items():
            if thing is None:
                parts.append("turn one" if count == 1 else "turn 2 or more")
                continue
            carried = ("", " with its rider", " with its riders")[riders]
            verb = {"remove": "take off", "put": "put", "move": "move"}[verb]
            parts.append(f"{verb} {self.whose(pos, thing, count > 1)}{carried}")
        return ", ".join(sorted(parts))

    # --- your turn -------------------------------------------------------------------------------
    def turns(self) -> Said:
        """The start, the second player's first turn, later turns by what the player holds and by what the
        turn's words offer (a capture, a drop), and a hint."""
        seen: set[tuple[str, str]] = set()
        mask = masker(self.game)
        for number in range(PROBED):
            line = self.games[number]
            for ply, (pos, _) in enumerate(line[:-1]):
                held = sum(self.game.hands(pos)[self.game.to_move(pos)].values())
                when = ("the start", "the second player's first turn")[ply] if ply < 2 else "a later turn"
                situation = f"{when}, {('nothing', 'one object', 'more')[min(held, 2)]} in hand"
                if (situation, mask(self.table.turn_words(self.game, pos))) in seen:
                    continue
                seen.add((situation, mask(self.table.turn_words(self.game, pos))))
                session, board = self.session(*self.upto(line, ply))
                yield situation, session.intent
                if ply >= 2 and ("hint", "") not in seen:
                    seen.add(("hint", ""))
                    board.press("hint")
                    yield "a later turn, after Hint", session.intent
                session.close()

    # --- objects in the hand ---------------------------------------------------------------------
    def units(self, pos: P) -> dict[str, tuple[str, int]]:
        """For each kind of thing a hand lifts (a top object with what rides under it): a cell, a count."""
        riding = self.table.kinds_riding
        names = self.names
        moved = {
            names[s.source]
            for _, p in self.moves(pos).values()
            for s in p
            if s.do is Do.MOVE and s.source is not None
        }
        out: dict[str, tuple[str, int]] = {}
        for cell, stack in self.game.cells(pos).items():
            if not stack:
                continue
            count = 1
            if stack[-1].kind not in riding:
                while count < len(stack) and stack[-1 - count].kind in riding:
                    count += 1
            carried = ("", " with its rider", " with its riders")[min(count - 1, 2)]
            can = "a move carries it" if cell in moved else "no move carries it"
            out.setdefault(f"lift {self.whose(pos, stack[-1])}{carried}; {can}", (cell, count))
        return out

    def lifted(self, history: list[P], moves: list[str]) -> Said:
        units = self.units(history[-1])
        for situation, (cell, count) in units.items():
            session, board = self.session(history, moves)
            board.lift(cell, count)
            if session.intent.kind is not Kind.LIFTED:
                board.wait(SETTLE)  # no move explains it: said once the board has settled
            yield situation, session.intent
            session.close()
        movable = [unit for situation, unit in units.items() if situation.endswith("a move carries it")]
        if len(movable) >= 2:
            session, board = self.session(history, moves)
            for cell, count in movable[:2]:
                board.lift(cell, count)
            yield "lift two objects that a move carries", session.intent
            session.close()

    # --- moves on the way ------------------------------------------------------------------------
    def under_way(self, history: list[P], moves: list[str]) -> Said:
        """Each shape of move made by hand: part done (each step first), whole, settled."""
        pos = history[-1]
        seen: set[str] = set()
        for shape, (_, steps) in self.shapes(pos).items():
            for done in beginnings(steps):
                left = [s for s in steps if s not in done]
                situation = f"done: {self.steps_said(pos, done)}; left: {self.steps_said(pos, left)}"
                if left and situation in seen:
                    continue
                seen.add(situation)
                session, board = self.session(history, moves)
                board.carry_out(done)
                if not left:
                    yield f"{shape}: all done, not yet settled", session.intent
                board.wait(SETTLE)
                yield (situation if left else f"{shape}: all done, settled"), session.intent
                session.close()

    def alike(self, history: list[P], moves: list[str]) -> Said:
        """Moves whose readings on this board are the same, made by hand: the board must ask which."""
        pos = history[-1]
        game, names = self.game, self.names
        by_reading: dict[tuple[Reading, ...], list[Plan]] = {}
        for move, steps in self.moves(pos).values():
            after = game.cells(game.play(pos, move))
            by_reading.setdefault(tuple(self.model.reading_of(tuple(after[n])) for n in names), []).append(
                steps
            )
        seen = set()
        for plans in by_reading.values():
            if len(plans) < 2:
                continue
            cells = {frozenset(c for s in steps for c in s.cells) for steps in plans}
            where = "on the same cells" if len(cells) == 1 else "on other cells"
            situation = f"two moves the sensors read alike, {where}"
            if situation not in seen:
                seen.add(situation)
                session, board = self.session(history, moves)
                board.carry_out(plans[0])
                board.wait(SETTLE)
                yield situation, session.intent
                session.close()

    # --- mistakes --------------------------------------------------------------------------------
    def mistakes(self, history: list[P], moves: list[str]) -> Said:
        """An object moved or put where no move takes one (one, and two), and one with the wrong side up."""
        pos, names = history[-1], self.names
        plans = [steps for _, steps in self.moves(pos).values()]
        targets = {names[s.target] for steps in plans for s in steps if s.target is not None}
        wrong = [c for c, stack in self.game.cells(pos).items() if not stack and c not in targets]
        sources = [
            names[s.source] for steps in plans for s in steps if s.do is Do.MOVE and s.source is not None
        ]
        if sources and wrong:
            session, board = self.session(history, moves)
            board.move(sources[0], wrong[0])
            board.wait(SETTLE)
            yield "own object moved where no move takes it", session.intent
            session.close()
        side = self.game.to_move(pos)
        things = [Thing(k.kind, None if k.role is Role.NEUTRAL else side) for k in self.table.objects]
        for thing, count in [(t, 1) for t in things] + [(things[0], 2)]:
            if len(wrong) >= count:
                session, board = self.session(history, moves)
                for cell in wrong[:count]:
                    board.place(cell, thing)
                board.wait(SETTLE)
                what = f"{('one', 'two')[count - 1]} {self.whose(pos, thing, count > 1)}"
                yield f"{what} put where no move puts one", session.intent
                session.close()
        reversible = self.table.kinds(Role.REVERSIBLE)
        flipped = next(((s, f) for s in plans if (f := wrong_side(reversible, s)) is not None), None)
        if flipped is not None:
            session, board = self.session(history, moves)
            board.carry_out(flipped[1])
            board.wait(SETTLE)
            yield f"{self.steps_said(pos, flipped[0])}, the wrong side up", session.intent
            session.close()

    # --- the AI ----------------------------------------------------------------------------------
    def ai_moves(self, history: list[P], moves: list[str]) -> Said:
        """Each shape of AI move: shown, part made, put on a wrong cell, put with the wrong side up."""
        pos = history[-1]
        empty = [self.game.geometry.index[c] for c, stack in self.game.cells(pos).items() if not stack]
        reversible = self.table.kinds(Role.REVERSIBLE)
        seen: set[str] = set()
        for shape, (text, steps) in self.shapes(pos).items():
            session, board = self.session(history, moves, Playing(text))
            yield f"the AI's move: {shape}", session.intent
            session.close()
            for done in beginnings(steps)[: len(steps) - 1]:
                left = [s for s in steps if s not in done]
                situation = (
                    f"the AI's move, done: {self.steps_said(pos, done)}; left: {self.steps_said(pos, left)}"
                )
                if situation in seen:
                    continue
                seen.add(situation)
                session, board = self.session(history, moves, Playing(text))
                board.carry_out(done)
                board.wait(SETTLE)
                yield situation, session.intent
                session.close()
            first = next((s for s in steps if s.do in (Do.MOVE, Do.PUT)), None)
            wrong = [c for c in empty if c not in {s.target for s in steps}]
            if first is not None and wrong:
                session, board = self.session(history, moves, Playing(text))
                board.carry_out([Step(first.do, first.source, wrong[0], first.things)])
                board.wait(SETTLE)
                yield f"the AI's move ({shape}), its first object on a wrong cell", session.intent
                session.close()
            flipped = wrong_side(reversible, steps)
            if flipped is not None:
                session, board = self.session(history, moves, Playing(text))
                board.carry_out(flipped)
                board.wait(SETTLE)
                yield f"the AI's move ({shape}), the wrong side up", session.intent
                session.close()

    def thinking(self) -> Said:
        """The AI thinking (it waits until let go), and the board changed meanwhile."""
        ai = Playing(held=True)
        session, board = self.session(*self.upto(self.games[0], 2), ai, background=True)
        try:
            yield "the AI is thinking", session.intent
            occupied = [c for c, stack in board.stacks.items() if stack]
            if occupied:
                board.lift(occupied[0])
            else:
                board.place(self.names[0], self.table.things()[0])
            board.wait(SETTLE)
            yield "the AI is thinking, and the board was changed", session.intent
        finally:
            ai.go.set()
            session.close()

    def engine(self) -> Said:
        """A GTP engine on the AI's side: its move; then stopped, with the board changed, and taken over."""
        history, moves = self.upto(self.games[0], 2)
        session, board = self.session(history, moves, Engine(stopped=False))
        yield "an engine's move", session.intent
        session.close()
        session, board = self.session(history, moves, Engine(stopped=True))
        try:
            yield "the engine stopped", session.intent
            empty = [c for c, stack in board.stacks.items() if not stack]  # not a take-back by hand
            board.place(empty[0], self.table.things()[0])
            board.wait(SETTLE)
            yield "the engine stopped, and the board was changed", session.intent
        finally:
            session.close()

    # --- putting the board back ------------------------------------------------------------------
    def restoring(self) -> Said:
        """Take back (one move, and the AI's with the player's), New game; and each after a first step."""
        line = self.games[0]
        for situation, button, ply, ai in (
            ("take back one move", "take_back", 1, False),
            ("take back the AI's move and the player's", "take_back", 4, True),
            ("new game", "new_game", (len(line) - 1) // 2, False),
        ):
            history, moves = self.upto(line, ply)
            side = 1 - self.game.to_move(history[-1])
            session, board = self.session(history, moves, Playing() if ai else None, side if ai else None)
            board.press(button)
            yield situation, session.intent
            intent = session.intent
            step = intent.step if isinstance(intent, Mistake | Restore) else None
            if step is not None:
                board.carry_out([step])
                board.wait(SETTLE)
                yield f"{situation}, a first step done", session.intent
            session.close()

    # --- the end ---------------------------------------------------------------------------------
    def endings(self) -> Said:
        """The end of the first random game to end each way, and with each winner."""
        # The most particular first: 'a run of exactly 5 pieces' before 'a run of {length} {mover} pieces'.
        by_words = sorted(self.table.endings.items(), key=lambda item: -len(re.sub(r"\{\w+\}", "", item[1])))
        patterns = {name: pattern(template) for name, template in by_words}
        seen: set[tuple[str, int | None]] = set()
        for number in range(GAMES):
            if {name for name, _ in seen} >= set(patterns) and number >= PROBED:
                return
            line = self.games[number]
            pos = line[-1][0]
            reason = self.table.explain(self.game, pos).reason
            name = next((n for n, p in patterns.items() if p.match(reason)), "a reason Table.endings lacks")
            outcome = self.game.outcome(pos)
            assert outcome is not None
            if (name, outcome.winner) not in seen:
                seen.add((name, outcome.winner))
                session, _ = self.session(*self.upto(line, len(line) - 1))
                if session.intent.kind is Kind.DEAD_STONES:  # the players agree on the dead stones first
                    yield f"{ended(name)}, the dead stones to agree", session.intent
                    session.on_button(session.now_ms, Button.CONFIRM)
                yield ended(name), session.intent
                session.close()


def beginnings(steps: Plan) -> list[Plan]:
    """What a hand may have done of a move so far: each beginning of its planned order, and each step alone
    that a hand can do first (not a put where a piece still stands that the move carries away)."""
    out = [steps[:n] for n in range(1, len(steps) + 1)]
    left = {s.source for s in steps if s.do is Do.MOVE}
    out += [(step,) for step in steps[1:] if step.do is not Do.PUT or step.target not in left]
    return out


def wrong_side(reversible: frozenset[str], steps: Sequence[Step[int]]) -> Plan | None:
    """The steps with the first two-sided object they put showing its other side (None if none)."""
    for i, step in enumerate(steps):
        thing = step.things[-1]
        if step.do is Do.PUT and thing.kind in reversible and thing.colour is not None:
            other = Step(Do.PUT, None, step.target, (Thing(thing.kind, 1 - thing.colour),))
            return (*steps[:i], other, *steps[i + 1 :])
    return None


def pattern(template: str) -> re.Pattern[str]:
    """What a template of ``Table.endings`` says, whatever fills its fields."""
    return re.compile(".+".join(map(re.escape, re.split(r"\{\w+\}", template))) + "$")
