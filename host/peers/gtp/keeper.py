"""Keeps a GTP engine from outliving the program that plays it: ``python -m host.peers.gtp.keeper PID ARGV``
(PID: the program's own, which started the keeper).

An engine is any program, and may start programs of its own; ending the engine's process group when it
is done left those running that had put themselves in a session of their own, and nothing at all was
ended when the program playing it was killed (kill -9, the out-of-memory killer).  So every engine runs
under a keeper, a child of the program playing it, that

- starts the engine in a session and process group of its own (so that a Ctrl-C at the terminal reaches
  only the program, which decides), and dying with the keeper (PR_SET_PDEATHSIG);
- is the subreaper of everything the engine starts (PR_SET_CHILD_SUBREAPER): a process orphaned below it,
  even one detached into a session of its own, becomes its child rather than init's;
- waits (no polling: pidfds) for the engine to end, for the program to end however it ends, or for
  SIGTERM, SIGINT or SIGHUP; then kills the engine's group and every process left below it, reaps them,
  and exits as the engine did (its status, or its signal), for the program to say how it died.

The engine's stdin, stdout and stderr are the keeper's own, handed over: the keeper reads none of them.
Linux only (pidfds, prctl), as the board's host is.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import sys
from types import FrameType

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
STOPPING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
CANNOT_START = 127  # as a shell says of a command it cannot run


class _Stop(BaseException):
    """One of STOPPING arrived."""


def _prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}) failed")


def _die_with_keeper() -> None:
    """In the engine, before it runs: killed whenever the keeper dies, even by SIGKILL."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _stop(signum: int, frame: FrameType | None) -> None:
    for stopping in STOPPING:
        signal.signal(stopping, signal.SIG_IGN)  # nothing cuts the clean-up short
    raise _Stop


def children() -> list[int]:
    """This process's children now (the engine's orphans among them, this being their subreaper)."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                text = stat.read()
        except OSError:
            continue  # ended meanwhile
        fields = text[text.rindex(b")") + 2 :].split()  # the name in parentheses may hold spaces
        if int(fields[1]) == me:
            found.append(int(entry))
    return found


def end_all(engine: subprocess.Popen[bytes]) -> int:
    """Kill the engine's group and everything left below this process, reap them all; the engine's status."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(engine.pid, signal.SIGKILL)  # the group outlives its leader while any member is left
    status = engine.wait()
    while left := children():  # a process killed orphans its own children, which come here: again
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in left:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    return status


def main(argv: list[str]) -> int:
    owner, argv = int(argv[0]), argv[1:]
    for signum in STOPPING:
        signal.signal(signum, _stop)
    try:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
        try:
            watched = os.pidfd_open(owner)
        except ProcessLookupError:
            return CANNOT_START  # the program has ended already: nobody to play for
        if os.getppid() != owner:
            return CANNOT_START  # it ended, and its pid is another process's now
        try:
            engine = subprocess.Popen(argv, start_new_session=True, preexec_fn=_die_with_keeper)
        except OSError as exc:
            print(f"cannot start {argv[0]}: {exc.strerror}", file=sys.stderr, flush=True)
            return CANNOT_START
        with contextlib.suppress(_Stop):
            ended = os.pidfd_open(engine.pid)
            for stream in (0, 1):  # the engine's now: its end of file is the program's
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, stream)
                os.close(null)
            select.select([watched, ended], [], [])
    except _Stop:
        return 128 + signal.SIGTERM  # before the engine started
    for signum in STOPPING:
        signal.signal(signum, signal.SIG_IGN)  # nothing cuts the clean-up short
    status = end_all(engine)
    if status < 0:
        with contextlib.suppress(OSError):  # SIGKILL's action is its own already
            signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
