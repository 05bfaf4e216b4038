"""Simulated twins of the board's hardware, behind the same interfaces as the real parts."""
