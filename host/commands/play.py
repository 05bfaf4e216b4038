"""`magboard play GAME`: a game on a board - the simulated one unless a real one is named.

Four ways in, one session underneath:
- the page (default): the board drawn in the browser (host/web), where the
  player lifts and places pieces on the simulated board with the mouse, or
  watches a real board live; the page's buttons are the board's buttons.
- ``--terminal``: the simulated board in the terminal.  Type a move and
  simulated hands make it on the virtual board, or type physical actions
  (``lift a4``, ``place a6``...); the real firmware, serial link and tracker see
  them exactly as they would see a person's hands.  The LEDs are listed under
  the drawing.
- ``--script FILE``: the same, from a file of actions (host/reach/script.py),
  printing commits, scenes and LED frames as JSON lines.
- ``--serial PORT`` (or ``auto``): a real board on a serial port (with the page,
  or ``--terminal`` for none).
Every committed move goes to the game store (host/store) before the LEDs
change, so after a power cut the same command resumes the game (``--new``
starts another; the old one stays in the store, marked abandoned).
"""

from __future__ import annotations

import argparse
import functools
import json
import signal
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engines import registry
from engines.game import M, MoveError, P
from engines.gtp import gtp_facts
from host import play_values
from host.cli_error import CliError
from host.drivers.interfaces import RGB, DriverError
from host.gamearg import add_voice_arguments, add_workers_argument
from host.hardware.loading import BoardFileError
from host.hardware.sensing import SensorModel, SnapshotError
from host.link.settled import wait_settled
from host.link.status import LinkError, LinkStatus
from host.peers.gtp.named import expand
from host.peers.gtp.opponent import EngineOpponent
from host.peers.gtp.protocol import GtpError
from host.reach.capabilities import Hands, Reach
from host.reach.diff import hand_actions
from host.reach.script import Action, ScriptError, load_script, parse
from host.session.ai_opponent import AiOpponent
from host.session.session import Event, Settings
from host.session.setup import default_board
from host.shown import shown
from host.stopping import until_stopped
from host.store.database import StoreError, opened, reason_of
from host.store.imports import continue_file, import_old_journals
from host.store.paths import default_store
from host.voice.speaker import Espeak, Speaker, VoiceError, telling
from host.web.play_page import DEFAULT_PORT, serve_page, start_server
from host.web.server import PageServer, WebError
from host.wiring.hardware import choose_hardware
from host.wiring.table import Table, open_table
from host.words.spoken import spoken

# What can go wrong at the table without it being a bug: each says what and where.
EXPECTED_FAILURES = (
    BoardFileError, StoreError, ValueError, TimeoutError, DriverError, LinkError,
    WebError, GtpError,
)  # fmt: skip
SETTLE_S = 0.4  # after a typed command, serve the board until it has been quiet this long
COMMAND_S = 5.0

