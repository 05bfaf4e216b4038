"""From the core's state to the board's intent: which kind, its LED scene, its sentence, its buttons.

Pure: the same state gives the same intent.  The scene and the words are built
from the same steps, so what the LEDs ask and what the sentence says can never
disagree.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from engines.game import Game, M, P
from engines.physical import Thing
from engines.table import Role, Table
from host.hardware.spec import Button
from host.session import words
from host.session.core import IDLE, Agreed, Agreeing, Context, State, passable, remaining_of, taken_off
from host.session.intent import (
    AiMove,
    AiThinking,
    Choose,
    Confirm,
    DeadStones,
    GameOver,
    Intent,
    Lifted,
    Mistake,
    OpponentStopped,
    Restore,
    RestoreReason,
    Step,
    TurnUnderWay,
    YourTurn,
)
from host.session.lights import Blink, Light, Meaning
from host.tracking import plan
from host.tracking.candidates import Candidate, Route
from host.tracking.plan import Do
from host.tracking.tracker import Seen, Verdict

Scene = dict[str, Light]
RESTORE_WORDS = {
    RestoreReason.TAKE_BACK: "Take back: set the board back one turn",
    RestoreReason.NEW_GAME: "New game: set up the start position",
    RestoreReason.AI_THINKING: "Put the board back",
}
SAID_STEPS = 3  # a sentence names this many steps at most, then says how many more
# Beyond this many moves on the way, what is left of each is not worked out: the lights then show only
# where a piece may be put next.
STEPPED = 300


def describe(ctx: Context[P, M], state: State[P, M], verdict: Verdict[Hashable] | None) -> Intent:
    game, pos = ctx.game, state.log.position
    names = game.geometry.names
    buttons = _buttons(ctx, state)
    if state.away is not None:
        return _restore(ctx, state, buttons)
    if isinstance(state.end, Agreeing):
        return _dead_stones(ctx, state, state.end, buttons)
    outcome = game.outcome(pos)
    if outcome is not None:
        ending = game.table.explain(game, pos)
        if isinstance(state.end, Agreed):
            outcome, ending = game.table.agreed(game, pos, frozenset(names[i] for i in state.end.dead))
        winner = "a draw" if outcome.winner is None else f"{words.side_name(game, outcome.winner)} wins"
        said = f" {ending.reason}" if ending.reason else ""
        sentence = f"Game over: {winner}.{said} Press New game to play again."
        scene = {cell: Light(Meaning.RESULT, Blink.SLOW) for cell in ending.cells}
        return GameOver(
            sentence, scene, buttons, winner=outcome.winner, reason=ending.reason, cells=ending.cells
        )
    side = ctx.to_move(state)
    ai = state.opponent or "The AI"
    if ctx.offering(state):
        assert state.stopped is not None
        # Why it stopped is the opponent's notice, beside this sentence.
        offer = f"Confirm to play on against the built-in AI ({words.side_name(game, side)})"
        back = _put_back(ctx, state, f"{ai} has stopped: put the board back, then press {offer}.", buttons)
        if back is not None:
            return back
        sentence = f"{ai} has stopped: press {offer}."
        return OpponentStopped(sentence, {}, buttons, side=side, why=state.stopped)
    if state.thinking:
        back = _put_back(
            ctx, state, f"{ai} is thinking about the position as it was: put the board back.", buttons
        )
        if back is not None:
            return back
        return AiThinking(f"{ai} ({words.side_name(game, side)}) is thinking...", {}, buttons, side=side)
    if state.asking is not None:
        return _choose(ctx, state, buttons)
    if state.pending is not None:
        text = game.format_move(pos, state.pending)
        if state.wary and verdict is not None and verdict.seen is Seen.MISMATCH and state.reading is not None:
            # A mistake while carrying out the AI's move: what to put right to reach the AI's position.
            tracker, candidate = ctx.tracker(state), ctx.expect(state).pending_candidate
            steps = _named(game, tracker.guidance_to(candidate, state.reading, state.evidence, state.now))
            whose = "the AI's" if state.opponent is None else f"{state.opponent}'s"
            return _mistake(ctx, f"That is not {whose} move {text}: put the board right.", steps, buttons)
        left = _named(game, remaining_of(ctx, state, (state.pending,)))
        if left or verdict is None or verdict.seen in (Seen.IN_SYNC, Seen.MISMATCH):
            said = words.steps_words(game, left[:SAID_STEPS]) + _more(left)
            who = words.side_name(game, side)
            sentence = f"{ai} plays {text} for {who}" + (f": {words.clause(said)}" if left else ".")
            return AiMove(
                sentence, _steps_scene(left, Blink.SLOW), buttons, side=side, move=text, remaining=left
            )
    if verdict is None or verdict.seen is Seen.IN_SYNC:
        return _your_turn(ctx, state, side, buttons)
    if verdict.seen is Seen.CONFIRM and verdict.match is not None:
        text = verdict.match.label
        scene = {names[i]: Light(Meaning.CHOOSE, Blink.SLOW) for i in verdict.match.changed}
        sentence = f"Press Confirm to play {text}, or go on with your turn."
        if state.pending is not None and verdict.match.moves == (state.pending,):
            whose = "the AI's" if state.opponent is None else f"{state.opponent}'s"
            sentence = f"Press Confirm once {whose} move {text} is made."  # not the player's turn to go on
        return Confirm(sentence, scene, buttons | {Button.CONFIRM}, move=text)
    if verdict.seen in (Seen.MATCH, Seen.AMBIGUOUS):
        label = verdict.match.label if verdict.match is not None else "your move"
        sentence = f"{_shown(verdict.match)}: hold still a moment."
        return TurnUnderWay(sentence, {}, buttons, side=side, move=label)
    if verdict.seen is Seen.PROGRESS:
        return _progress(ctx, state, verdict, side, buttons)
    if not state.wary and state.shown_for == (state.log.version, state.pending):
        return state.intent  # a hand is still at work: keep what is lit
    steps = _named(game, ctx.repair(state, verdict.steps))
    return _mistake(ctx, "That is not a legal move: put the board right.", steps, buttons)


def _dead_stones(
    ctx: Context[P, M], state: State[P, M], agreeing: Agreeing, buttons: frozenset[Button]
) -> Intent:
    """The stones proposed dead lit until they are off, the count of the board as it stands, and any
    other change (a stone put down) to put right before Confirm counts."""
    game, pos, names = ctx.game, state.log.position, ctx.game.geometry.names
    off, wrong = taken_off(ctx, state)
    lit = agreeing.proposed - off
    scene: Scene = {names[i]: Light(Meaning.REMOVE, Blink.SLOW) for i in lit}
    scene.update({names[i]: Light(Meaning.WRONG, Blink.FAST) for i in wrong})
    wrong_names = frozenset(names[i] for i in wrong)
    off_names = frozenset(names[i] for i in off)
    if wrong:
        cells = words.cell_list(sorted(wrong_names))
        sentence = (
            f"Only stones come off now: put {cells} back as {'it was' if len(wrong) == 1 else 'they were'} "
            "(red), then press Confirm when you agree on the dead stones."
        )
    else:
        _, ending = game.table.agreed(game, pos, off_names)
        if lit:
            opening = "Take off the dead stones (lit); press Confirm when you agree."
        elif off:
            opening = "Press Confirm when you agree."
        else:  # nothing proposed: the players may still see dead stones the estimate does not
            opening = "Take off any stones you agree are dead, then press Confirm."
        sentence = f"{opening} {ending.reason}"
        buttons = buttons | {Button.CONFIRM}
    proposed = frozenset(names[i] for i in agreeing.proposed)
    return DeadStones(sentence, scene, buttons, proposed=proposed, off=off_names, wrong=wrong_names)


def _shown(match: Candidate[Hashable] | None) -> str:
    """What a whole reading shows, to begin a sentence: 'a4-a6', 'Your move', 'The last move taken back'."""
    if match is None:
        return "Your move"
    if match.route is Route.TAKE_BACK:
        return "The last move taken back" if match.back == 1 else f"The last {match.back} moves taken back"
    if match.route is Route.NEW_GAME:
        return "The start position set up again (a new game)"
    return match.label


def _buttons(ctx: Context[P, M], state: State[P, M]) -> frozenset[Button]:
    """The buttons that do something now (Confirm is added where a move waits for it)."""
    out = set()
    if state.log.moves:
        out.add(Button.TAKE_BACK)
    if state.log.moves or state.away is not None:
        out.add(Button.NEW_GAME)
    over = ctx.game.is_over(state.log.position)
    offering = ctx.offering(state)
    idle = state.ai == IDLE and state.away is None and not offering
    if ctx.hints and not over and idle:
        out.add(Button.HINT)
    if state.asking is not None or offering:
        out.add(Button.CONFIRM)
    if passable(ctx, state) is not None:
        out.add(Button.PASS)
    return frozenset(out)


def _your_turn(ctx: Context[P, M], state: State[P, M], side: int, buttons: frozenset[Button]) -> Intent:
    game = ctx.game
    name = words.side_name(game, side)
    scene: Scene = {}
    sentence = f"{name} to move: {words.turn_words(game, state.log.position)}."
    if state.hint:
        hint = _named(game, remaining_of(ctx, state, state.hint[:1]))
        scene = _steps_scene(hint, Blink.SLOW, dim=True)
        text = game.format_move(state.log.position, state.hint[0])
        sentence += f" Hint: {text} (dim lights)."
    return YourTurn(sentence, scene, buttons, side=side)


def _progress(
    ctx: Context[P, M], state: State[P, M], verdict: Verdict[Hashable], side: int, buttons: frozenset[Button]
) -> Intent:
    game = ctx.game
    lifted = _lifted(ctx, state, verdict, side, buttons) if verdict.lifted else None
    if lifted is not None:
        return lifted
    todo = _named(game, verdict.todo)
    if todo:
        label = verdict.choices[0].label if len(verdict.choices) == 1 else "your turn"
        said = words.steps_words(game, todo[:SAID_STEPS]) + _more(todo)
        return TurnUnderWay(
            f"To finish {label}: {words.clause(said)}",
            _steps_scene(todo, Blink.SLOW),
            buttons,
            side=side,
            move=label,
            remaining=todo,
        )
    return _finish(ctx, state, verdict, side, buttons)


def _lifted(
    ctx: Context[P, M], state: State[P, M], verdict: Verdict[Hashable], side: int, buttons: frozenset[Button]
) -> Intent | None:
    """Objects in the hand: where they may go, or that no move takes them.

    What the move on the way takes off the board (a captured knight) is not
    asked to go anywhere; where that is all the hand holds, None: the rest of
    the move says what is next.
    """
    game, names = ctx.game, ctx.game.geometry.names
    reading = state.reading
    assert reading is not None
    tracker, expect = ctx.tracker(state), ctx.expect(state)
    held = {c: tracker.held(c, reading[c]) or expect.stacks[c][-1:] for c in verdict.lifted}
    going = [
        cell
        for cell, stack in held.items()
        if verdict.lifted[cell]
        or not any(cell in c.after and stack and stack[-1] not in c.after[cell] for c in verdict.choices)
    ]
    if not going:
        return None
    origins = tuple(names[c] for c in verdict.lifted)
    targets = frozenset(names[t] for ts in verdict.lifted.values() for t in ts)
    # The origin is lit only when no legal move takes the piece: then putting it back is what is asked.
    scene: Scene = {cell: Light(Meaning.PUT) for cell in targets or (names[c] for c in going)}
    what = game.table.named(held[going[0]], definite=True) if len(going) == 1 else "the pieces you hold"
    place, where = game.table.cell.one, words.cell_list(names[c] for c in going)
    if targets:
        sentence = f"Put {what} from {where} on a green {place}{_taking_first(ctx, state, targets, side)}."
    else:
        sentence = f"No legal move takes {what} from {where}: put it back."
    return Lifted(words.capital(sentence), scene, buttons, side=side, origins=origins, targets=targets)


def _taking_first(ctx: Context[P, M], state: State[P, M], targets: Iterable[str], side: int) -> str:
    """Where a move lands on the other side's piece (a King of Rings capture), that the piece comes off
    first: put on top, what the hand holds would stand on it.  '' where no target holds one."""
    game, table = ctx.game, ctx.game.table
    stacks = game.cells(state.log.position)
    moved = {game.geometry.names[i] for i in state.differing}  # a piece already off is not asked again
    tops = {cell: stacks[cell][-1] for cell in targets if stacks[cell] and cell not in moved}
    taken = sorted(c for c, t in tops.items() if table.kind(t.kind).role is Role.OWNED and t.colour != side)
    if not taken:
        return ""
    named = {table.named((tops[cell],), definite=True) for cell in taken}
    what = named.pop() if len(named) == 1 else "the piece"
    return f"; to take {what} on {words.either(taken)}, lift it off first"


def _finish(
    ctx: Context[P, M], state: State[P, M], verdict: Verdict[Hashable], side: int, buttons: frozenset[Button]
) -> Intent:
    """Several moves are on the way and no piece is in a hand: what any of them does next, lit and said.

    The next step of each is worked out from the legal moves themselves, so a
    light never points where none of them goes and never hides one of them
    (the square a queen just left may take the shot).
    """
    game = ctx.game
    names = game.geometry.names
    table = game.table
    place = table.cell.one
    assert state.reading is not None
    if len(verdict.choices) > STEPPED:
        scene: Scene = {names[c]: Light(Meaning.PUT) for c in verdict.next}
        return TurnUnderWay(f"Finish your turn: put a piece on a green {place}.", scene, buttons, side=side)
    tracker = ctx.tracker(state)
    firsts = {
        step
        for c in verdict.choices
        if (step := tracker.next_step(c, state.reading, state.evidence, state.now)) is not None
    }
    scene = {}
    moving = [s for s in firsts if s.do is Do.MOVE]
    putting = [s for s in firsts if s.do is Do.PUT]
    for s in moving:
        assert s.source is not None and s.target is not None
        scene[names[s.source]] = Light(Meaning.LIFT)
    for s in (*moving, *putting):
        assert s.target is not None
        scene[names[s.target]] = Light(Meaning.PUT)
    clauses = []
    if moving:
        carried = _alike(table, [s.things for s in moving])
        clauses.append(f"move {carried} from a yellow {place} to a green one")
    if putting:
        clauses.append(_puts(table, [(names[s.target], s.things) for s in putting if s.target is not None]))
    # Nothing to light (every move on the way reads as made but for an object to come off): no instruction
    # would be true of all of them.
    said = f": {words.either(clauses)}" if clauses else ", or put back what you changed"
    return TurnUnderWay(f"Finish your turn{said}.", scene, buttons, side=side)


NAMED_CELLS = 4  # a put to so many cells at most is said with its cells


def _puts(table: Table, puts: Sequence[tuple[str, tuple[Thing, ...]]]) -> str:
    """What goes where, where different objects may be put: 'put a Black stone on g1, or a White stone on
    any other green square' (a Desdemona capture wants the mover's colour, a shot the other's).  The
    largest group is said by its lights alone, the others by their cells."""
    place = table.cell.one
    where: dict[Thing, set[str]] = {}
    for cell, things in puts:
        if things:
            where.setdefault(things[-1], set()).add(cell)
    if len(where) <= 1:
        put = _alike(table, [things for _, things in puts], definite=False)
        return f"put {put} on a green {place}"
    groups = sorted(where.items(), key=lambda group: (len(group[1]), str(group[0])))
    *named, (last, rest) = groups
    others = set().union(*(cells for _, cells in named))
    said = [
        f"{table.one(thing, definite=False)} on {words.either(words.cells_sorted(cells))}"
        for thing, cells in named
    ]
    if len(rest) <= NAMED_CELLS:
        tail = f"on {words.either(words.cells_sorted(rest))}"
    elif others.isdisjoint(rest):
        tail = f"on any other green {place}"
    else:
        tail = f"on a green {place}"
    said.append(f"{table.one(last, definite=False)} {tail}")
    return "put " + ", ".join(said[:-1]) + ", or " + said[-1]


def _alike(table: Table, stacks: Sequence[tuple[Thing, ...]], definite: bool = True) -> str:
    """The objects of several steps as one phrase: 'one of your Orange pieces', 'a White or a Black stone'."""
    tops = sorted({stack[-1] for stack in stacks if stack}, key=str)
    if len(stacks) > 1 and len(tops) == 1 and definite:
        noun = table.kind(tops[0].kind).noun.many
        colour = f" {table.side(tops[0].colour)}" if tops[0].colour is not None else ""
        return f"one of the{colour} {noun}"
    if len(stacks) == 1:
        return table.named(stacks[0], definite=definite)
    return words.either([table.named((t,), definite=False) for t in tops]) or "a piece"


def _choose(ctx: Context[P, M], state: State[P, M], buttons: frozenset[Button]) -> Intent:
    """The choice shown: where carried objects would have gone (put), what else it changes (choose)."""
    asking = state.asking
    assert asking is not None
    names = ctx.game.geometry.names
    choice = asking.shown
    scene: Scene = {}
    landed = {s.target for s in choice.steps if s.do is Do.MOVE}
    for cell in choice.changed:
        scene[names[cell]] = Light(Meaning.PUT) if cell in landed else Light(Meaning.CHOOSE, Blink.SLOW)
    labels = tuple(c.label for c in asking.choices)
    place = ctx.game.table.cell
    if all(c.changed == choice.changed for c in asking.choices):
        # The same cells either way: say what differs, since a tap cannot pick by cell: any tap shows the
        # next choice (core._watch_taps), which is named.
        each = [f"{c.label} leaves {_result_words(ctx, c, asking.choices)}" for c in asking.choices]
        following = asking.choices[(asking.highlight + 1) % len(asking.choices)].label
        sentence = (
            f"Which move did you make? The sensors cannot tell {' from '.join(labels)}: {'; '.join(each)}. "
            f"Press Confirm for {choice.label} (shown), or tap any lit {place.one} (lift what is on it and "
            f"put it back) to show {following} instead."
        )
    else:
        sentence = (
            f"Which move did you make? The sensors cannot tell {words.either(labels)} apart. "
            f"Tap {_picks(ctx, asking.choices)} (lift what is on it and put it back, or touch it), or press "
            f"Confirm for {choice.label} (shown)."
        )
    return Choose(sentence, scene, buttons, choices=labels, shown=choice.label)


def _picks(ctx: Context[P, M], choices: Sequence[Candidate[Hashable]]) -> str:
    """Which cell a tap picks which choice by: one that choice changes and no other does, as
    core._watch_taps takes it ('g3 for g3:d3 or c3 for c3:d3'); a choice without one is left out."""
    names = ctx.game.geometry.names
    everywhere = frozenset.intersection(*(c.changed for c in choices))
    said = []
    for choice in choices:
        others = set().union(*(c.changed - everywhere for c in choices if c is not choice))
        own = words.cells_sorted(names[i] for i in choice.changed - everywhere - others)
        if own:
            said.append(f"{words.either(own)} for {choice.label}")
    return words.either(said) if said else f"a {ctx.game.table.cell.one} only your move changed"


def _result_words(
    ctx: Context[P, M], choice: Candidate[Hashable], others: Sequence[Candidate[Hashable]]
) -> str:
    """Where the choice's objects end up, on the cells where the other choices differ: 'the queen on d3'."""
    names, table = ctx.game.geometry.names, ctx.game.table
    differs = sorted(
        cell for cell in choice.changed if any(o.after.get(cell) != choice.after[cell] for o in others)
    )
    said = [
        f"{table.named(choice.after[cell][-1:], definite=True)} on {names[cell]}"
        if choice.after[cell]
        else f"{names[cell]} empty"
        for cell in differs
    ]
    return words.cell_list(said) if len(said) < 2 else ", ".join(said[:-1]) + " and " + said[-1]


