"""Which cells a hand worked on since the last commit, and when: the evidence for what sensors cannot see.

Some changes read the same before and after (a knight captured by a knight, a
stone turned over under a reed switch, a tile without a magnet).  The sensors
only know such a cell was changed if its reading left the committed one for a
while on the way.  Evidence keeps, for each cell, the intervals its reading
differed from the committed position's, with the times the readings were
taken, so that a glitch shorter than a human touch counts for nothing, a
touch can be required to come in the order the move's steps happen (a
capture's landing cell is refilled after the capturing piece was lifted), and
a cell that stood changed for a while, though it reads as before now, can count
against a move that leaves it alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

# Longer than a knock, a dropout or a phantom (20-60 ms); shorter than a hand lifting a piece and putting it
# back, or turning it over (100 ms and more).
MIN_TOUCH_MS = 70
# A touch this long is a hand's for sure.  A knock of 60 ms can read 70-80 ms at the host (each end of it is
# reported up to a scan, and a snapshot's wait, late); a hand's lift and put, or its swap of one object
# for another, takes one action of 80 ms and more (100 ms and more for a person).  A change the sensors
# cannot see that only shorter touches show is not taken on its own: the player is asked to confirm it.
SURE_TOUCH_MS = 80
# A capture's landing the sensors cannot see (a knight put on the knight it takes, under a reed switch) is the
# one change a knock makes in full: the capturer in the air, the knight beside it knocked off and back reads
# exactly as the capture.  A knock of 60 ms reads up to 95 ms here (each end a scan and a heartbeat period
# late, firmware/README); a person taking a knight off and putting their own down takes 100 ms and more.
SURE_LANDING_MS = 100


@dataclass(frozen=True)
class Touch:
    """One interval a cell's reading differed from the committed one; ``end`` None while it still does."""

    start: int
    end: int | None = None
    # Whether it ended with the whole board reading as committed again: a piece lifted and put back where
    # it stood, with nothing else under way, which says nothing against the move made afterwards.
    back: bool = False
    # Whether it was over before the board last stood settled as committed: then it proves only a turn
    # (a piece turned over first reads as before once it is down), never another change (an amazon that
    # two hands lifted and put back is no arrow shot onto its square).
    earlier: bool = False

    def lasted(self, now: int) -> int:
        return (self.end if self.end is not None else now) - self.start


@dataclass(frozen=True)
class Evidence:
    """Touches per cell since the committed position last changed, and when each cell's reading last
    changed (also between two readings that both differ from the committed one), as an immutable value."""

    touches: Mapping[int, tuple[Touch, ...]] = field(default_factory=lambda: MappingProxyType({}))
    since: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))

    def observe(
        self, t_ms: int, before: Iterable[int], now: Iterable[int], changed: Iterable[int] = ()
    ) -> Evidence:
        """The evidence after a reading at ``t_ms`` that differs at ``now`` (and differed at ``before``),
        ``changed`` the cells whose reading it changed."""
        was, is_ = set(before), set(now)
        moved = (was ^ is_).union(changed)
        if not moved:
            return self
        touches = self.touches
        if was != is_:
            touches = dict(touches)
            for cell in is_ - was:
                touches[cell] = (*touches.get(cell, ()), Touch(t_ms))
            for cell in was - is_:
                *earlier, last = touches[cell]
                touches[cell] = (*earlier, Touch(last.start, t_ms, back=not is_))
            touches = MappingProxyType(touches)
        since = dict(self.since)
        since.update((cell, t_ms) for cell in moved)
        return Evidence(touches, MappingProxyType(since))

    def touched(self, cell: int, now: int) -> bool:
        """Whether a hand worked on ``cell``: its reading left the committed one for a human while."""
        return self.longest(cell, now) >= MIN_TOUCH_MS

    def longest(self, cell: int, now: int, ended_after: int | None = None, earlier: bool = True) -> int:
        """How long ``cell``'s longest touch lasted (0 if none), of those that ended after ``ended_after``
        if given (the cell was emptied and refilled after that), and of those since the board last stood
        as committed unless ``earlier``."""
        return max(
            (
                t.lasted(now)
                for t in self.touches.get(cell, ())
                if (ended_after is None or (t.end is not None and t.end > ended_after))
                and (earlier or not t.earlier)
            ),
            default=0,
        )

    def put_back(self) -> Evidence:
        """The evidence once the board stood settled as committed again: every touch so far ended with
        everything put back, so none counts against the move made next, and each proves a turn only: a
        Flip Four piece turned first on a reed board reads as before once it is down."""
        touches = {
            cell: tuple(replace(t, back=True, earlier=True) for t in ts) for cell, ts in self.touches.items()
        }
        return Evidence(MappingProxyType(touches), self.since)

    def earlier_cells(self) -> frozenset[int]:
        """The cells touched before the board last stood settled as committed."""
        return frozenset(cell for cell, ts in self.touches.items() if any(t.earlier for t in ts))

    def stood(self, cell: int, ms: int) -> bool:
        """Whether ``cell`` read changed for ``ms`` or longer and then read as committed again while
        other cells still differed (a repair under way, not a piece put back on a board otherwise as
        committed)."""
        return any(
            t.end is not None and not t.back and t.end - t.start >= ms for t in self.touches.get(cell, ())
        )

    def left(self, cell: int) -> int | None:
        """When ``cell`` last started to differ from the committed reading (a piece lifted from it)."""
        touches = self.touches.get(cell)
        return touches[-1].start if touches else None

    def first_left(self, cell: int) -> int | None:
        """When ``cell`` first began to differ from the committed reading: the earliest a piece left it."""
        touches = self.touches.get(cell)
        return touches[0].start if touches else None

    def cells(self, now: int) -> frozenset[int]:
        """Every cell with a human touch."""
        return frozenset(c for c in self.touches if self.touched(c, now))
