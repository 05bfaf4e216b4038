"""Space Tiles as one package: tiles placed from a supply, pieces moved or placed on them.

``rules`` is the game (engines/game.py's interface, registered in pyproject.toml), ``table`` what it is on
the table (objects, words, drawing, why a game ends: engines/table.py), ``policy`` how the AI plays it.
"""
