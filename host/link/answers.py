"""Commands that wait for their answer: each ACK or NAK goes to the thread that sent its command.

The device names the command it answers by its sequence number; an answer
that nobody waits for any more (it came too late) is dropped.
"""

from __future__ import annotations

import threading

from host.link.messages import Ack, Nak
from host.link.status import CommandRefused, LinkError


class _Waiter:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.reply: Ack | Nak | None = None


class Answers:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[int, _Waiter] = {}

    def expect(self, seq: int) -> None:
        """The command numbered seq is about to be sent: keep its answer (before it can arrive)."""
        with self._lock:
            self._waiting[seq] = _Waiter()

    def forget(self, seq: int) -> None:
        with self._lock:
            self._waiting.pop(seq, None)

    def deliver(self, reply: Ack | Nak) -> None:
        with self._lock:
            waiter = self._waiting.get(reply.seq)
        if waiter is not None:
            waiter.reply = reply
            waiter.done.set()

    def wait(self, seq: int, command: str, timeout: float) -> Ack:
        """The ACK for seq; LinkError when none came in time, CommandRefused for a NAK."""
        with self._lock:
            waiter = self._waiting[seq]
        try:
            if not waiter.done.wait(timeout):
                raise LinkError(f"{command}: no answer within {timeout} s")
        finally:
            self.forget(seq)
        reply = waiter.reply
        if isinstance(reply, Nak):
            raise CommandRefused(f"{command} refused ({reply.reason_name}): {reply.message}")
        assert isinstance(reply, Ack)
        return reply
