"""`magboard service`: the generated unit, udev rule and configuration, and the configuration's checks."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from host.cli import build_parser, main
from host.service.config import ConfigError, ServiceConfig, parse_config, render_config
from host.service.install import magboard_command
from host.service.units import CONFIG_PATH, UDEV_PATH, UNIT_PATH, render_udev_rule, render_unit

# One udev rule: comma-separated KEY{attr}=="value" matches and KEY+="value" / KEY="value" assignments.
UDEV_PAIR = re.compile(r'[A-Z_]+(\{[A-Za-z_]+\})?(==|\+=|=)"[^"]*"')


def install(prefix: Path, *extra: str) -> int:
    return main(["service", "install", "--prefix", str(prefix), "--user", "player", *extra])


def test_install_writes_config_unit_and_udev_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert install(tmp_path) == 0
    out = capsys.readouterr().out
    for relative in (CONFIG_PATH, UNIT_PATH, UDEV_PATH):
        assert f"wrote {tmp_path / relative}" in out
    assert parse_config((tmp_path / CONFIG_PATH).read_text()) == ServiceConfig()
    unit = (tmp_path / UNIT_PATH).read_text()
    assert "Restart=on-failure\n" in unit
    assert "User=player\n" in unit
    assert "WantedBy=multi-user.target\n" in unit
    command = " ".join(magboard_command())
    assert (
        f"ExecStart={command} play desdemona --board desdemona-hall --serial auto "
        "--level 10 --seconds 3 --side 0 --host 127.0.0.1 --port 8765 --no-browser\n"
    ) in unit


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed here")
    assert install(tmp_path) == 0
    result = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / UNIT_PATH)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "magboard.service" not in result.stderr, result.stderr


def test_the_udev_rule_names_the_pico_and_keeps_modemmanager_away() -> None:
    rule_lines = [line for line in render_udev_rule().splitlines() if line and not line.startswith("#")]
    assert len(rule_lines) == 1
    pairs = [pair.strip() for pair in rule_lines[0].split(",")]
    assert all(UDEV_PAIR.fullmatch(pair) for pair in pairs), pairs
    assert 'ATTRS{idVendor}=="2e8a"' in pairs
    assert 'ATTRS{idProduct}=="0005"' in pairs
    assert 'SYMLINK+="magboard"' in pairs
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in pairs
    assert 'SUBSYSTEM=="tty"' in pairs


def test_an_edited_config_is_kept_and_the_unit_follows_it(tmp_path: Path) -> None:
    config = tmp_path / CONFIG_PATH
    config.parent.mkdir(parents=True)
    text = 'game = "flipfour"\nboard = "flipfour-reed"\nserial = "/dev/magboard"\nlevel = 3\nside = 1\n'
    config.write_text(text)
    assert install(tmp_path) == 0
    assert config.read_text() == text
    unit = (tmp_path / UNIT_PATH).read_text()
    expected = (
        "play flipfour --board flipfour-reed --serial /dev/magboard --level 3 --seconds 3 --side 1 "
        "--host 127.0.0.1 --port 8765 --no-browser\n"
    )
    assert expected in unit


def test_an_invalid_config_stops_the_install_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / CONFIG_PATH
    config.parent.mkdir(parents=True)
    config.write_text("level = 11\n")
    assert install(tmp_path) == 2
    assert "level: must be an integer 1..10, got 11" in capsys.readouterr().err
    assert not (tmp_path / UNIT_PATH).exists()
    assert not (tmp_path / UDEV_PATH).exists()


def test_dry_run_prints_every_file_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert install(tmp_path, "--dry-run") == 0
    out = capsys.readouterr().out
    for relative in (CONFIG_PATH, UNIT_PATH, UDEV_PATH):
        assert f"# {tmp_path / relative}\n" in out
    assert "Restart=on-failure" in out
    assert "ID_MM_DEVICE_IGNORE" in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('game = "chess"', "game: unknown game 'chess'"),
        ("game = 4", "game: must be a non-empty string, got 4"),
        (
            'game = "flipfour"\nboard = "desdemona-hall"',
            "board: desdemona-hall is a desdemona board, not a flipfour one",
        ),
        ('board = "nowhere"', "board: 'nowhere' cannot be used"),
        ('board = "boards/mine.toml"', "board: a board file must be given by its absolute path"),
        ('serial = "ttyACM0"', "serial: must be 'auto' or an absolute device path, got 'ttyACM0'"),
        ("level = 0", "level: must be an integer 1..10, got 0"),
        ("level = true", "level: must be an integer 1..10, got True"),
        ('level = "5"', "level: must be an integer 1..10, got '5'"),
        ("seconds = -1", "seconds: must be a number of seconds above 0 and at most 3600, got -1"),
        ("side = 2", "side: must be 0 (moves first) or 1, got 2"),
        ("colour = 1", "colour: unknown key (keys: game, board, serial, level, seconds, side, page, voice)"),
        ('voice = "en us"', "voice: must be a voice name such as 'en' or 'en-us' (espeak-ng --voices)"),
        ("voice = 1", "voice: must be a voice name such as 'en' or 'en-us' (espeak-ng --voices), got 1"),
        ('page = "8765"', "page: must be ADDRESS:PORT such as \"127.0.0.1:8765\", got '8765'"),
        ('page = "0.0.0.0:70000"', "page: '0.0.0.0:70000': must be a port number 1..65535 (or 0: any free"),
        ("side = 1.0", "side: must be 0 (moves first) or 1, got 1.0"),
        ('page = "evil.com:8765"', "page: 'evil.com:8765': 'evil.com' is not an address or name of this"),
        ('page = " :8765"', "page: ' :8765': must be an address of this machine such as 127.0.0.1, got ' '"),
        ('page = "127.0.0.1:\u00b2"', "page: '127.0.0.1:²': must be a port number 1..65535 (or 0: any free"),
        (f'page = "127.0.0.1:{"9" * 5000}"', "page: '127.0.0.1:99999999999999999999999999..."),
        ("level = ", "not valid TOML: "),
        (f"level = {'7' * 5000}", "not valid TOML: "),
        ("board = " + "[" * 3000 + "]" * 3000, "not valid TOML: nested too deeply"),
        ("board = " + "{a = " * 3000 + "1" + "}" * 3000, "not valid TOML: nested too deeply"),
        (".".join(["deep"] * 3000) + " = 1", "a key of more than 32 dotted parts: no magboard file nests"),
        ('serial = "/dev/ttyACM0\\nExecStartPre=/bin/sh -c x"', "serial: holds the control character '\\n'"),
        ('game = "desdemona\\u0000"', "game: holds the control character '\\x00'"),
        ('board = "desdemona-hall\\u202e"', "board: holds the control character '\\u202e'"),
        ('page = "127.0.0.1:8765\\r"', "page: holds the control character '\\r'"),
        ('[colour]\nname = "\\u001b[2J"', "colour.name: holds the control character '\\x1b'"),
        ('colour = ["ok", "\\u0085"]', "colour[1]: holds the control character '\\x85'"),
        ('page = "0.0.0.0:0"', "page: port 0 is a different free port at every start, where no browser"),
        ("seconds = 5e-324", "seconds: must be at least 0.1 s for a service (a weaker AI is a lower level)"),
        ("level = {a.b.c = 1}", "level: must be an integer 1..10, got dict"),
        ("seconds = nan", "seconds: must be a number of seconds above 0 and at most 3600, got nan"),
        ("seconds = inf", "seconds: must be a number of seconds above 0 and at most 3600, got inf"),
    ],
)  # fmt: skip
def test_config_errors_name_the_key_and_the_problem(text: str, problem: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "magboard.toml")
    assert any(line.startswith(f"magboard.toml: {problem}") for line in str(caught.value).splitlines())


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config("level = 0\nside = 5\nseconds = 0\n")
    assert [p.split(":")[0] for p in caught.value.problems] == ["level", "seconds", "side"]


def test_a_rendered_config_reads_back_as_itself() -> None:
    config = ServiceConfig("spacetiles", "spacetiles-reed", "/dev/magboard", 4, 1.5, 1)
    assert parse_config(render_config(config)) == config
    spoken = ServiceConfig(voice="en-us")
    assert parse_config(render_config(spoken)) == spoken


def test_a_voice_in_the_config_is_the_service_s_voice() -> None:
    assert ServiceConfig().voice is None  # silent unless asked
    config = parse_config('voice = "de"')
    assert config.play_arguments()[-2:] == ["--voice", "de"]
    assert build_parser().parse_args(config.play_arguments()).voice == "de"


def test_a_float_level_and_integer_seconds() -> None:
    assert parse_config("seconds = 2").seconds == 2.0
    with pytest.raises(ConfigError, match="level: must be an integer"):
        parse_config("level = 5.0")


def test_service_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text('game = "flipfour"\nboard = "flipfour-hall"\n')
    assert main(["service", "check", str(good)]) == 0
    assert "ok: magboard play flipfour --board flipfour-hall" in capsys.readouterr().out
    assert main(["service", "check", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml: cannot read" in capsys.readouterr().err


def test_the_unit_quotes_a_command_with_spaces() -> None:
    command = ["/opt/my board/bin/magboard"]
    unit = render_unit(ServiceConfig(), command, "pi", Path("/etc/magboard/config.toml"))
    assert "ExecStart='/opt/my board/bin/magboard' play desdemona" in unit


def _play_refuses(option: str, text: str) -> bool:
    try:
        build_parser().parse_args(["play", option, text])
    except SystemExit:
        return True
    return False


def _toml(text: str) -> str:
    """The command line's text as the TOML value a configuration would hold."""
    try:
        tomllib.loads(f"x = {text}")
    except ValueError:  # not TOML, or digits beyond int()'s limit
        return json.dumps(text)
    return text


