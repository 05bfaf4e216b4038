"""The King of Rings as one package: knights that win rings and jump as far as they carry.

``rules`` is the game (engines/game.py's interface, registered in pyproject.toml), ``table`` what it is on
the table (objects, words, drawing, why a game ends: engines/table.py), ``policy`` how the AI plays it.
"""
