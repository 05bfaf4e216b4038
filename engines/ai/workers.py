"""The worker processes a timed search shares its work with: one fewer than the cores this process may
run on, started once and ahead of the first question, and ended with the program.

The cores are the process's affinity (``taskset``, a cgroup's cpuset), not the machine's count: a
search pinned to one core that started a worker per core of the machine spent its second starting
them (depth 0 in 11 runs of 16 under ``taskset -c 0``), where one process alone reaches depth 2.

The workers are started by a fork server: a process of its own, started fresh, that has imported the
engines and forks each worker from itself.  So no worker is ever forked from this process, whose
other threads (the board link, the page, the session loop) could hold locks a forked child would
inherit held.  Starting the fork server and the workers takes a fresh interpreter importing the
engines (most of a second on a loaded machine, more on a Pi), so they start on a thread of their
own, and a search uses them only once every one of them is up: until then it searches in this
process, within its time, rather than spend that time starting processes.  Whoever knows a question
is coming (a session being set up, ``magboard analyse``) starts them first, naming the game's modules:
a worker that met the game only in its first task would import them then (their tables are built at
import: seconds under emulation, or on a slow Pi) and miss that search's deadline.

As with any such start method, a script that searches with several workers keeps its top-level code
under ``if __name__ == "__main__":`` (a worker imports the main module).
"""

from __future__ import annotations

import atexit
import importlib
import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Sequence
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any

START_METHOD = "forkserver"
# Imported once by the fork server, so that a worker starts with the engines loaded.
PRELOAD = ["engines.ai", "engines.registry"]
# How long the workers may take to start; past it they are given up on (searches stay in this process).
START_S = 60.0
HOLD_POLL_S = 0.005


def cores() -> int:
    """The processors this process may run on."""
    process_cpu_count = getattr(os, "process_cpu_count", None)  # Python 3.13: the affinity, or -X cpu_count
    if process_cpu_count is not None:
        return int(process_cpu_count() or 1)
    return len(os.sched_getaffinity(0))


# In a worker: how many of its pool's workers hold a start-up task (shared by the pool, set by ``_arrive``).
_holding: Any = None


def _arrive(holding: Any, preload: tuple[str, ...], owner: int) -> None:
    global _holding
    # Ctrl-C at a terminal reaches the whole process group: the workers' owner stops them (stop).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with(owner)
    for module in preload:  # before the worker counts as up (its start-up task comes after this)
        importlib.import_module(module)
    _holding = holding


def _end_with(owner: int) -> None:
    """End this worker when the process that started the pool ends, however it ends (kill -9, the
    out-of-memory killer): its owner's ``stop`` is then never called, and a worker holds both ends of
    its task queue's pipe and the fork server's, so none of them ever read an end of file (the workers,
    their fork server and the resource tracker were left running).  The owner is watched through a
    pidfd (Linux; elsewhere the owner's ``stop`` alone ends them)."""
    if not hasattr(os, "pidfd_open"):
        return
    try:
        watched = os.pidfd_open(owner)
    except ProcessLookupError:
        os._exit(0)  # ended already
    threading.Thread(target=_exit_at, args=(watched,), name="owner", daemon=True).start()


def _exit_at(watched: int) -> None:
    select.select([watched], [], [])  # readable once the owner has ended
    os._exit(0)


def _hold(size: int) -> int:
    """Keep this worker busy until ``size`` workers hold one of these: while no worker is idle, each
    task submitted starts a worker of its own, so ``size`` of these start the whole pool, one each."""
    with _holding.get_lock():
        _holding.value += 1
    end = time.monotonic() + START_S
    while _holding.value < size and time.monotonic() < end:
        time.sleep(HOLD_POLL_S)
    return os.getpid()


class _Pool:
    """``size`` workers, started on a thread of this pool's own; ``ready`` once every one is up, until
    stopped."""

    def __init__(self, size: int, preload: tuple[str, ...]) -> None:
        self.size = size
        self.preload = preload
        self.ready = threading.Event()
        self.executor: ProcessPoolExecutor | None = None
        self._holding: Any = None  # how many workers hold a start-up task, shared with them
        self.stopped = False
        self._lock = threading.Lock()
        self._starting = threading.Thread(target=self._start, name="ai-workers", daemon=True)
        self._starting.start()

    def _start(self) -> None:
        try:
            context = multiprocessing.get_context(START_METHOD)
            context.set_forkserver_preload(PRELOAD)
            holding = context.Value("i", 0)
            with self._lock:
                if self.stopped:
                    return
                self._holding = holding
                self.executor = ProcessPoolExecutor(
                    self.size,
                    mp_context=context,
                    initializer=_arrive,
                    initargs=(holding, self.preload, os.getpid()),
                )
            futures = [self.executor.submit(_hold, self.size) for _ in range(self.size)]
            pids = {future.result(START_S) for future in futures}
        except (BrokenProcessPool, CancelledError, FutureTimeout, RuntimeError, OSError):
            return  # not ready, ever: searches stay in this process (RuntimeError: stopped meanwhile)
        if len(pids) == self.size:
            self.ready.set()

    def stop(self, wait: bool) -> None:
        """End the workers (``wait``: and wait until they have ended)."""
        with self._lock:
            self.stopped = True
            executor, holding = self.executor, self._holding
        if holding is not None:
            with holding.get_lock():
                holding.value = self.size  # no worker waits for the others any more
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)
        if wait:
            self._starting.join()


_lock = threading.Lock()
_pool: _Pool | None = None


def start(size: int, preload: Sequence[str] = ()) -> None:
    """Start ``size`` workers in the background, with the modules ``preload`` imported, unless at least
    that many are running or starting (their modules then are imported by each worker on first use)."""
    global _pool
    if size < 1:
        return
    with _lock:
        if _pool is not None and _pool.size >= size:
            return
        old, _pool = _pool, _Pool(size, tuple(preload))
    if old is not None:
        old.stop(wait=False)


def ready(size: int) -> ProcessPoolExecutor | None:
    """At least ``size`` workers if every one of them is up, else None (and they are starting)."""
    start(size)
    pool = _pool
    if pool is None or pool.size < size or not pool.ready.is_set() or pool.stopped:
        return None
    return pool.executor


def wait(timeout: float) -> bool:
    """Wait until the workers started are up; False if they are not by ``timeout`` (or none were)."""
    pool = _pool
    return pool is not None and pool.ready.wait(timeout)


def forget() -> None:
    """Drop a pool whose worker died, so that the next search starts a new one."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.stop(wait=False)


def stop() -> None:
    """End every worker and wait until they have ended: how a program that searched leaves (a service
    stopped by SIGTERM included), its fork server then ending with it."""
    global _pool
    pool = _pool
    if pool is None:
        return
    pool.stop(wait=True)  # interrupted (a second signal), the next call stops it again
    with _lock:
        if _pool is pool:
            _pool = None


# Dropped at exit while the modules it needs are still there: compiled (mypyc), this module's globals
# outlive them, and the pool's clean-up would fail noisily at the very end.
atexit.register(forget)
