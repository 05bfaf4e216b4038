"""A GTP engine's process: started from a command line, asked one command at a time with a deadline,
watched for dying, and stopped (asked to quit, then ended with everything it started) with the game.

It runs under a keeper (host/peers/gtp/keeper.py), which ends it and every process it started when it
ends, when it is stopped, and when this program ends however it ends.  Its output is read on threads
of their own, in bounded pieces, so that a question never blocks past its deadline and no answer or
message holds more than a bounded amount of memory however the engine misbehaves: an answer is at
most MAX_LINE per line and MAX_RESPONSE in all, and of what it writes on stderr only the last
STDERR_KEPT bytes are kept (its last line says why it died).  Every command carries an id, and an
answer must carry the id of the command it answers (or none): one for an earlier command, or one
that came before its command was asked, is refused as a surplus answer.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from typing import IO, NoReturn

from engines.game import quoted
from host.peers.gtp.protocol import MAX_LINE, GtpError, Reader, Response, command
from host.shown import one_line

# Debian installs its games (gnugo) in /usr/games, which root's PATH leaves out.
EXTRA_PATH = ("/usr/games",)
START_S = 30.0  # the first answer: an engine may load its patterns or book first
COMMAND_S = 10.0  # any other command but genmove
QUIT_S = 1.0  # after ``quit``, before the engine is ended; and after that, before its keeper is killed
CHUNK = 4096
STDERR_KEPT = 4096
LINE_CHARS = 80
SAID = 200  # characters of the engine's last stderr line said in a message
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
        self.said = quoted(line, LINE_CHARS)  # the engine in messages: its command line, quoted, bounded
        argv = resolve(split_command(line))
        keeper = [sys.executable, "-m", "host.peers.gtp.keeper", str(os.getpid()), *argv]
        try:
            self._process = subprocess.Popen(
                keeper,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # no Ctrl-C of ours reaches it: this program stops it
            )
        except OSError as exc:
            raise GtpError(f"{self.said} cannot start: {exc.strerror}") from None
        self._answers: queue.Queue[object] = queue.Queue()
        self._stderr = b""
        self._asked = 0  # the id of the last command sent
        assert self._process.stdout is not None and self._process.stderr is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self._process.stderr,), daemon=True).start()
        self.stopped = False

    def _read(self, stdout: IO[bytes]) -> None:
        reader, pending = Reader(), b""
        try:
            while chunk := os.read(stdout.fileno(), CHUNK):
                lines = (pending + chunk).split(b"\n")
                pending = lines.pop()
                if len(pending) >= MAX_LINE:
                    raise GtpError(f"answered a line of more than {MAX_LINE} bytes")
                for raw in lines:
                    response = reader.feed(raw.decode("utf-8", "replace"))
                    if response is not None:
                        self._answers.put(response)
        except GtpError as exc:
            self._answers.put(exc)
        except (OSError, ValueError):
            pass  # the pipe closed under us: the engine is being stopped
        stdout.close()  # now, not when collected: a service plays engine after engine
        self._answers.put(_EOF)

    def _drain(self, stderr: IO[bytes]) -> None:
        """Keep the last STDERR_KEPT bytes the engine wrote on stderr (newlines or not)."""
        with contextlib.suppress(OSError, ValueError):
            while chunk := os.read(stderr.fileno(), CHUNK):
                self._stderr = (self._stderr + chunk)[-STDERR_KEPT:]
        stderr.close()

    def last_said(self) -> str | None:
        """The engine's last line on stderr, as one printable line (escapes written out), bounded."""
        lines = [line for line in self._stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        return one_line(lines[-1], SAID) if lines else None

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
        said = self.last_said()
        return how if said is None else f"{how} (it said: {said})"

    def ask(self, name: str, *args: object, timeout: float = COMMAND_S) -> str:
        """The text of the engine's successful answer to a command; GtpError otherwise."""
        if self.stopped:
            raise GtpError(f"{self.said} is stopped")
        early = self._surplus()
        if early is not None:
            self._fault(early)
        self._asked += 1
        text = command(name, *args, id=self._asked)
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(text.encode())
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
        if answer.id is not None and answer.id != self._asked:
            self._fault(f"answered command {answer.id} when asked command {self._asked} ({name})")
        if not answer.ok:
            why = quoted(answer.text) if answer.text else "no reason given"
            raise GtpError(f"{self.said} refused {quoted(text.strip())}: {why}")
        return answer.text

    def _surplus(self) -> str | None:
        """What is wrong with an answer that came before its command was asked, if one did."""
        try:
            extra = self._answers.get_nowait()
        except queue.Empty:
            return None
        self._answers.put(extra)  # the end of its output, or its fault, is for the next question
        if not isinstance(extra, Response):
            return None
        return (
            f"answered once more than it was asked (command {extra.id or self._asked}, {quoted(extra.text)})"
        )

    def _wait_death(self) -> str:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(QUIT_S)
        return self.death()

    def _fault(self, words: str) -> NoReturn:
        self.close()
        raise GtpError(f"{self.said} {words}")

    def known(self) -> frozenset[str]:
        """The commands the engine says it knows."""
        return frozenset(self.ask("list_commands", timeout=START_S).split())

    def close(self) -> None:
        """Ask the engine to quit; end it if it has not within QUIT_S.  Either way its keeper ends every
        process it started, and is waited for."""
        if self.stopped:
            return
        self.stopped = True
        process = self._process
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(b"quit\n")
                process.stdin.flush()
            except (OSError, ValueError):
                pass
            for stop in (signal.SIGTERM, signal.SIGKILL):  # SIGKILL: the engine dies with its keeper
                try:
                    process.wait(QUIT_S)
                    break
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        process.send_signal(stop)
            process.wait()
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass  # the reader threads end at the pipes' end of file, which the engine's exit gives
