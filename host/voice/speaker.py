"""Saying the board's sentences aloud, without ever holding the board up.

A player looks at the board, not at a screen, and a blind or low-vision player
can feel the pieces but not read the page: so the board speaks (as PicoChess
does).  The live loop must never wait for a voice, and a sentence the board has
moved on from is worth nothing, so the ``Speaker`` keeps one sentence waiting at
most: a newer one replaces it unspoken, and cuts the one being said.  The
speaking happens on the speaker's own thread, through a ``Voice``: espeak-ng
(Debian's ``espeak-ng``, on the Pi's audio output), or a test's recorder.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from engines.game import Game, M, P
from host.session.session import Event, EventKind
from host.words.spoken import spoken

PROGRAM = "espeak-ng"
INSTALL = "on Debian or Raspberry Pi OS: sudo apt install espeak-ng"
POLL_S = 0.02  # how soon a cut stops the sentence being said
CLOSE_S = 2.0


class VoiceError(Exception):
    """No voice can speak: espeak-ng is missing or does not know the voice asked for (one line)."""


class Voice(Protocol):
    def speak(self, text: str, cut: threading.Event) -> None:
        """Say ``text``; return once it is said, or soon after ``cut`` is set."""


class Espeak:
    """espeak-ng as a voice: one process a sentence, the text on its stdin (never parsed as an option).

    ``trouble`` hears, once, why it cannot speak (a Pi without a sound card).
    """

    def __init__(self, voice: str, rate: int, trouble: Callable[[str], None]) -> None:
        program = shutil.which(PROGRAM)
        if program is None:
            raise VoiceError(f"{PROGRAM} is not installed ({INSTALL})")
        self.command = [program, "-v", voice, "-s", str(rate)]
        checked = subprocess.run([*self.command, "-q"], input="", capture_output=True, text=True, check=False)
        if checked.returncode != 0:
            raise VoiceError(f"{PROGRAM} has no voice {voice!r} (`{PROGRAM} --voices` lists them)")
        self.trouble = trouble
        self.troubled = False

    def speak(self, text: str, cut: threading.Event) -> None:
        try:
            process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                text=True,
            )  # fmt: skip
        except OSError as exc:  # removed while the board plays: said once, the board plays on
            self._troubled(f"{PROGRAM}: {exc.strerror}")
            return
        assert process.stdin is not None and process.stderr is not None
        try:
            process.stdin.write(text)
            process.stdin.close()
        except BrokenPipeError:  # it ended without reading: its stderr says why
            pass
        while process.poll() is None:
            if cut.wait(POLL_S):
                process.terminate()
                break
        process.wait()
        said = process.stderr.read().strip()
        process.stderr.close()
        # A Pi without a sound card: espeak-ng says so on stderr for every sentence (and exits 0).
        if said:
            self._troubled(f"{PROGRAM} could not speak: {said.splitlines()[0]}")

    def _troubled(self, line: str) -> None:
        if not self.troubled:
            self.troubled = True
            self.trouble(line)

    def write_wav(self, text: str, path: Path) -> None:
        """What would be said, as a WAV file; VoiceError says why it could not be written."""
        done = subprocess.run([*self.command, "-w", str(path)], input=text, capture_output=True, text=True)
        if done.returncode != 0 or not path.is_file():
            said = done.stderr.strip().splitlines()
            raise VoiceError(f"{PROGRAM} could not write {path}: {said[0] if said else 'no reason given'}")


class Speaker:
    """Says the newest sentence on its own thread; ``say`` never waits."""

    def __init__(self, voice: Voice) -> None:
        self.voice = voice
        self._changed = threading.Condition()
        self._next: str | None = None  # the one sentence waiting, at most
        self._cut = threading.Event()  # set: the sentence being said is old news
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, text: str) -> None:
        """Say ``text`` next: it replaces a sentence not yet begun, and cuts the one being said."""
        with self._changed:
            self._next = text
            self._cut.set()
            self._changed.notify()

    def close(self) -> None:
        """Stop speaking (what is being said is cut) and let the thread end."""
        with self._changed:
            self._closed = True
            self._cut.set()
            self._changed.notify()
        self._thread.join(CLOSE_S)

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._next is None and not self._closed:
                    self._changed.wait()
                text, self._next = self._next, None
                if self._closed or text is None:
                    return
                self._cut.clear()  # under the lock: a cut from now on is for this sentence
            self.voice.speak(text, self._cut)


def telling(game: Game[P, M], speaker: Speaker) -> Callable[[Event], None]:
    """A session listener that says each new sentence of the board, and each notice (the board unplugged,
    moves not saved), as they are said aloud (host/words/spoken.py): the AI's move and the outcome are
    sentences of their own."""

    def listen(event: Event) -> None:
        words = event.data.get("sentence") if event.kind is EventKind.INTENT else event.data.get("words")
        if event.kind in (EventKind.INTENT, EventKind.NOTICE) and isinstance(words, str):
            speaker.say(spoken(game, words))

    return listen
