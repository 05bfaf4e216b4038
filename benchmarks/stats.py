"""The one percentile every benchmark reports, so that their p50 and p99 mean the same thing.

Nearest rank over the sorted values, without interpolation: a p99 is a time one run really took.
"""

from __future__ import annotations

from collections.abc import Iterable


def percentile(values: Iterable[float], q: float) -> float:
    """The value at fraction ``q`` (0 to 1) of the way from the least to the greatest, by nearest rank."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]
