"""Other programs' game interfaces wrapped around our engines, for baselines and cross-checks."""
