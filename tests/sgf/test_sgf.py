"""Go 7x7 and the Amazons as SGF (engines/sgf.py): written as SGF FF[4] says (red-bean.com/sgf: go.html
for GM[1], amazons.html for GM[18]), read back by sgfmill's own board (an independent Go board: its own
captures) and by our reader, and bad files refused with where they went wrong."""

from __future__ import annotations

import random

import pytest
from sgfmill import boards
from sgfmill import sgf as sgfmill

from engines import registry
from engines.game import Game
from engines.records import Record
from engines.sgf import SgfError, dump, load, sgf_facts

CORPUS = 100


def random_game(game: Game, seed: int) -> tuple[list[str], object]:
    rng = random.Random(seed)
    pos = game.start()
    texts = []
    while not game.is_over(pos):
        move = rng.choice(game.legal_moves(pos))
        texts.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    return texts, pos


def test_points_are_columns_from_the_left_and_rows_from_the_top() -> None:
    # go.html: "the first letter designates the column (left to right), the second the row (top to
    # bottom)"; on 7x7 our a1 (bottom left) is "ag", g7 (top right) "ga", the centre d4 "dd".
    record = Record("go7", ("Ann", "Bob"), (), ["a1", "g7", "d4", "pass", "pass"])
    tree = sgfmill.Sgf_game.from_bytes(dump(record))
    values = [node.get_raw_move() for node in tree.get_main_sequence()[1:]]
    assert values == [("b", b"ag"), ("w", b"ga"), ("b", b"dd"), ("w", b""), ("b", b"")]
    root = tree.get_root()
    assert (root.get("GM"), root.get("SZ"), root.get("KM"), root.get("RU")) == (1, 7, 7.5, "Chinese")
    assert (root.get("PB"), root.get("PW")) == ("Ann", "Bob")
    # Two passes end the game: Black has a1 and d4, White g7; the rest touches both colours. 2 - 1 - 7.5.
    assert root.get("RE") == "W+6.5"
    assert not root.has_property("DT")  # the record says no date


def test_an_unfinished_game_has_no_result_and_its_first_day_is_its_date() -> None:
    root = sgfmill.Sgf_game.from_bytes(dump(Record("go7", moves=["d4"]))).get_root()
    assert not root.has_property("RE") and (root.get("PB"), root.get("PW")) == ("?", "?")
    record, notes = load(b"(;GM[1]SZ[7]KM[7.5]RU[chinese]DT[2026-12-06,07];B[dd])")
    assert (record.extra, notes) == ({"date": "2026-12-06"}, [])  # rules named in small letters are ours


def test_the_sgf_pages_own_amazons_example_reads_as_our_turns() -> None:
    # amazons.html: "Example: ;B[djddgd];W[addgad];B[gjehea]", from the default start, B first.
    data = b"(;FF[4]GM[18]SZ[10];B[djddgd];W[addgad];B[gjehea])"
    record, notes = load(data)
    assert (record.game, record.moves, notes) == ("amazons", ["d1-d7/g7", "a7-d4/a7", "g1-e3/e10"], [])


def test_the_amazons_start_is_the_sgf_default_setup() -> None:
    # amazons.html: the default start is AB[dj][gj][ag][jg]AW[da][ga][ad][jd]; SGF's B moves first.
    root = sgfmill.Sgf_game.from_bytes(dump(Record("amazons", ("Ann", "Bob")))).get_root()
    assert sorted(root.get_raw_list("AB")) == sorted([b"dj", b"gj", b"ag", b"jg"])
    assert sorted(root.get_raw_list("AW")) == sorted([b"da", b"ga", b"ad", b"jd"])
    assert (root.get("GM"), root.get("SZ"), root.get("PB"), root.get("PW")) == (18, 10, "Ann", "Bob")


@pytest.mark.parametrize("seed", range(CORPUS))
def test_random_go7_games_read_back_by_sgfmill_and_by_us(seed: int) -> None:
    game = registry.make("go7")
    texts, final = random_game(game, seed)
    data = dump(Record("go7", ("Ann", "Bob"), (), texts, {"date": "2026-12-06 21:00:00"}))
    tree = sgfmill.Sgf_game.from_bytes(data)
    board = boards.Board(7)
    colours = "bw"
    for ply, node in enumerate(tree.get_main_sequence()[1:]):
        colour, point = node.get_move()
        assert colour == colours[ply % 2]
        text = texts[ply]
        if point is None:
            assert text == "pass"
            continue
        row, col = point  # sgfmill: row 0 is the bottom row, as our rank 1
        assert text == f"{'abcdefg'[col]}{row + 1}"
        board.play(row, col, colour)
    for rank in range(7):
        for file in range(7):
            bit = 1 << (rank * 7 + file)
            ours = "b" if final.black & bit else "w" if final.white & bit else None
            assert board.get(rank, file) == ours, (seed, rank, file)
    outcome = game.outcome(final)
    assert tree.get_winner() == (None if outcome.winner is None else colours[outcome.winner])
    assert tree.get_root().get("DT") == "2026-12-06"
    record, notes = load(data)
    assert (record.moves, record.players, record.extra, notes) == (
        texts,
        ("Ann", "Bob"),
        {"date": "2026-12-06"},
        [],
    )


