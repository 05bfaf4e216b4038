"""Wiring a board up: the one place that builds its hardware and puts a game on it."""