def _restore(ctx: Context[P, M], state: State[P, M], buttons: frozenset[Button]) -> Intent:
    away = state.away
    assert away is not None
    game = ctx.game
    tracker = ctx.tracker(state)
    expect = ctx.expect(state)
    reading = state.reading if state.reading is not None else expect.reading
    now = tracker.restore(away.objects, reading, state.evidence, state.now)
    waiting = _named(game, _waiting(ctx, state, now))
    left = _named(game, now) + waiting
    said = words.steps_words(game, left[:SAID_STEPS]) + _more(left)
    sentence = f"{RESTORE_WORDS[away.reason]}. {said}" if left else f"{RESTORE_WORDS[away.reason]}: done."
    scene = _steps_scene(left[: len(left) - len(waiting)], Blink.SLOW)
    for step in waiting:  # what waits for a cell to be cleared: its piece lit dimly, not yet its place
        if step.source is not None:
            scene.setdefault(step.source, Light(Meaning.LIFT, Blink.SLOW, dim=True))
    return Restore(
        sentence, scene, buttons, reason=away.reason, step=left[0] if left else None, later=left[1:]
    )


def _waiting(
    ctx: Context[P, M], state: State[P, M], now: Sequence[plan.Step[int]]
) -> tuple[plan.Step[int], ...]:
    """The steps of setting the board back that wait for a cell the steps asked for ``now`` clear first (a
    White amazon back to d1, where Black's arrow still stands): the tracker holds them back so that no
    green light asks for a cell that is not free, but the player is told they are there, and how many."""
    away = state.away
    assert away is not None
    expect = ctx.expect(state)
    clearing = {s.source for s in now if s.do in (Do.MOVE, Do.REMOVE)}
    target = {i: expect.stacks[i] for i in away.objects}
    whole = plan.plan(away.objects, target, expect.reversible, ctx.game.geometry.distance)
    return tuple(s for s in whole if s.do in (Do.MOVE, Do.PUT) and s.target in clearing and s not in now)