# (play option, config line for a value's TOML form, values as typed on the command line)
SHARED = [
    ("--level", "level = {}", ["0", "11", "5.0", "abc", "-1", "1e1", "²", "9" * 5000, "10", "1", "+3"]),
    ("--side", "side = {}", ["2", "1.0", "-0", "x", "true", "0", "1"]),
    (
        "--seconds",
        "seconds = {}",
        ["0", "-1", "nan", "inf", "3601", "1e400", "x", "2", "0.5", "3600", "5e-324"],
    ),
    ("--port", 'page = "127.0.0.1:{}"', ["0", "99999", "²", "9" * 5000, "-1", "8765", "1.5", " 80", "65535"]),
    ("--host", 'page = "{}:8765"', ["evil.com", "192.0.2.9", " ", " ::1", "0.0.0.0", "127.0.0.1", "::1"]),
    ("--voice", "voice = {}", ["en", "en-us", "en+f3", "gmw/en-US", "en us", "-v", "", "é", "e" * 41]),
]


# Values `play` takes (for tests and a person trying things) that no service should run with.
SERVICE_ONLY = {("--port", "0"), ("--seconds", "5e-324")}


@pytest.mark.parametrize(("option", "line", "texts"), SHARED, ids=[case[0] for case in SHARED])
def test_service_check_refuses_every_value_play_refuses(option: str, line: str, texts: list[str]) -> None:
    refused_by_play = 0
    for text in texts:
        value = text if option in ("--port", "--host") else _toml(text)
        if option == "--host" and ":" in text:
            value = f"[{text}]"  # an IPv6 address in ADDRESS:PORT
        config = line.format(value)
        try:
            parse_config(config)
            checked = None
        except ConfigError as exc:
            checked = exc.problems
        if _play_refuses(option, text):
            refused_by_play += 1
            assert checked is not None, f"play refuses {option} {text[:20]!r}, service check takes {config!r}"
            assert len(checked) == 1 and "\n" not in checked[0] and len(checked[0]) < 200, checked
            assert checked[0].startswith(line.split(" ")[0] + ": "), checked  # the key, then the reason
        elif (option, text) in SERVICE_ONLY:
            assert checked is not None and len(checked) == 1, f"service check takes {config!r}"
        else:
            assert checked is None, f"play takes {option} {text!r}, service check refuses it: {checked}"
    assert 0 < refused_by_play < len(texts)


def test_play_names_the_option_and_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--port", "99999"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "argument --port: must be a port number 1..65535 (or 0: any free one), got 99999" in error
