"""The board's voice: it never holds the board up, says the newest sentence, and cuts what is old news."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import wave
from pathlib import Path

import pytest

from engines import registry
from host.voice.speaker import Espeak, Speaker
from host.words.spoken import spoken
from tests.conftest import ROOT, run_cli

WAIT_S = 10


class Gate:
    """A voice that says a sentence until it is let go or cut, recording which."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        self.speaking = threading.Event()
        self.go = threading.Event()
        self.lock = threading.Lock()

    def speak(self, text: str, cut: threading.Event) -> None:
        with self.lock:
            self.log.append(("start", text))
        self.speaking.set()
        while not cut.wait(0.005):
            if self.go.is_set():
                with self.lock:
                    self.log.append(("end", text))
                return
        with self.lock:
            self.log.append(("cut", text))


def test_a_new_sentence_cuts_the_one_being_said_and_replaces_the_unsaid_ones() -> None:
    gate = Gate()
    speaker = Speaker(gate)
    try:
        speaker.say("Light to move.")
        assert gate.speaking.wait(WAIT_S)
        # While the first is being said (its voice not yet stopped), two more come: only the newest is said.
        with gate.lock:
            speaker.say("Put Light's knight from a1 on a green square.")
            speaker.say("a1-a2: hold still a moment.")
        gate.go.set()
        for _ in range(WAIT_S * 100):
            if ("end", "a1-a2: hold still a moment.") in gate.log:
                break
            threading.Event().wait(0.01)
        assert gate.log == [
            ("start", "Light to move."),
            ("cut", "Light to move."),
            ("start", "a1-a2: hold still a moment."),
            ("end", "a1-a2: hold still a moment."),
        ]
    finally:
        speaker.close()


