"""Go 7x7 as one package: stones placed on the points, groups taken off whole, area scoring with komi.

``rules`` is the game (engines/game.py's interface, registered in pyproject.toml) and ``rules.md`` its rules
in words, those of OpenSpiel's ``go`` with board_size 7; ``board`` the bitboards; ``table`` what it is on the
table (objects, words, drawing, why a game ends: engines/table.py), ``policy`` how the AI plays it.
"""
