"""Property-test budgets: each test's own number of examples in CI, more when asked for.

``HYPOTHESIS_PROFILE=thorough`` raises every property test to at least THOROUGH examples, e.g.
``HYPOTHESIS_PROFILE=thorough ./dev.sh test tests/tracking/test_session_noise.py`` runs the noise test
at 5,000 examples per board. ``HYPOTHESIS_PROFILE=quick`` lowers each to at most QUICK, for runs of
the same tests hundreds of times over (benchmarks/mutation.py).
"""

from __future__ import annotations

import os

from hypothesis import settings

THOROUGH = 5000
QUICK = 10
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.register_profile("ci", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=THOROUGH)
settings.register_profile("quick", deadline=None, max_examples=QUICK)
settings.load_profile(PROFILE)


def examples(budget: int) -> int:
    """A property test's number of examples: its own budget, raised to THOROUGH or lowered to QUICK."""
    if PROFILE == "thorough":
        return max(budget, THOROUGH)
    return min(budget, QUICK) if PROFILE == "quick" else budget