HELP = """Type a move (e.g. {notation}) and the simulated hands make it, or physical actions:
  lift CELL | place CELL [KIND[:COLOUR]] | remove CELL | turn CELL | slide CELL ... | tap CELL
  do            carry out the AI's move as the LEDs show it
  confirm | hint | takeback | newgame      the board's buttons (a move 'pass' is the Pass button)
  moves         list the legal moves        quit    stop (the store keeps the game)"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play on the simulated board (default) or a real one")
    p.add_argument("game", nargs="?", default=registry.DEFAULT, help=f"game id (default: {registry.DEFAULT})")
    p.add_argument("--option", action="append", default=[], metavar="NAME", help="rule option (repeatable)")
    p.add_argument("--board", help="board id or file (default: GAME-hall; see `magboard hardware list`)")
    p.add_argument("--serial", metavar="PORT", help="a real board on this serial port, or 'auto' to find it")
    p.add_argument("--script", type=Path, help="run these physical actions on the simulated board")
    side = play_values.from_text(play_values.side)
    p.add_argument("--side", type=side, default=0, metavar="0|1", help="the side you play (0 moves first)")
    p.add_argument("--humans", action="store_true", help="two people play; no AI")
    level = play_values.from_text(play_values.level)
    p.add_argument("--level", type=level, default=10, metavar="1..10", help="AI level")
    seconds = play_values.from_text(play_values.seconds, play_values.number_text)
    p.add_argument("--seconds", type=seconds, default=3.0, help="AI thinking time per move")
    p.add_argument("--nodes", type=int, help="AI node budget per move instead of time (repeatable play)")
    add_workers_argument(p)
    p.add_argument(
        "--engine", metavar="NAME|COMMAND",
        help="a GTP engine plays the AI's side: gnugo, pachi or katago at --level (`magboard engines`), "
        "or a command line (\"gnugo --mode gtp --level 10\"); --seconds a move",
    )  # fmt: skip
    p.add_argument(
        "--journal", type=Path, metavar="PATH",
        help="the game store, a SQLite file (default: ~/.local/share/magboard/games.sqlite3)",
    )  # fmt: skip
    p.add_argument(
        "--new", action="store_true", help="start a new game (the unfinished one stays, marked abandoned)"
    )
    p.add_argument(
        "--from", dest="from_file", type=Path, metavar="FILE",
        help="continue the unfinished game of this SGF file or record (the board asks for its position to "
        "be set up, as after a resume; the unfinished one stays, marked abandoned)",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="seed of the simulated sensors and the AI")
    p.add_argument(
        "--emulated",
        action="store_true",
        help="the simulated board's firmware on an emulated Pico",
    )
    p.add_argument("--terminal", action="store_true", help="play in the terminal instead of the browser page")
    host = play_values.from_text(play_values.page_host, str)
    p.add_argument(
        "--host", type=host, default="127.0.0.1",
        help="address the page is served on (default: 127.0.0.1; 0.0.0.0: the network, with pairing)",
    )  # fmt: skip
    port = play_values.from_text(play_values.port)
    p.add_argument("--port", type=port, help=f"port of the page (default: {DEFAULT_PORT}, or a free one)")
    p.add_argument("--no-browser", action="store_true", help="serve the page without opening a browser")
    add_voice_arguments(p, optional=True)
    p.set_defaults(run=run)


def journal_path(args: argparse.Namespace) -> Path:
    """The game store: ``--journal PATH``, or the one in the XDG data directory."""
    return default_store() if args.journal is None else Path(args.journal)


def import_journals(args: argparse.Namespace, path: Path) -> None:
    """The default store takes in the journal files of earlier versions once, saying what it kept."""
    if args.journal is None:
        try:
            said = import_old_journals(path)
        except StoreError as exc:
            raise CliError(str(exc)) from None
        for line in said:
            print(shown(f"magboard {args.command}: {line}"), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    return until_stopped(lambda: play(args))


def play(args: argparse.Namespace) -> int:
    if args.game not in registry.available():
        raise CliError(f"unknown game {args.game!r} (known: {', '.join(registry.available())})")
    if args.script is not None and args.serial is not None:
        raise CliError("--script drives the simulated board: leave out --serial")
    if args.from_file is not None and args.new:
        raise CliError("--from continues the file's game: leave out --new")
    try:
        hardware = choose_hardware(args.serial, emulated=args.emulated, seed=args.seed)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    actions = None
    if args.script is not None:
        try:
            actions = load_script(args.script, set(registry.make(args.game, args.option).geometry.names))
        except ScriptError as exc:
            raise CliError(f"{args.script}:{exc}") from None
        except OSError as exc:
            raise CliError(f"{args.script}: cannot read: {exc.strerror}") from None
        except ValueError as exc:  # an unknown --option
            raise CliError(str(exc)) from None
    path = journal_path(args)
    import_journals(args, path)
    if args.from_file is not None:
        continue_from(args, path)
    # A file size limit (ulimit -f) then fails the store's write like a full disk, which the game
    # survives, instead of killing the program.
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    ai = None if args.humans else AiOpponent(args.level, args.seconds, args.nodes, args.seed, args.workers)
    opponent = ai if args.engine is None else engine_opponent(args, ai)
    settings = Settings(ai_side=None if args.humans else 1 - args.side)
    board_id = args.board or default_board(args.game)
    server: PageServer | None = None
    speaker: Speaker | None = None
    try:
        if args.script is None and not args.terminal:
            server = start_server(args.host, args.port)
        with open_table(
            args.game, hardware, board_id=board_id, options=tuple(args.option), opponent=opponent,
            settings=settings, journal_path=path, new=args.new,
        ) as table:  # fmt: skip
            speaker = start_voice(args, table)
            if actions is not None:
                return run_script(table, actions, sys.stdout)
            if server is not None:
                return serve_page(table, server, not args.no_browser, sys.stdout)
            if table.reach is None:
                return serve_real(table)
            return interactive(table, sys.stdin, sys.stdout)
    except EXPECTED_FAILURES as exc:
        raise CliError(str(exc)) from None
    finally:
        if speaker is not None:
            speaker.close()
        if server is not None:
            server.close()
        if isinstance(opponent, EngineOpponent):
            opponent.close()


def start_voice(args: argparse.Namespace, table: Table[P, M]) -> Speaker | None:
    """With ``--voice``, a speaker that says what the board says; without espeak-ng (or the voice asked
    for), one line says so and the board plays on silent."""
    if args.voice is None:
        return None

    def trouble(line: str) -> None:
        print(shown(f"magboard play: --voice: {line}"), file=sys.stderr, flush=True)

    try:
        speaker = Speaker(Espeak(args.voice, args.voice_rate, trouble))
    except VoiceError as exc:
        trouble(f"{exc}: playing on without a voice")
        return None
    table.session.listeners.append(telling(table.game, speaker))
    speaker.say(spoken(table.game, table.session.view().status))  # what the board wants as it starts
    return speaker


def continue_from(args: argparse.Namespace, path: Path) -> None:
    """Make the game of ``--from FILE`` the one the board resumes, saying so (the file's names may hold
    anything, so the line goes through host/shown.py)."""
    try:
        with opened(path) as conn:
            report = continue_file(conn, args.from_file, args.game, tuple(args.option))
    except StoreError as exc:
        raise CliError(str(exc)) from None
    except sqlite3.Error as exc:
        raise CliError(f"{path}: {reason_of(exc)}") from None
    said = "; ".join([f"imported as game {report.resumes}, which the board continues", *report.notes])
    print(shown(f"magboard play: {args.from_file}: {said}"), file=sys.stderr)


def engine_opponent(args: argparse.Namespace, ai: AiOpponent | None) -> EngineOpponent:
    """The GTP engine of ``--engine`` on the AI's side, the built-in AI behind it should it fail; a known
    engine's name is its command line for the game at ``--level``."""
    if ai is None:
        raise CliError("--engine plays the AI's side: leave out --humans")
    facts = gtp_facts(registry.make(args.game, args.option))
    if facts is None:
        raise CliError(f"--engine: {args.game} is not played through GTP (the Go engines' protocol)")
    return EngineOpponent(expand(args.engine, args.level, facts), args.seconds, ai)


