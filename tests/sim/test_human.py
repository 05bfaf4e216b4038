"""The generated hands are what they claim (host/sim/human.py), and the corpus runs (benchmarks/hands.py).

The checks are physical, worked out from the actions alone: a plan carried out on the board ends in
the position after the move (the sensors read exactly that; only objects without a magnet may be
left behind, and only by the kind that forgets them); a knock takes an object off for 30-150 ms and
puts the same one back; a slide crosses empty cells only, each nearer its end.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.corpus import (
    Corpus,
    FastBoard,
    Outcome,
    Tally,
    fewest_actions,
    journal_text,
    replay,
    script_text,
)
from engines import registry
from engines.physical import Thing
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import SensorModel
from host.sim.human import KINDS, Habits, Hand, MovePlan, act, carried_out
from host.sim.script import parse

ROOT = Path(__file__).resolve().parents[2]
BOARDS = board_ids()


def positions(game: Any, rng: random.Random, count: int) -> list[Any]:
    """Positions of a random game a few plies apart (the start among them)."""
    pos, out = game.start(), []
    while len(out) < count and not game.is_over(pos):
        out.append(pos)
        for _ in range(rng.randint(1, 4)):
            if game.is_over(pos):
                break
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    return out


def plans(board_id: str, kind: str, seed: int, count: int) -> Iterator[tuple[dict[str, Any], MovePlan]]:
    """The board before and the plan of a random move with only ``kind`` of hand, at positions of a game."""
    board = load_board(board_id)
    game = registry.make(board.game)
    rng = random.Random(seed)
    hand = Hand(game, board, Habits().only(kind), random.Random(seed + 1))
    for pos in positions(game, rng, count):
        now = dict(game.cells(pos))
        yield now, hand.plan(now, pos, rng.choice(game.legal_moves(pos)))


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "mistake"])
@pytest.mark.parametrize("board_id", BOARDS)
def test_every_kind_ends_in_the_position_after_the_move(board_id: str, kind: str) -> None:
    board = load_board(board_id)
    game = registry.make(board.game)
    model = SensorModel(board)
    rng = random.Random(7)
    hand = Hand(game, board, Habits().only(kind), random.Random(8))
    hidden = {k for k, spec in board.objects.items() if spec.magnet == "none"}
    for pos in positions(game, rng, 8):
        move = rng.choice(game.legal_moves(pos))
        now = dict(game.cells(pos))
        plan = hand.plan(now, pos, move)
        assert set(plan.kinds) <= {kind}
        end = carried_out(now, plan.move)
        after = game.cells(game.play(pos, move))
        assert all(model.reading_of(tuple(end[n])) == model.reading_of(after[n]) for n in after)
        same = all(game.table.same_stack(end[n], after[n]) for n in after)
        if kind == "invisible_left" and plan.kinds:
            assert not same  # something was forgotten ...
            seen = [[t for t in stacks[n] if t.kind not in hidden] for n in after for stacks in (end, after)]
            assert seen[0::2] == seen[1::2]  # ... and only what the sensors cannot see
        elif game.changed_cells(pos, move):
            assert same


@pytest.mark.parametrize("board_id", ["kingofrings-reed", "desdemona-hall", "go7-reed"])
def test_a_knock_puts_the_same_object_back_within_30_to_150_ms(board_id: str) -> None:
    seen = 0
    for now, plan in plans(board_id, "knock", 3, 10):
        steps = plan.move
        for i in range(len(steps) - 3):
            zero, lift, wait, place = steps[i : i + 4]
            if (zero.verb, zero.ms, lift.verb, wait.verb, place.verb) == ("step", 0, "lift", "wait", "place"):
                assert lift.cells == place.cells and 30 <= wait.ms <= 150
                before = carried_out(now, steps[:i])
                assert place.thing == before[lift.cells[0]][-1]
                assert carried_out(now, steps[: i + 4]) == before
                seen += 1
    assert seen >= 5


def test_a_slide_crosses_only_empty_cells_each_nearer_its_end() -> None:
    geo = registry.make("desdemona").geometry
    slides = 0
    for now, plan in plans("desdemona-hall", "slide", 5, 12):
        for action in plan.move:
            if action.verb == "slide":
                cells = [geo.cell(c) for c in action.cells]
                goal = cells[-1]
                assert all(not now[c] for c in action.cells[1:-1])
                assert all(
                    geo.distance(a, goal) > geo.distance(b, goal) for a, b in itertools.pairwise(cells)
                )
                slides += 1
    assert slides >= 5


def test_an_illegal_move_reads_as_no_legal_end() -> None:
    board = load_board("kingofrings-reed")
    game = registry.make(board.game)
    model = SensorModel(board)
    hand = Hand(game, board, Habits(), random.Random(1))
    pos = game.start()
    now = dict(game.cells(pos))
    mistake = hand.illegal(now, pos, model.reading_of)
    end = carried_out(now, mistake)
    reading = [model.reading_of(tuple(end[n])) for n in game.geometry.names]
    for move in game.legal_moves(pos):
        after = game.cells(game.play(pos, move))
        assert reading != [model.reading_of(after[n]) for n in game.geometry.names]


def test_the_board_reports_a_change_only_once_it_outlasts_the_debounce() -> None:
    """A 3 ms flicker never reaches the session; a 60 ms knock does, the debounce time after it."""

    class Recorder:
        def __init__(self) -> None:
            self.readings: list[tuple[int, tuple[Any, ...]]] = []
            self.game = registry.make("go7")
            self.position = self.game.start()

        def on_reading(self, t: int, values: list[Any]) -> None:
            self.readings.append((t, tuple(values)))

        def on_tick(self, t: int) -> None:
            pass

    board = load_board("go7-reed")
    session: Any = Recorder()
    fast = FastBoard(session, SensorModel(board), board)
    stone = registry.make("go7").table.kinds()
    thing = act("place", "d4", thing=Thing(min(stone), 0))
    fast.run([act("step", ms=3), thing, act("lift", "d4"), act("wait", ms=100)])
    assert len(session.readings) == 1  # the first, as the board was set up
    fast.run([act("step", ms=60), thing, act("lift", "d4"), act("wait", ms=100)])
    times = [t for t, _ in session.readings[1:]]
    assert len(times) == 2 and times[0] == 103 + 3 + fast.latency and times[1] - times[0] == 60


def test_fewest_actions_count_a_carry_a_put_and_a_take_once_each() -> None:
    """Desdemona (RULES.md): a queen move alone, then one with a stone shot onto the square it left."""
    game = registry.make("desdemona")
    start = game.start()
    first = game.play_texts(["a4-a6"], start)
    second = game.play_texts(["a7-a10/a7"], first)
    cells = [dict(game.cells(p)) for p in (start, first, second)]
    assert fewest_actions(game, cells[0], cells[1], frozenset()) == 1  # the queen carried
    assert fewest_actions(game, cells[1], cells[2], frozenset()) == 2  # carried, and a stone put
    assert fewest_actions(game, cells[2], cells[1], frozenset()) == 2  # carried back, the stone taken off
    assert fewest_actions(game, cells[0], cells[2], frozenset()) == 3
    assert fewest_actions(game, cells[0], cells[0], frozenset()) == 0


def test_a_failing_move_is_written_as_a_script_that_parses_with_its_journal() -> None:
    game = registry.make("kingofrings")
    board = load_board("kingofrings-reed")
    actions = [act("step", ms=150), act("lift", "b2"), act("place", "b3")]
    actions += [act("wait", ms=300), act("wait", ms=200)]
    outcome = Outcome("stalled", "b2-b3", [], ["knock"], actions, ["b2-b3", "b6-b5"], None, False)
    text = script_text(outcome, game, board, "x")
    lines = parse(text, set(game.geometry.names))
    assert [a.verb for a in lines][-4:] == ["step", "lift", "place", "wait"] and lines[-1].ms == 500
    assert journal_text(outcome, game) == "game: kingofrings\n---\nmove b2-b3\nmove b6-b5\n"


def test_hands_py_prints_one_line_per_build() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "hands.py"), "--game", "flipfour", "--moves", "6"],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["board"] for line in lines] == ["flipfour-hall", "flipfour-reed"]
    for line in lines:
        counts = [line[k] for k in ("intended", "asked", "wrong", "stalled", "unknowable")]
        assert line["moves"] == 6 and sum(counts) == 6 and line["extra_steps"] >= 0


@pytest.mark.parametrize("board_id", ["kingofrings-reed", "desdemona-hall", "go7-reed"])
def test_every_move_replays_from_its_script_as_it_was_played(board_id: str, monkeypatch: Any) -> None:
    """A move's script, started from its position, makes the session do what it did in the corpus."""
    board = load_board(board_id)
    game = registry.make(board.game)
    outcomes: list[Outcome] = []
    add = Tally.add
    monkeypatch.setattr(Tally, "add", lambda self, outcome: (outcomes.append(outcome), add(self, outcome))[1])
    corpus = Corpus(game, board, seed=3)
    corpus.run(25)
    assert len(outcomes) == 25
    for outcome in outcomes:
        actions = parse(script_text(outcome, game, board, "x"), set(game.geometry.names))
        ai_move = outcome.intended if outcome.ai_move else None
        events = replay(game, board, outcome.history, actions, outcome.side, ai_move)
        took = [str(e.data["move"]) if e.kind.value == "commit" else f"take back {e.data['plies']}"
                for e in events if e.kind.value in ("commit", "takeback")]  # fmt: skip
        assert took[: len(outcome.committed)] == outcome.committed, (outcome.intended, outcome.kinds)


