"""The Amazons as one package: amazons that move like chess queens, then shoot an arrow that stays.

``rules`` is the game (engines/game.py's interface, registered in pyproject.toml), exactly OpenSpiel's
``amazons`` (RULES.md in this package says them in words, with the notation ``d1-d7/g7``); ``board`` its
bitboards; ``table`` what it is on the table (Desdemona's queens and stones as amazons and arrows);
``policy`` and ``turns`` how the AI plays it.
"""