def run_script(table: Table[P, M], actions: list[Action], out: TextIO) -> int:
    """Carry out the script in real time, printing what the session does as JSON lines.

    The hands start once the board has reported its settled sensors, and the script ends once the
    board has reported what they left and the session has been quiet for a moment: the pace is the
    board's, so a slow firmware (the WebAssembly port under emulation, whose 7x16 Hall board saw a
    lift 11 s late) plays the same game."""
    reach = the_reach(table)
    unsettled = wait_settled(table.link, reach.ready_s)
    if unsettled is not None:
        raise CliError(f"the simulated board said HELLO, then {unsettled}")
    start = time.monotonic()

    def stamp() -> int:
        return round((time.monotonic() - start) * 1000)

    def show(event: Event) -> None:
        out.write(json.dumps({"t": stamp(), "event": event.kind.value, **event.data}) + "\n")
        out.flush()

    table.session.listeners.append(show)

    def link(status: LinkStatus, reason: str) -> None:
        line = {"t": stamp(), "event": "link", "status": status.value, "reason": reason}
        out.write(json.dumps(line) + "\n")

    table.loop.link_listeners.append(link)
    original_refresh = table.play.refresh

    def refresh(t_ms: int) -> list[RGB] | None:
        written = original_refresh(t_ms)
        if written is not None:
            lit = {c.name: list(written[c.led]) for c in table.board.cells if any(written[c.led])}
            out.write(json.dumps({"t": stamp(), "event": "leds", "lit": lit}) + "\n")
        return written

    table.play.refresh = refresh  # type: ignore[method-assign]
    hands = reach.hands
    failure: list[BaseException] = []

    def work() -> None:
        try:
            hands.run(actions)
        except BaseException as exc:  # said on the main thread, and the script fails
            failure.append(exc)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    table.loop.run(until=hands.done.is_set)
    serve_until_reported(table)
    if failure and isinstance(failure[0], ScriptError):
        raise CliError(str(failure[0]))
    if failure:
        raise failure[0]
    out.write(json.dumps({"t": stamp(), "event": "end", "moves": table.session.moves}) + "\n")
    return 0


