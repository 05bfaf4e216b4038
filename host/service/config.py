"""The appliance's configuration file (TOML): which game the board plays when the Pi boots.

    game = "desdemona"          # a game id (magboard games)
    board = "desdemona-hall"    # a board id or board file of that game (magboard hardware list)
    serial = "auto"             # "auto" (find the Pico by USB id) or a device path such as /dev/magboard
    level = 10                  # AI level 1..10
    seconds = 3.0               # AI thinking time per move
    side = 0                    # the side the player takes (0 moves first)
    page = "127.0.0.1:8765"     # where the page is served: this Pi only, or "0.0.0.0:8765" for the network
    voice = "en"                # say the board's sentences aloud in this espeak-ng voice (none: silent)

Every key may be left out (its default applies); every problem is reported at
once, each naming the key and what is wrong with it.  A string holding a control
character is refused wherever it is (a newline in ``serial`` would be a line of
its own in the systemd unit), and so are values `play` takes but no service
should run with: port 0 (a different port at every start, where no phone finds
the page) and a thinking time too short to be meant.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

from engines import registry
from host import play_values
from host.files import KIB, read_text
from host.hardware.loading import BoardFileError, load_board
from host.hardware.reader import Problems, Table, parse_toml
from host.session.setup import default_board
from host.shown import is_unsafe

DEFAULT_GAME = registry.DEFAULT
AUTO = "auto"
CONFIG_BYTES = 64 * KIB  # the file install writes is 1 KiB
MIN_SECONDS = 0.1  # below this the AI hardly looks; a weaker opponent is a lower level


class ConfigError(ValueError):
    """A configuration that cannot be used; ``problems`` are "key: what is wrong" lines."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("\n".join(f"{source}: {problem}" for problem in problems))


@dataclass(frozen=True)
class ServiceConfig:
    game: str = DEFAULT_GAME
    board: str = default_board(DEFAULT_GAME)
    serial: str = AUTO
    level: int = 10
    seconds: float = 3.0
    side: int = 0
    page: str = "127.0.0.1:8765"
    voice: str | None = None

    def play_arguments(self) -> list[str]:
        """The arguments of `magboard play` for this configuration."""
        return [
            "play", self.game, "--board", self.board, "--serial", self.serial,
            "--level", str(self.level), "--seconds", f"{self.seconds:g}", "--side", str(self.side),
            "--host", self.page_host, "--port", str(self.page_port), "--no-browser",
            *(["--voice", self.voice] if self.voice is not None else []),
        ]  # fmt: skip

    @property
    def page_host(self) -> str:
        return play_values.page(self.page)[0]

    @property
    def page_port(self) -> int:
        return play_values.page(self.page)[1]


KEYS = tuple(f.name for f in fields(ServiceConfig))


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"must be a non-empty string, got {play_values.describe(value)}")
    return value


def _game(value: object) -> str:
    game = _text(value)
    if game not in registry.available():
        raise ValueError(f"unknown game {game!r} (games: {', '.join(registry.available())})")
    return game


def _board(game: str | None) -> Callable[[object], str]:
    def check(value: object) -> str:
        board = _text(value)
        if (board.endswith(".toml") or os.sep in board) and not Path(board).is_absolute():
            raise ValueError(f"a board file must be given by its absolute path, got {board!r}")
        try:
            spec = load_board(board)
        except BoardFileError as exc:
            raise ValueError(f"{board!r} cannot be used: {'; '.join(exc.problems)}") from None
        if game is not None and spec.game != game:
            raise ValueError(f"{board} is a {spec.game} board, not a {game} one")
        return board

    return check


def _serial(value: object) -> str:
    serial = _text(value)
    if serial != AUTO and not Path(serial).is_absolute():
        raise ValueError(f"must be {AUTO!r} or an absolute device path, got {serial!r}")
    return serial


def _seconds(value: object) -> float:
    seconds = play_values.seconds(value)
    if seconds < MIN_SECONDS:
        raise ValueError(f"must be at least {MIN_SECONDS:g} s for a service (a weaker AI is a lower level)")
    return seconds