@pytest.mark.parametrize("seed", range(CORPUS))
def test_random_amazons_games_read_back(seed: int) -> None:
    game = registry.make("amazons")
    texts, final = random_game(game, seed)
    data = dump(Record("amazons", ("Ann", "Bob"), (), texts))
    tree = sgfmill.Sgf_game.from_bytes(data)
    outcome = game.outcome(final)
    assert tree.get_root().get("RE") == "BW"[outcome.winner] + "+"  # SGF's B is our player 0
    # Each turn is three points run together, from the move's own squares.
    for node, text in zip(tree.get_main_sequence()[1:], texts, strict=True):
        squares = text.replace("/", "-").split("-")
        value = node.get_raw_move()[1].decode()
        assert [value[i : i + 2] for i in (0, 2, 4)] == [
            s[0] + "abcdefghij"[10 - int(s[1:])] for s in squares
        ]
    record, notes = load(data)
    assert (record.game, record.moves, record.players, notes) == ("amazons", texts, ("Ann", "Bob"), [])


def test_names_with_brackets_and_other_scripts_survive() -> None:
    record = Record("go7", ("Ann ] \\ [x]", "白"), (), ["d4"])
    assert load(dump(record))[0].players == record.players


def test_passes_as_ff3_wrote_them_are_read() -> None:
    record, _ = load(b"(;GM[1]SZ[7];B[tt];W[dd];B[])")
    assert record.moves == ["pass", "d4", "pass"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"(;GM[1]SZ[7]\n;B[dd];W[dd])", "node 2, move 2: W[dd]: not legal here: d4 is not empty"),
        (b"(;GM[1]SZ[9];B[dd])", "root: GM[1] SZ[9] is no game magboard plays (it plays amazons"),
        (b"(;GM[1]SZ[7]\n;B[dd];W[de\n", "not SGF: unexpected end of SGF data (line 2, column 9)"),
        (b"(;GM[1]SZ[7];B[dd]", "not SGF: unexpected end of SGF data (the file ends too soon)"),
        (b"game: go7\n\nd4\n", "not SGF: no SGF data found"),
        (b"(;GM[1]SZ[7]" + b" " * 1024 * 1024 + b")", "longer than 1024 KiB: not a game record"),
        (b"(;CA[klingon]GM[1]SZ[7];B[aa])", "root: unknown encoding: klingon"),
        (b"(;GM[1]SZ[30];B[aa])", "root: size out of range: 30"),
        (b"(;GM[1]SZ[7]AB[dd];W[aa])", "root: AB sets up a position of its own; go7 starts from its start"),
        (b"(;GM[1]SZ[7];B[dd]AW[aa])", "node 1: sets up stones in the middle of the game"),
        (b"(;GM[1]SZ[7];B[dd];B[aa])", "node 2, move 2: B[aa], but W (White) moves now"),
        (b"(;GM[1]SZ[7];W[aa])", "node 1, move 1: W[aa], but B (Black) moves now"),
        (b"(;GM[1]SZ[7];B[aa]W[bb])", "node 1: holds two moves, a B and a W"),
        (b"(;GM[18]SZ[10];B[djdd])", "node 1, move 1: B[djdd]: [djdd] is not a turn"),
        (b"(;GM[18]SZ[10];B[djdjgd])", "node 1, move 1: B[djdjgd]: not legal here: the amazon on d1 cannot"),
        (b"(;GM[1]SZ[7];B[zz])", "node 1, move 1: B[zz]: [zz] is not a point of the 7x7 board"),
        (b"(;GM[1]SZ[7]KM[abc];B[aa])", "root: KM[abc]: "),
        (b"(;GM[1]SZ[7];B[aa];W[];B[];W[bb])", "node 4, move 4: W[bb]: not legal: the game is over"),
    ],
)
def test_bad_sgf_is_refused_saying_where(data: bytes, message: str) -> None:
    with pytest.raises(SgfError) as raised:
        load(data)
    assert str(raised.value).startswith(message), str(raised.value)


def test_what_is_not_kept_is_said() -> None:
    record, notes = load(b"(;GM[1]SZ[7]KM[6.5]RU[Japanese]RE[B+R];B[dd](;W[aa])(;W[bb]))")
    assert record.moves == ["d4", "a7"]  # aa: the top left
    assert notes == [
        "KM[6.5] differs from go7's KM[7.5]: counted by go7's",
        "RU[Japanese] differs from go7's RU[Chinese]: counted by go7's",
        "variations left out: the main line is kept",
        "RE[B+R], but by go7's rules the game goes on",
    ]


def test_only_go_and_the_amazons_have_an_sgf_form() -> None:
    kept = sorted(g for g in registry.available() if sgf_facts(registry.make(g)) is not None)
    assert kept == ["amazons", "go7"]
    with pytest.raises(SgfError, match="desdemona has no SGF form"):
        dump(Record("desdemona", ("Ann", "Bob")))