def _put_back(
    ctx: Context[P, M], state: State[P, M], opening: str, buttons: frozenset[Button]
) -> Intent | None:
    """While no hand may move (the AI thinks, or a stopped engine's place is offered), a board that surely
    differs from the committed position is a mistake: what to put back, after ``opening``; else None."""
    if not (state.differing and state.reading is not None and state.wary):
        return None
    return _mistake(ctx, opening, _named(ctx.game, ctx.tracker(state).guidance(state.reading)), buttons)


def _mistake(ctx: Context[P, M], opening: str, steps: Sequence[Step], buttons: frozenset[Button]) -> Intent:
    """One pair at a time: the first step blinks fast, the cells of the others are dim red."""
    if not steps:
        return Mistake(opening, {}, buttons)
    first, later = steps[0], tuple(steps[1:])
    scene = _steps_scene([first], Blink.FAST)
    for step in later:
        for cell in step.cells:
            scene.setdefault(cell, Light(Meaning.WRONG, Blink.STEADY, dim=True))
    said = words.steps_words(ctx.game, [first])
    if later:
        said = f"First, {words.clause(said)}"
    sentence = f"{opening} {said}" + _more(later, "to fix")
    return Mistake(sentence, scene, buttons, step=first, later=later)


def _more(steps: Sequence[Step], what: str = "after that") -> str:
    extra = len(steps) - SAID_STEPS if what == "after that" else len(steps)
    if extra <= 0:
        return ""
    return f" ({extra} more {'step' if extra == 1 else 'steps'} {what}.)"


