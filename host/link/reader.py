"""The device's messages out of the byte stream, and what was lost on the way.

The layer under the protocol: it cuts the stream into frames, checks each one
(COBS, CRC, sequence number) and parses the message it carries, counting what
it drops. Whatever arrives before the first valid frame since ``reset`` is
the tail of something else (the REPL's banner, half a frame) and is discarded
quietly; after that a bad frame is counted as one.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from host.link.frames import PROTOCOL_VERSION, FrameError, FrameSplitter, decode_frame
from host.link.messages import DeviceMessage, MessageError, parse_device_message
from host.link.status import LinkStats

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Gap:
    """Frames were lost: the frame numbered seq came when expected was due."""

    seq: int
    expected: int


class FrameReader:
    def __init__(self) -> None:
        self.stats = LinkStats()  # frames, discarded, bad_frames, bad_messages and gaps
        self._splitter = FrameSplitter()
        self._synced = False
        self._seq: int | None = None

    def reset(self) -> None:
        """A new stream (the port opened again): nothing before it counts, and no sequence is expected."""
        self._splitter.reset()
        self._synced = False
        self._seq = None

    def feed(self, data: bytes) -> list[DeviceMessage | Gap]:
        """The messages in data (and the gaps before them, in place), in the order they came."""
        out: list[DeviceMessage | Gap] = []
        for chunk in self._splitter.feed(data):
            self._chunk(chunk, out)
        return out

    def _chunk(self, chunk: bytes | None, out: list[DeviceMessage | Gap]) -> None:
        try:
            if chunk is None:
                raise FrameError("long", "longer than any frame")
            frame = decode_frame(chunk)
        except FrameError as exc:
            if self._synced:
                self.stats += LinkStats(bad_frames=1)
                log.debug("bad frame (%s): %s", exc.reason, exc)
            else:
                self.stats += LinkStats(discarded=1)
            return
        self._synced = True
        self.stats += LinkStats(frames=1)
        if frame.version == PROTOCOL_VERSION:
            expected = None if self._seq is None else (self._seq + 1) & 0xFFFF
            self._seq = frame.seq
            if expected is not None and frame.seq != expected:
                self.stats += LinkStats(gaps=1)
                out.append(Gap(frame.seq, expected))
        try:
            out.append(parse_device_message(frame))
        except MessageError as exc:
            self.stats += LinkStats(bad_messages=1)
            log.debug("bad message: %s", exc)