def test_a_capture_finished_late_takes_the_stone_off_after_the_reply() -> None:
    """Go (RULES.md): Black b1 captures White's a1 (Black holds a2); it stays until White's d4 is down."""
    board = load_board("go7-reed")
    game = registry.make("go7")
    hand = Hand(game, board, Habits().only("late_capture"), random.Random(2))
    pos = game.play_texts(["a2", "a1"])
    now = dict(game.cells(pos))
    plan = hand.plan(now, pos, game.parse_move(pos, "b1"))
    assert sorted(a.verb for a in plan.move if a.verb != "step") == ["place", "remove"]
    steps, owed = hand.defer_captures(plan.move, now)
    assert owed == {"a1"} and [a.verb for a in steps if a.verb != "step"] == ["place"]
    after = game.play_texts(["b1"], pos)
    left = {n: tuple(s) for n, s in carried_out(now, steps).items()}
    reply = hand.plan(left, after, game.parse_move(after, "d4")).move
    late = hand.at_last(reply, owed)
    done = [(a.verb, a.cells) for a in late if a.verb not in ("step", "wait")]
    assert done[0] == ("place", ("d4",)) and done[1][1] == ("a1",) and done[1][0] in ("lift", "remove")
    assert carried_out(left, late) == {
        n: list(s) for n, s in game.cells(game.play_texts(["d4"], after)).items()
    }