class Stuck:
    """A voice that hears no cut: it says each sentence until it is let go."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.speaking = threading.Event()
        self.go = threading.Event()

    def speak(self, text: str, cut: threading.Event) -> None:
        self.said.append(text)
        self.speaking.set()
        self.go.wait(WAIT_S)


def test_say_never_waits_for_the_voice() -> None:
    stuck = Stuck()
    speaker = Speaker(stuck)
    try:
        speaker.say("Light to move.")
        assert stuck.speaking.wait(WAIT_S)
        done = threading.Event()

        def board() -> None:
            for n in range(1000):
                speaker.say(f"sentence {n}")
            done.set()

        threading.Thread(target=board, daemon=True).start()
        assert done.wait(WAIT_S)  # while the voice is stuck on its first sentence
        stuck.go.set()
        for _ in range(WAIT_S * 100):
            if len(stuck.said) == 2:
                break
            threading.Event().wait(0.01)
    finally:
        speaker.close()
    assert stuck.said == ["Light to move.", "sentence 999"]


# A recording espeak-ng on PATH: what `play --voice` asks of it, each sentence's start and its end or cut.
RECORDER = """#!/bin/sh
for a; do [ "$a" = -q ] && exit 0; done
text=$(cat)
echo "start $text" >> {log}
sleep {seconds} </dev/null >/dev/null 2>&1 &
trap 'kill $!; echo "cut $text" >> {log}; exit 0' TERM
wait $!
echo "end $text" >> {log}
"""


def recording_espeak(tmp_path: Path, seconds: float) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    program = bin_dir / "espeak-ng"
    program.write_text(RECORDER.format(log=tmp_path / "said.log", seconds=seconds))
    program.chmod(0o755)
    return bin_dir


def play_script(tmp_path: Path, path: str, script: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "script.txt").write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "host.cli", "play", "desdemona", "--script", str(tmp_path / "script.txt"),
         "--journal", str(tmp_path / "games.sqlite3"), "--nodes", "40", "--level", "2", *extra],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env={**os.environ, "PATH": path},
    )  # fmt: skip


def test_a_game_with_the_voice_says_its_sentences_in_order_and_drops_stale_ones(tmp_path: Path) -> None:
    bin_dir = recording_espeak(tmp_path, seconds=1.5)
    # Black's first move by hand, the AI's answer said, then its queen lifted and put back.
    script = "lift a4\nwait 300\nplace a6\nwait 4000\n"
    result = play_script(tmp_path, f"{bin_dir}:/bin:/usr/bin", script, "--voice")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert next(e["move"] for e in events if e["event"] == "commit") == "a4-a6"
    sentences = [e["sentence"] for e in events if e["event"] == "intent"]
    log = [line.split(" ", 1) for line in (tmp_path / "said.log").read_text().splitlines()]
    started = [text for what, text in log if what == "start"]
    assert started[0].startswith("Black to move:")  # what the board wants as play begins
    # Said in the order the board said them, each as the ear hears it (tests/words/test_spoken.py).
    heard = [spoken(registry.make("desdemona"), s) for s in sentences]
    positions = [heard.index(text) for text in started[1:]]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    # 'a4-a6: hold still a moment' was old news 0.4 s later, when the board committed it: cut or never said.
    hold = next(s for s in heard if "hold still" in s)
    assert ["end", hold] not in log
    # The AI's move stood long enough to be said whole, with its move in words.
    ai = next(s for s in sentences if s.startswith("The AI plays"))
    move = ai.split()[3]
    assert "/" in move or "x" in move
    assert log[-1][0] == "end" and log[-1][1].startswith("The AI plays") and move not in log[-1][1]
    assert " to " in log[-1][1]


def test_without_espeak_the_voice_is_missed_in_one_line_and_the_game_goes_on(tmp_path: Path) -> None:
    empty = tmp_path / "nothing"
    empty.mkdir()
    result = play_script(
        tmp_path, str(empty), "lift a4\nwait 300\nplace a6\nwait 600\n", "--voice", "--humans"
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "magboard play: --voice: espeak-ng is not installed (on Debian or Raspberry Pi OS: sudo apt install "
        "espeak-ng): playing on without a voice\n"
    )
    assert '"move": "a4-a6"' in result.stdout


def test_an_unknown_voice_is_said_in_one_line() -> None:
    if os.environ.get("CI") is None and shutil.which("espeak-ng") is None:  # CI fails without it
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng; CI installs it)")
    result = run_cli("voice", "--voice", "xx-nosuch", "Light to move")
    assert result.returncode == 1
    assert (
        result.stderr
        == "magboard voice: espeak-ng has no voice 'xx-nosuch' (`espeak-ng --voices` lists them)\n"
    )


def wav_seconds_and_peak(path: Path) -> tuple[float, int]:
    with wave.open(str(path)) as wav:
        frames = wav.readframes(wav.getnframes())
        assert wav.getsampwidth() == 2
        samples = memoryview(frames).cast("h")
        return wav.getnframes() / wav.getframerate(), max(abs(s) for s in samples)


def test_the_voice_writes_what_it_would_say_as_a_wav(tmp_path: Path) -> None:
    if os.environ.get("CI") is None and shutil.which("espeak-ng") is None:  # CI fails without it
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng; CI installs it)")
    short, long = tmp_path / "short.wav", tmp_path / "long.wav"
    result = run_cli("voice", "--wav", str(short), "Light to move")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "Light to move\n"
    said = "To finish c1xd1: move Light's knight with its 2 rings from c1 to d1."
    result = run_cli("voice", "--game", "kingofrings", "--wav", str(long), said)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "To finish c1 takes d1: move Light's knight with its 2 rings from c1 to d1.\n"
    short_s, short_peak = wav_seconds_and_peak(short)
    long_s, long_peak = wav_seconds_and_peak(long)
    assert short_s > 0.5 and short_peak > 1000  # of 32767: a voice, not silence
    assert long_s > 2 * short_s and long_peak > 1000


# It reads nothing of its stdin, as an espeak-ng that fails at once: the sentence may meet a closed pipe.
SOUNDLESS = """#!/bin/sh
echo "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" >&2
echo "error: No such file or directory" >&2
"""


def test_a_voice_with_no_sound_card_says_so_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "espeak-ng"
    program.write_text(SOUNDLESS)
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/bin:/usr/bin")
    troubles: list[str] = []
    voice = Espeak("en", 175, troubles.append)
    for text in ("Light to move.", "Dark to move."):
        voice.speak(text, threading.Event())
    assert troubles == [
        "espeak-ng could not speak: ALSA lib confmisc.c:855:(parse_card) cannot find card '0'"
    ]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--game", "chess", "x"], "magboard voice: unknown game 'chess' (known: "),
        (["--voice-rate", "20", "x"], "argument --voice-rate: must be words a minute 80..450, got 20"),
        (["--voice", "en us", "x"], "argument --voice: must be a voice name such as 'en' or 'en-us'"),
    ],
)
def test_bad_input_to_the_voice_is_named_in_one_line(args: list[str], error: str) -> None:
    result = run_cli("voice", *args)
    assert result.returncode == 2
    assert error in result.stderr and result.stderr.count("\n") <= 4  # argparse's usage, then the error
