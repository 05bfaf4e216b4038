"""How a command that runs until stopped ends: every process it started ends with it.

SIGTERM (what systemd sends to stop the service) unwinds the main thread as Ctrl-C does, so the board,
the firmware or emulator process, the page and the store close on the way out; then the AI's worker
processes are ended and waited for (their fork server and resource tracker end with this process:
they hold only pipes from it and from the workers).  Afterwards the process ends by SIGTERM itself,
so its parent sees it stopped, not failed.  SIGTERM's own action left the workers, their fork server
and a resource tracker behind, parented to init.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType

from engines.ai.workers import stop as stop_workers


class Terminated(BaseException):
    """SIGTERM arrived.  Not an Exception, so that no handler of errors takes it for one."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the clean-up short
    raise Terminated


def until_stopped(work: Callable[[], int]) -> int:
    """``work``'s exit status; the AI's workers ended however it ends (Ctrl-C included), and after a
    SIGTERM this process ended by it.  Outside the main thread (which alone receives signals) SIGTERM
    keeps its own action."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main else None
    try:
        try:
            return work()
        finally:
            stop_workers()
    except KeyboardInterrupt:
        if not main:
            raise
        # Unwound as for SIGTERM; then ended here, as SIGTERM's path ends by its signal: the interpreter's
        # own exit would join the AI's thread, which may wait on the workers just stopped (a Ctrl-C at a
        # loaded moment left `play` hanging after it had closed everything).
        print(file=sys.stderr)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(130)
    except Terminated:
        stop_workers()  # again: a SIGTERM during the clean-up cut it short (no other can come now)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)
        raise  # not reached: the signal's own action has ended the process
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