def _steps_scene(steps: Sequence[Step], blink: Blink, dim: bool = False) -> Scene:
    """Lights for instructions: lift and put for a carried object, one colour for each other kind.  A
    cell's light is its first step's: a capture's square asks for the captured piece off before the
    capturer on (a knight taken by a knight), and turns green once it is off."""
    scene: Scene = {}
    for step in steps:
        if step.do is Do.MOVE:
            assert step.source is not None and step.target is not None
            scene.setdefault(step.source, Light(Meaning.LIFT, blink, dim))
            scene.setdefault(step.target, Light(Meaning.PUT, blink, dim))
        elif step.do is Do.PUT and step.target is not None:
            scene.setdefault(step.target, Light(Meaning.PUT, blink, dim))
        elif step.do is Do.REMOVE and step.source is not None:
            scene.setdefault(step.source, Light(Meaning.REMOVE, blink, dim))
        elif step.target is not None:
            scene.setdefault(step.target, Light(Meaning.TURN, blink, dim))
    return scene


def _named(game: Game[P, M], steps: Iterable[plan.Step[int]]) -> tuple[Step, ...]:
    """Tracker steps (cell indices) as the intent's steps (cell names), in the order a turn is made: what
    others stand on (a Space Tiles tile) is put down first, once what must come off is off."""
    names, ground = game.geometry.names, game.table.ground
    steps = list(steps)
    clearing = next((i for i, s in enumerate(steps) if s.do is not Do.REMOVE), len(steps))
    first = [s for s in steps[clearing:] if s.do is Do.PUT and s.things and s.things[-1].kind in ground]
    steps = steps[:clearing] + first + [s for s in steps[clearing:] if s not in first]
    return tuple(
        Step(
            s.do,
            names[s.source] if s.source is not None else None,
            names[s.target] if s.target is not None else None,
            s.things,
        )
        for s in steps
    )
