"""Snapshots handed from the link's thread to whoever reads them, oldest first, until the link closes."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator

from host.link.snapshot import Snapshot
from host.link.status import LinkError

SNAPSHOT_QUEUE = 1024  # a reader this far behind loses the oldest


class SnapshotQueue:
    def __init__(self, size: int = SNAPSHOT_QUEUE) -> None:
        self._items: deque[Snapshot] = deque(maxlen=size)
        self._ready = threading.Condition()
        self._closed = False

    def put(self, snapshot: Snapshot) -> None:
        with self._ready:
            self._items.append(snapshot)
            self._ready.notify_all()

    def close(self) -> None:
        """No more snapshots: readers get what is left, then LinkError."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()

    def next(self, timeout: float) -> Snapshot:
        """The oldest snapshot not read yet; TimeoutError, or LinkError once closed and empty."""
        with self._ready:
            if not self._ready.wait_for(lambda: self._items or self._closed, timeout):
                raise TimeoutError(f"no snapshot within {timeout} s")
            if not self._items:
                raise LinkError("the link is closed")
            return self._items.popleft()

    def each(self, timeout: float | None = None) -> Iterator[Snapshot]:
        """Snapshots as they come, until the queue closes (or none came for timeout seconds)."""
        while not self._closed:
            try:
                yield self.next(timeout if timeout is not None else 3600.0)
            except TimeoutError:
                if timeout is not None:
                    return
            except LinkError:
                return
