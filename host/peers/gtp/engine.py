"""A GTP engine's process: started from a command line, asked one command at a time with a deadline,
watched for dying, and stopped (asked to quit, then killed) with the game.

Its output is read on a thread of its own, so that a question never blocks
past its deadline however the engine misbehaves; what it writes on stderr is
kept (the last lines) to say why it died.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
from collections import deque
from typing import IO, NoReturn

from host.peers.gtp.protocol import MAX_LINE, GtpError, Reader, Response, command

# Debian installs its games (gnugo) in /usr/games, which root's PATH leaves out.
EXTRA_PATH = ("/usr/games",)
START_S = 30.0  # the first answer: an engine may load its patterns or book first
COMMAND_S = 10.0  # any other command but genmove
QUIT_S = 1.0  # after ``quit``, before the engine is killed
_EOF = object()


def resolve(argv: list[str]) -> list[str]:
    """The command line with its program found on PATH (or in EXTRA_PATH); GtpError if it is nowhere."""
    program = argv[0]
    found = shutil.which(program) or shutil.which(program, path=os.pathsep.join(EXTRA_PATH))
    if found is None:
        raise GtpError(f"{program!r} is not a program on PATH")
    return [found, *argv[1:]]


def split_command(line: str) -> list[str]:
    """A command line as a shell would split it; GtpError when it is empty or unbalanced."""
    try:
        argv = shlex.split(line)
    except ValueError as exc:
        raise GtpError(f"cannot read the command line {line!r}: {exc}") from None
    if not argv:
        raise GtpError("the engine's command line is empty")
    return argv


class GtpEngine:
    """One running engine.  ``ask`` raises GtpError (one line, naming the engine) on any fault, and the
    engine is stopped then: a fault is never retried."""

    def __init__(self, line: str) -> None:
        self.line = line
        argv = resolve(split_command(line))
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                start_new_session=True,  # its own process group: stopped whole, and no Ctrl-C of ours
            )
        except OSError as exc:
            raise GtpError(f"{line!r} cannot start: {exc.strerror}") from None
        self._answers: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=3)
        assert self._process.stdout is not None and self._process.stderr is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self._process.stderr,), daemon=True).start()
        self.stopped = False

    def _read(self, stdout: IO[str]) -> None:
        reader = Reader()
        try:
            while line := stdout.readline(MAX_LINE):
                if len(line) >= MAX_LINE:
                    raise GtpError(f"answered a line of more than {MAX_LINE} characters")
                response = reader.feed(line)
                if response is not None:
                    self._answers.put(response)
        except GtpError as exc:
            self._answers.put(exc)
        except (OSError, ValueError):
            pass  # the pipe closed under us: the engine is being stopped
        self._answers.put(_EOF)

    def _drain(self, stderr: IO[str]) -> None:
        try:
            for line in stderr:
                if line.strip():
                    self._stderr.append(line.strip()[:200])
        except (OSError, ValueError):
            pass

    @property
    def died(self) -> bool:
        """Whether the engine ended by itself (not stopped by us)."""
        return not self.stopped and self._process.poll() is not None

    def death(self) -> str:
        """Why the engine is gone, in words."""
        code = self._process.poll()
        if code is None:
            return "stopped"
        how = f"killed by signal {-code}" if code < 0 else f"exited with status {code}"
        last = f" (it said: {self._stderr[-1]})" if self._stderr else ""
        return f"{how}{last}"

    def ask(self, name: str, *args: object, timeout: float = COMMAND_S) -> str:
        """The text of the engine's successful answer to a command; GtpError otherwise."""
        if self.stopped:
            raise GtpError(f"{self.line!r} is stopped")
        text = command(name, *args)
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(text)
            stdin.flush()
        except (OSError, ValueError):
            self._fault(f"died ({self._wait_death()}) before {name}")
        try:
            answer = self._answers.get(timeout=timeout)
        except queue.Empty:
            self._fault(f"gave no answer to {name} within {timeout:g} s")
        if answer is _EOF:
            self._fault(f"died ({self._wait_death()}) answering {name}")
        if isinstance(answer, GtpError):
            self._fault(f"{answer} to {name}")
        assert isinstance(answer, Response)
        if not answer.ok:
            raise GtpError(f"{self.line!r} refused {text.strip()!r}: {answer.text or 'no reason given'}")
        return answer.text

    def _wait_death(self) -> str:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(QUIT_S)
        return self.death()

    def _fault(self, words: str) -> NoReturn:
        self.close()
        raise GtpError(f"{self.line!r} {words}")

    def known(self) -> frozenset[str]:
        """The commands the engine says it knows."""
        return frozenset(self.ask("list_commands", timeout=START_S).split())

    def close(self) -> None:
        """Ask the engine to quit; kill it (its whole process group) if it has not within QUIT_S."""
        if self.stopped:
            return
        self.stopped = True
        process = self._process
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                process.wait(QUIT_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass  # the reader threads end at the pipes' end of file, which the engine's exit gives