def the_reach(table: Table[P, M]) -> Reach:
    """The board's reach, which what the program's own hands do needs (``play`` chose them so)."""
    assert table.reach is not None, "the program's own hands need a board it can reach into"
    return table.reach


def serve_until_reported(table: Table[P, M]) -> None:
    """Serve the board until it reports what the hands left (at most the board's ready time), then
    until the session has had nothing new to say for 2 SETTLE_S."""
    reach, link, session = the_reach(table), table.link, table.session
    model = SensorModel(table.board)

    def reported() -> bool:
        if link.latest is None:
            return False
        left = {cell: model.reading_of(stack) for cell, stack in reach.standing().items()}
        try:
            return model.decode(link.latest.values) == left
        except SnapshotError:
            return False

    deadline = time.monotonic() + reach.ready_s
    table.loop.run(until=lambda: reported() or time.monotonic() > deadline)
    seen = [session.emitted, time.monotonic()]

    def quiet() -> bool:
        now = time.monotonic()
        if session.emitted != seen[0] or session.busy:
            seen[:] = [session.emitted, now]
        return now - seen[1] >= 2 * SETTLE_S or now > deadline + reach.ready_s

    table.loop.run(until=quiet)


def serve_real(table: Table[P, M]) -> int:
    """Play on a real board until interrupted."""
    print(f"{table.game.name} on {table.board.name}: play on the board.")
    print("Ctrl-C stops; the store keeps the game.")
    table.loop.link_listeners.append(lambda status, reason: print(status.notice(reason), flush=True))
    try:
        table.loop.run()
    except KeyboardInterrupt:
        print()
    return 0


def interactive(table: Table[P, M], stdin: TextIO, out: TextIO) -> int:
    """The simulated board in a terminal: typed moves and actions, the board and LEDs drawn back."""
    session, game = table.session, table.game
    hands = the_reach(table).hands
    out.write(f"{game.name} on the simulated {table.board.name}. Type 'help' for commands.\n")

    def tell(status: LinkStatus, reason: str) -> None:
        out.write(status.notice(reason) + "\n")

    table.loop.link_listeners.append(tell)
    serve_until_quiet(table)
    while True:
        draw(table, out)
        if game.is_over(session.position):
            out.write("New game: type 'newgame'; or 'quit'.\n")
        out.write("> ")
        out.flush()
        line = stdin.readline()
        if not line:
            out.write("\n")
            return 0
        command = line.strip()
        if not command:
            continue
        if command in ("quit", "exit"):
            out.write(f"{session.journal.health if session.journal else 'the game is not kept (no store)'}\n")
            return 0
        try:
            message = obey(table, hands, command)
        except (ScriptError, MoveError, ValueError) as exc:
            message = f"{command!r}: {exc}"
        if message:
            out.write(message + "\n")


