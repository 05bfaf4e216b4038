"""Evidence by tables: readings that differ from the committed position at some cells, and what it says.

Each row is worked out by hand from the docstrings of host/tracking/evidence.py: a touch is an interval a
cell's reading differed from the committed one, a hand's touch lasts at least MIN_TOUCH_MS (a knock of
20-60 ms does not, a hand lifting and putting back in 100 ms does), and a touch that ended with the
whole board as committed again was a piece put back ("back").
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from host.tracking.evidence import MIN_TOUCH_MS, Evidence, Touch


def touched_for(ms: int, at: int = 0, cell: int = 5) -> Evidence:
    """Cell ``cell`` read changed from ``at`` for ``ms``, then as committed again."""
    return Evidence().observe(at, (), [cell]).observe(at + ms, [cell], ())


def test_a_knock_is_no_touch_and_a_hand_putting_a_piece_back_is() -> None:
    assert not touched_for(60).touched(5, 1000)
    assert touched_for(100).touched(5, 1000)
    assert touched_for(100).cells(1000) == frozenset({5}) and touched_for(60).cells(1000) == frozenset()


def test_a_touch_of_exactly_the_minimum_counts() -> None:
    assert touched_for(MIN_TOUCH_MS).touched(5, 1000)
    assert not touched_for(MIN_TOUCH_MS - 1).touched(5, 1000)


def test_a_touch_still_under_way_lasts_until_now() -> None:
    evidence = Evidence().observe(100, (), [5])
    assert evidence.touches[5] == (Touch(100),)
    assert evidence.longest(5, 100 + MIN_TOUCH_MS) == MIN_TOUCH_MS and evidence.touched(5, 100 + MIN_TOUCH_MS)
    assert not evidence.touched(5, 99 + MIN_TOUCH_MS)


def test_an_untouched_cell_has_no_touch_at_all() -> None:
    evidence = touched_for(100)
    assert evidence.longest(6, 1000) == 0 and evidence.left(6) is None and evidence.first_left(6) is None


def test_a_touch_ended_with_the_whole_board_as_committed_is_a_piece_put_back() -> None:
    alone = touched_for(100)
    assert alone.touches[5] == (Touch(0, 100, back=True),)
    # Cell 6 still differs when 5 reads as committed again: a repair under way, not a piece put back.
    under_way = Evidence().observe(0, (), [5, 6]).observe(100, [5, 6], [6])
    assert under_way.touches[5] == (Touch(0, 100, back=False),) and under_way.touches[6] == (Touch(0),)
    assert under_way.stood(5, 100) and not under_way.stood(5, 101)
    assert not alone.stood(5, 100)  # put back: says nothing against the move made afterwards
    assert not under_way.stood(6, 1)  # still under way: it has not stood and come back


def test_only_the_touches_that_ended_after_a_time_count_when_asked() -> None:
    """Lifted 0-100, then 200-250: since 100 only the second ended after it (the cell refilled after)."""
    evidence = (
        Evidence().observe(0, (), [5]).observe(100, [5], ()).observe(200, (), [5]).observe(250, [5], ())
    )
    assert evidence.longest(5, 1000) == 100
    assert evidence.longest(5, 1000, ended_after=100) == 50
    assert evidence.longest(5, 1000, ended_after=250) == 0
    assert evidence.left(5) == 200 and evidence.first_left(5) == 0


def test_a_reading_that_changes_nothing_keeps_the_evidence_and_one_that_changes_a_cell_dates_it() -> None:
    evidence = Evidence().observe(10, (), [5])
    assert evidence.observe(20, [5], [5]) is evidence
    recoded = evidence.observe(30, [5], [5], changed=[5])  # another reading, still not the committed one
    assert recoded.touches == evidence.touches and recoded.since == {5: 30}


def test_evidence_and_touches_are_values() -> None:
    evidence = touched_for(100)
    with pytest.raises(FrozenInstanceError):
        evidence.touches = {}  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        evidence.touches[5][0].end = 1  # type: ignore[misc]
