"""The appliance's configuration file (TOML): which game the board plays when the Pi boots.

    game = "desdemona"          # a game id (magboard games)
    board = "desdemona-hall"    # a board id or board file of that game (magboard hardware list)
    serial = "auto"             # "auto" (find the Pico by USB id) or a device path such as /dev/magboard
    level = 10                  # AI level 1..10
    seconds = 3.0               # AI thinking time per move
    side = 0                    # the side the player takes (0 moves first)
    page = "127.0.0.1:8765"     # where the page is served: this Pi only, or "0.0.0.0:8765" for the network

Every key may be left out (its default applies); every problem is reported at
once, each naming the key and what is wrong with it.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from engines import registry
from host.hardware.loading import BoardFileError, load_board
from host.session.setup import default_board

DEFAULT_GAME = "desdemona"
AUTO = "auto"
LEVELS = range(1, 11)


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

    def play_arguments(self) -> list[str]:
        """The arguments of `magboard play` for this configuration."""
        return [
            "play", self.game, "--board", self.board, "--serial", self.serial,
            "--level", str(self.level), "--seconds", f"{self.seconds:g}", "--side", str(self.side),
            "--host", self.page_host, "--port", str(self.page_port), "--no-browser",
        ]  # fmt: skip

    @property
    def page_host(self) -> str:
        return self.page.rsplit(":", 1)[0].strip("[]")

    @property
    def page_port(self) -> int:
        return int(self.page.rsplit(":", 1)[1])


KEYS = tuple(f.name for f in fields(ServiceConfig))


def _string(value: Any, key: str, problems: list[str]) -> str | None:
    if isinstance(value, str) and value.strip():
        return value
    problems.append(f"{key}: must be a non-empty string, got {value!r}")
    return None


def _is_file(board: str) -> bool:
    """Whether ``board`` names a board file rather than a shipped board's id (as load_board decides)."""
    return board.endswith(".toml") or os.sep in board


def parse_config(text: str, source: str = "config") -> ServiceConfig:
    """A checked configuration from TOML text; ConfigError lists every problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, [f"not valid TOML: {exc}"]) from None
    problems: list[str] = []
    for key in data:
        if key not in KEYS:
            problems.append(f"{key}: unknown key (keys: {', '.join(KEYS)})")
    values: dict[str, Any] = {}

    game = _string(data.get("game", DEFAULT_GAME), "game", problems)
    if game is not None and game not in registry.available():
        problems.append(f"game: unknown game {game!r} (games: {', '.join(registry.available())})")
        game = None
    if game is not None:
        values["game"] = game

    board = _string(data.get("board", default_board(game or DEFAULT_GAME)), "board", problems)
    if board is not None and _is_file(board) and not Path(board).is_absolute():
        problems.append(f"board: a board file must be given by its absolute path, got {board!r}")
        board = None
    if board is not None:
        try:
            spec = load_board(board)
        except BoardFileError as exc:
            problems.append(f"board: {board!r} cannot be used: {'; '.join(exc.problems)}")
        else:
            if game is not None and spec.game != game:
                problems.append(f"board: {board} is a {spec.game} board, not a {game} one")
            values["board"] = board

    serial = _string(data.get("serial", AUTO), "serial", problems)
    if serial is not None:
        if serial == AUTO or Path(serial).is_absolute():
            values["serial"] = serial
        else:
            problems.append(f"serial: must be {AUTO!r} or an absolute device path, got {serial!r}")

    level = data.get("level", ServiceConfig.level)
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        problems.append(f"level: must be an integer 1..10, got {level!r}")
    else:
        values["level"] = level

    seconds = data.get("seconds", ServiceConfig.seconds)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= 3600:
        problems.append(f"seconds: must be a number of seconds above 0 and at most 3600, got {seconds!r}")
    else:
        values["seconds"] = float(seconds)

    side = data.get("side", ServiceConfig.side)
    if isinstance(side, bool) or side not in (0, 1):
        problems.append(f"side: must be 0 (moves first) or 1, got {side!r}")
    else:
        values["side"] = side

    page = _string(data.get("page", ServiceConfig.page), "page", problems)
    if page is not None:
        host, colon, port = page.rpartition(":")
        if not colon or not host.strip("[]") or not port.isdigit() or not 0 < int(port) < 65536:
            problems.append(f'page: must be ADDRESS:PORT such as "127.0.0.1:8765", got {page!r}')
        else:
            values["page"] = page

    if problems:
        raise ConfigError(source, problems)
    return ServiceConfig(**values)


def read_config(path: Path) -> ServiceConfig:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), [f"cannot read: {exc}"]) from None
    return parse_config(text, str(path))


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
        '# "0.0.0.0:8765" for phones and tablets on your network (anyone there can then see and press it)\n'
        f"page = {json.dumps(config.page)}\n"
    )