def test_a_move_could_grow_only_where_a_longer_turn_goes_on_from_it() -> None:
    """Flip Four (RULES.md): a turn places 1 or 2 pieces (the first turn one), so after the first turn
    placing c3 could grow into placing c3 and another; Go's first stones cannot grow into anything."""
    game = registry.make("flipfour")
    corpus = Corpus(game, load_board("flipfour-reed"), seed=0)
    first = game.start()
    assert not any(corpus.could_grow(first, m) for m in game.legal_moves(first))
    second = game.play(first, game.legal_moves(first)[0])
    singles = [m for m in game.legal_moves(second) if "," not in game.format_move(second, m)]
    pairs = [m for m in game.legal_moves(second) if "," in game.format_move(second, m)]
    assert singles and all(corpus.could_grow(second, m) for m in singles)
    assert not any(corpus.could_grow(second, m) for m in pairs)
    go = registry.make("go7")
    corpus = Corpus(go, load_board("go7-hall"), seed=0)
    assert not any(corpus.could_grow(go.start(), m) for m in go.legal_moves(go.start()))


def test_a_piece_put_on_a_wrong_cell_rests_there_no_longer_than_a_hand_takes_to_see_it() -> None:
    """A script's ``step`` is the time of every action after it: the wrong cell's place is followed by
    80-220 ms before the piece is lifted off again."""
    seen = 0
    for now, plan in plans("desdemona-reed", "wrong_cell", 9, 10):
        if not plan.kinds:
            continue
        steps = plan.move
        lifts = [i for i, a in enumerate(steps) if a.verb == "lift" and not now[a.cells[0]]]
        assert len(lifts) == 1  # the piece lifted off the wrong cell, empty before the move
        i = lifts[0]
        place = max(k for k in range(i) if steps[k].verb == "place" and steps[k].cells == steps[i].cells)
        rest = [a.ms for a in steps[:place] if a.verb == "step"][-1]
        assert 80 <= rest <= 220 and all(a.verb == "step" for a in steps[place + 1 : i])
        seen += 1
    assert seen >= 5


def test_hands_py_replays_a_written_script_and_says_what_the_board_did(tmp_path: Path) -> None:
    game = registry.make("go7")
    board = load_board("go7-reed")
    actions = [act("step", ms=150), act("place", "d4", thing=Thing("stone", 0)), act("wait", ms=600)]
    outcome = Outcome("stalled", "d4", [], [], actions, [], None, False, ["d4"])
    (tmp_path / "x.script").write_text(script_text(outcome, game, board, "x"))
    (tmp_path / "x.journal").write_text(journal_text(outcome, game))
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "hands.py"), "--game", "go7", "--board", "go7-reed",
         "--replay", str(tmp_path / "x.script")],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["move"] for e in events if e["event"] == "commit"] == ["d4"]
    assert all(e["event"] != "scene" for e in events)
