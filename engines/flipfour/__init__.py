"""Flip Four as one package: two-sided pieces placed and jumped, a line of exactly four.

``rules`` is the game (engines/game.py's interface, registered in pyproject.toml), ``table`` what it is on
the table (objects, words, drawing, why a game ends: engines/table.py), ``policy`` how the AI plays it.
"""
