"""Property-test budgets: each test's own number of examples in CI, more when asked for.

``HYPOTHESIS_PROFILE=thorough`` raises every property test to at least THOROUGH examples, e.g.
``HYPOTHESIS_PROFILE=thorough ./dev.sh test tests/tracking/test_session_noise.py`` runs the noise test
at 5,000 examples per board.
"""

from __future__ import annotations

import os

from hypothesis import settings

THOROUGH = 5000
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.register_profile("ci", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=THOROUGH)
settings.load_profile(PROFILE)


def examples(budget: int) -> int:
    """A property test's number of examples: its own budget, or THOROUGH under the thorough profile."""
    return max(budget, THOROUGH) if PROFILE == "thorough" else budget
