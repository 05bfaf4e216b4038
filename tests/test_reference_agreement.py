"""`magboard rules` and `magboard perft` agree with implementations of RULES.md written independently.

The references in tests/reference/ were written from RULES.md alone, without reading engines/. Random games
played by a reference are replayed by `magboard rules GAME --each`, and every position is compared; perft
counts are compared from the start and from positions reached by random play.

More games by hand: MAGBOARD_XCHECK_GAMES=50 (games in every set of GAME_SETS instead of the default few) and
MAGBOARD_XCHECK_SEED=7 (a different set of games). Options are passed before the game id
(`magboard rules --option X --each GAME MOVE...`), which argparse accepts however the subcommand is declared.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from .reference import ref_desdemona, ref_flipfour, ref_kingofrings, ref_spacetiles
from .reference.common import perft, positions, random_game, summary

ROOT = Path(__file__).resolve().parent.parent

REFERENCES: dict[str, ModuleType] = {
    "kingofrings": ref_kingofrings,
    "desdemona": ref_desdemona,
    "spacetiles": ref_spacetiles,
    "flipfour": ref_flipfour,
}

# (game, options, prolong, games by default, longest game in plies). Uniform random play ends most games
# early by the commonest rule; "prolong" play avoids ending the game, which reaches Flip Four's repetition
# rule and long Space Tiles games (see common.random_game). Space Tiles turns can number thousands of legal
# moves, so it gets fewer games; King of Rings also runs with each option (and both).
GAME_SETS: list[tuple[str, frozenset[str], bool, int, int]] = [
    ("kingofrings", frozenset(), False, 4, 300),
    ("kingofrings", frozenset({"empty_steps"}), False, 2, 300),
    ("kingofrings", frozenset({"blue_parity"}), False, 2, 300),
    ("kingofrings", frozenset({"empty_steps", "blue_parity"}), False, 1, 300),
    ("desdemona", frozenset(), False, 2, 300),
    ("spacetiles", frozenset(), False, 3, 300),
    ("spacetiles", frozenset(), True, 1, 300),
    ("flipfour", frozenset(), False, 4, 300),
    ("flipfour", frozenset(), True, 2, 300),
]

# A King of Rings game (found by random play with the reference) that ends by two passes in a draw: the
# silver ring on c5 is out of reach, 25 - 25.
KINGOFRINGS_DRAW = [
    "e1-f1", "d6-e5", "b2-b3", "b6-c6", "g1-g2", "e5-f4", "a1-b1", "c6-d5", "d2-e3", "g7-g6", "f2-g3",
    "g6-f7", "e3-e2", "f7-d7", "b1-a2", "f6-f5", "a2-c4", "e7-e6", "e2-g4", "d5xb3", "*c3", "a7-b7",
    "c4xc7", "f5-g5", "c3xb3", "*a5", "b3-f3", "g5xg3", "g4-d1", "f4-d4", "*c2", "d4-a4", "c2-d3",
    "a5-b4", "d3-b5", "b7-a6", "g2xg3", "*e4", "f3-a3", "pass", "pass",
]  # fmt: skip

# A Space Tiles game (found by random play with the reference) where player 0, with 1 piece in hand, has no
# legal turn: every cell without a tile touches 3 or more tiles, so each needs 2 or more pieces: player 0
# loses.
SPACETILES_NO_LEGAL_TURN = [
    "f1:e3", "c4:e4", "b5:e3-f3", "d1:e4-f4", "a5:f3-f2", "a4:f4-f3", "b3:f2-e3", "g4:f3-f4", "c1:e3-e2",
    "h4:f4-e4", "b1:e2-e3", "a2:e4-f3", "i4:e3-e2", "i5:f3-e4", "c3:d1,e3,i5", "e1:a5,d2,f4",
    "b4:a4,b5,c3,g4,i4", "i3:d4", "i2:i4-i3", "h2:e4-f3", "a3:a2,i2", "b2:c1,e1,h2,i4", "g3:a3,f1,h4",
    "h1:c1-b1", "g2:b2,c4,f2,h1", "g5:g3", "a1:g5", "e5:b3",
]  # fmt: skip

# The depths the issues name, from the start.
START_PERFT_DEPTH = {"kingofrings": 3, "desdemona": 2, "spacetiles": 2, "flipfour": 3}

# Mid-game perft(2) positions: the first position at or after each of these plies of one random game that has
# at most MIDGAME_MAX_MOVES legal moves (Desdemona's middle game has ~2000 moves, each with ~2000 replies).
# Flip Four plays a prolonged game (see GAME_SETS), so its positions carry a history that the repetition rule
# reads.
MIDGAME_PLIES: dict[str, tuple[bool, tuple[int, ...]]] = {
    "kingofrings": (False, (8, 20, 32)),
    "desdemona": (False, (40, 70)),
    "spacetiles": (False, (3, 6, 9)),
    "flipfour": (True, (10, 60, 150)),
}
MIDGAME_MAX_MOVES = 600

GAMES_OVERRIDE = os.environ.get("MAGBOARD_XCHECK_GAMES")
BASE_SEED = int(os.environ.get("MAGBOARD_XCHECK_SEED", "20240601"))


def magboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "host.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=600
    )


@cache
def listed_games() -> tuple[str, ...]:
    done = magboard("games")
    assert done.returncode == 0, f"`magboard games` failed: {done.stderr[-2000:]}"
    return tuple(line.strip() for line in done.stdout.splitlines() if line.strip())


def require(game: str) -> None:
    """Every game with a reference is installed: one that is not is a failure, never a skip."""
    assert game in listed_games(), f"`magboard games` does not list {game}: {listed_games()}"


def option_args(options: frozenset[str]) -> list[str]:
    return [arg for option in sorted(options) for arg in ("--option", option)]


def game_cases() -> list[Any]:
    cases = []
    for game, options, prolong, default_count, max_plies in GAME_SETS:
        count = int(GAMES_OVERRIDE) if GAMES_OVERRIDE else default_count
        for index in range(count):
            play = "prolonged" if prolong else "uniform"
            label = f"{game}-{'+'.join(sorted(options)) or 'plain'}-{play}-{index}"
            cases.append(pytest.param(game, options, prolong, index, max_plies, id=label))
    return cases


def game_seed(game: str, options: frozenset[str], prolong: bool, index: int) -> int:
    """A different seed for every game of every set, stable from run to run."""
    return hash_text(f"{BASE_SEED}/{game}/{'+'.join(sorted(options))}/{prolong}/{index}")


def hash_text(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def mismatch_message(
    game: str, options: frozenset[str], moves: list[str], ply: int, field: str, expected: Any, actual: Any
) -> str:
    lines = [
        f"{game} {sorted(options)}: `{field}` differs after ply {ply}",
        f"moves so far: {' '.join(moves[:ply]) or '(start)'}",
    ]
    if field == "legal":
        reference, engine = set(expected), set(actual)
        lines.append(f"only in the reference: {sorted(reference - engine)}")
        lines.append(f"only in magboard: {sorted(engine - reference)}")
        if reference == engine:
            lines.append(
                f"same moves, different order: reference {expected[:10]}..., magboard {actual[:10]}..."
            )
    else:
        lines.append(f"reference: {expected!r}  magboard: {actual!r}")
    return "\n".join(lines)


def assert_agrees(game: str, options: frozenset[str], moves: list[str]) -> None:
    """`magboard rules --each` along ``moves`` reports what the reference says, position by position."""
    ref = REFERENCES[game]
    done = magboard("rules", *option_args(options), "--each", game, *moves)
    assert done.returncode == 0, f"magboard rules rejected the game {' '.join(moves)}:\n{done.stderr}"
    lines = done.stdout.splitlines()
    assert len(lines) == len(moves) + 1, f"expected {len(moves) + 1} lines, got {len(lines)}"
    for ply, (line, state) in enumerate(zip(lines, positions(ref, options, moves), strict=True)):
        reported = json.loads(line)
        assert reported["game"] == game
        for field, value in summary(ref, state).items():
            actual = reported[field]
            if field == "score" and actual is not None:
                actual = list(actual)
            assert actual == value, mismatch_message(game, options, moves, ply, field, value, actual)


@pytest.mark.parametrize(("game", "options", "prolong", "index", "max_plies"), game_cases())
def test_random_game_agrees_move_for_move(
    game: str, options: frozenset[str], prolong: bool, index: int, max_plies: int
) -> None:
    require(game)
    rng = random.Random(game_seed(game, options, prolong, index))
    assert_agrees(game, options, random_game(REFERENCES[game], options, rng, max_plies, prolong))


def test_kingofrings_draw_by_two_passes_agrees() -> None:
    require("kingofrings")
    final = list(positions(ref_kingofrings, frozenset(), KINGOFRINGS_DRAW))[-1]
    assert ref_kingofrings.result(final) == (None, [25, 25])
    assert_agrees("kingofrings", frozenset(), KINGOFRINGS_DRAW)


def test_spacetiles_game_lost_for_want_of_a_legal_turn_agrees() -> None:
    require("spacetiles")
    final = list(positions(ref_spacetiles, frozenset(), SPACETILES_NO_LEGAL_TURN))[-1]
    assert final.winner is None and final.hands[0] == 1 and final.supply == 3  # no run decided it
    assert ref_spacetiles.result(final) == (1, None)
    assert_agrees("spacetiles", frozenset(), SPACETILES_NO_LEGAL_TURN)


def test_flipfour_game_where_repetition_rules_out_moves_agrees() -> None:
    require("flipfour")
    moves = random_game(ref_flipfour, frozenset(), random.Random(0), 300, prolong=True)
    ruled_out = [
        ply
        for ply, state in enumerate(positions(ref_flipfour, frozenset(), moves))
        if ref_flipfour.result(state) is None
        and len(list(ref_flipfour.candidate_turns(state))) > len(list(ref_flipfour.turns(state)))
    ]
    assert ruled_out, "this game no longer reaches the repetition rule: pick another seed"
    assert_agrees("flipfour", frozenset(), moves)


def engine_perft(game: str, depth: int, moves: list[str], options: frozenset[str] = frozenset()) -> int:
    done = magboard("perft", *option_args(options), game, str(depth), *moves)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


@pytest.mark.parametrize("game", sorted(START_PERFT_DEPTH))
def test_perft_from_the_start_agrees(game: str) -> None:
    require(game)
    ref = REFERENCES[game]
    depth = START_PERFT_DEPTH[game]
    assert engine_perft(game, depth, []) == perft(ref, ref.initial(), depth)


@pytest.mark.parametrize("options", [frozenset({"empty_steps"}), frozenset({"blue_parity"})], ids=min)
def test_kingofrings_perft_with_options_agrees(options: frozenset[str]) -> None:
    require("kingofrings")
    assert engine_perft("kingofrings", 3, [], options) == perft(
        ref_kingofrings, ref_kingofrings.initial(options), 3
    )


def midgame_prefixes(game: str) -> list[list[str]]:
    """Move lists leading to a few positions of one random game, each with a cheap perft(2)."""
    ref = REFERENCES[game]
    prolong, plies = MIDGAME_PLIES[game]
    moves = random_game(ref, frozenset(), random.Random(BASE_SEED + 7), 300, prolong)
    states = list(positions(ref, frozenset(), moves))
    prefixes = []
    for start_ply in plies:
        for ply in range(start_ply, len(moves)):
            if 0 < len(ref.legal(states[ply])) <= MIDGAME_MAX_MOVES:
                if moves[:ply] not in prefixes:
                    prefixes.append(moves[:ply])
                break
    return prefixes


@pytest.mark.parametrize("game", sorted(MIDGAME_PLIES))
def test_perft_from_the_middle_game_agrees(game: str) -> None:
    require(game)
    ref = REFERENCES[game]
    prefixes = midgame_prefixes(game)
    assert prefixes, f"no position of the random {game} game qualified"
    for prefix in prefixes:
        expected = perft(ref, list(positions(ref, frozenset(), prefix))[-1], 2)
        actual = engine_perft(game, 2, prefix)
        assert actual == expected, (
            f"{game} perft 2 after {' '.join(prefix)}: reference {expected}, magboard {actual}"
        )