def _page(value: object) -> str:
    _host, port = play_values.page(value)
    if port == 0:
        raise ValueError("port 0 is a different free port at every start, where no browser finds the page")
    return str(value)


def _control_character(value: object, key: str) -> tuple[str, str] | None:
    """The first string under ``key`` holding a control character: its key and that character."""
    if isinstance(value, dict):
        value = [(f"{key}.{k}", v) for k, v in value.items()]
    elif isinstance(value, list):
        value = [(f"{key}[{i}]", v) for i, v in enumerate(value)]
    else:
        unsafe = [char for char in value if is_unsafe(char)] if isinstance(value, str) else []
        return (key, unsafe[0]) if unsafe else None
    return next((found for k, v in value if (found := _control_character(v, k)) is not None), None)


def parse_config(text: str, source: str = "config") -> ServiceConfig:
    """A checked configuration from TOML text; ConfigError lists every problem.

    Every value goes through the check `magboard play` applies to it (host.play_values), so a
    configuration that passes here starts the service's `play` without a complaint.
    """
    try:
        data = parse_toml(text)
    except ValueError as exc:
        raise ConfigError(source, [str(exc)]) from None
    problems = Problems()
    for key, value in list(data.items()):
        found = _control_character(value, key)
        if found is not None:  # said once, and not checked further
            problems.add(found[0], f"holds the control character {found[1]!a}: not a value for a service")
            del data[key]
    table = Table(data, "", problems)
    for key in data:
        if key not in KEYS:
            problems.add(key, f"unknown key (keys: {', '.join(KEYS)})")
    default = ServiceConfig()
    game = table.checked("game", _game, None) if "game" in data else DEFAULT_GAME
    config = ServiceConfig(
        game=game or DEFAULT_GAME,
        board=table.checked("board", _board(game), default_board(game or DEFAULT_GAME)),
        serial=table.checked("serial", _serial, default.serial),
        level=table.checked("level", play_values.level, default.level),
        seconds=table.checked("seconds", _seconds, default.seconds),
        side=table.checked("side", play_values.side, default.side),
        page=table.checked("page", _page, default.page),
        voice=table.checked("voice", play_values.voice, default.voice),
    )
    if problems:
        raise ConfigError(source, problems.messages)
    return config


def read_config_text(path: Path) -> str:
    """The text of a configuration file, read within CONFIG_BYTES; ConfigError when it cannot be."""
    try:
        return read_text(path, CONFIG_BYTES)
    except OSError as exc:
        raise ConfigError(str(path), [f"cannot read: {exc.strerror}"]) from None


def read_config(path: Path) -> ServiceConfig:
    return parse_config(read_config_text(path), str(path))


def render_config(config: ServiceConfig) -> str:
    """The file `magboard service install` writes when there is none yet."""
    return (
        "# magboard: what the board plays when the Pi starts (checked by `magboard service check`).\n"
        "# After editing, run `magboard service install` again and restart the service.\n"
        "\n"
        "# the game (magboard games) and the board it is played on (magboard hardware list)\n"
        f"game = {json.dumps(config.game)}\n"
        f"board = {json.dumps(config.board)}\n"
        '# "auto" finds the Pico by its USB id; or a device path such as "/dev/magboard"\n'
        f"serial = {json.dumps(config.serial)}\n"
        "# the AI: level 1..10 and thinking time per move in seconds; side: 0 if you move first\n"
        f"level = {config.level}\n"
        f"seconds = {config.seconds:g}\n"
        f"side = {config.side}\n"
        '# where the page that mirrors the board is served: "127.0.0.1:8765" on this Pi only,\n'
        '# "0.0.0.0:8765" for phones and tablets on your network: anyone there can watch, and a browser\n'
        "# presses the buttons once paired with the code magboard prints when it starts\n"
        f"page = {json.dumps(config.page)}\n"
        "# the board says its sentences aloud (espeak-ng, on the Pi's audio output) in this voice:\n"
        '# "en", "en-us", "de"... (espeak-ng --voices lists them); left out, the board is silent\n'
        + (f"voice = {json.dumps(config.voice)}\n" if config.voice is not None else '# voice = "en"\n')
    )