def obey(table: Table[P, M], hands: Hands, command: str) -> str:
    """Carry out one typed command; returns what to tell the player."""
    reach = the_reach(table)
    session, game = table.session, table.game
    buttons = {"confirm": "confirm", "hint": "hint", "takeback": "take_back", "undo": "take_back",
               "newgame": "new_game"}  # fmt: skip
    if command == "help":
        return HELP.format(notation=game.table.notation)
    if command == "moves":
        return " ".join(game.legal_texts(session.position))
    if command in buttons:
        reach.press(buttons[command])
        serve_until_quiet(table)
        return ""
    if command == "do":
        if session.pending is None:
            return "the AI has no move waiting"
        perform(table, hands, game.play(session.position, session.pending))
        return ""
    words = command.split()
    if words[0] in ("lift", "place", "remove", "turn", "slide", "tap", "wait", "press", "step"):
        for action in parse(command, set(game.geometry.names)):
            run_hands(table, functools.partial(hands.do, action))
        serve_until_quiet(table)
        return ""
    if session.pending is not None:
        return "first carry out the AI's move (type 'do', or make it by hand)"
    move = game.parse_move(session.position, command)
    if not game.changed_cells(session.position, move):  # a pass: no hand makes it, the Pass button does
        reach.press("pass")
        serve_until_quiet(table)
        return ""
    perform(table, hands, game.play(session.position, move))
    return ""


def perform(table: Table[P, M], hands: Hands, target: P) -> None:
    """Simulated hands change the board from the committed position to ``target``."""
    actions = hand_actions(table.game, table.game.cells(table.session.position), table.game.cells(target))
    run_hands(table, lambda: hands.run(actions))
    serve_until_quiet(table)


def run_hands(table: Table[P, M], work: Callable[[], None]) -> None:
    """Hands work on their own thread while the live loop serves the board."""
    done = threading.Event()
    failure: list[BaseException] = []

    def job() -> None:
        try:
            work()
        except BaseException as exc:  # re-raised on this thread
            failure.append(exc)
        finally:
            done.set()

    threading.Thread(target=job, daemon=True).start()
    table.loop.run(until=done.is_set)
    if failure:
        raise failure[0]


def serve_until_quiet(table: Table[P, M]) -> None:
    """Serve the board until the session has had nothing new to say for SETTLE_S."""
    session = table.session
    deadline = time.monotonic() + COMMAND_S + (table.session.opponent_seconds or 0)
    seen = [session.emitted, time.monotonic()]

    def quiet() -> bool:
        now = time.monotonic()
        if session.emitted != seen[0] or session.busy:
            seen[:] = [session.emitted, now]
        return now - seen[1] >= SETTLE_S or now > deadline

    table.loop.run(until=quiet)


def draw(table: Table[P, M], out: TextIO) -> None:
    """The board, the score, the last moves, what the board wants in words, and the lit LEDs."""
    view, game = table.session.view(), table.game
    out.write("\n" + game.render(view.position) + "\n")
    score = game.score(view.position)
    if score is not None:
        out.write(f"score: {game.table.score_words(score)}\n")
    if view.moves:
        out.write("moves: " + " ".join(view.moves[-8:]) + "\n")
    out.write(view.status + "\n")
    if view.intent.scene:
        lights = ", ".join(f"{cell} {light.describe()}" for cell, light in sorted(view.intent.scene.items()))
        out.write(f"LEDs: {lights}\n")
