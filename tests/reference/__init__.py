"""Independent reference implementations of the four games, written from RULES.md alone.

They exist to cross-check the engines (tests/test_reference_agreement.py): plain
code with string cell names and dicts, mirroring the wording of RULES.md so a
reviewer can check each rule against the text line by line. They are never used
by the program itself, and speed is not a goal.

Every module has the same functions:
  initial(options) -> state, legal(state) -> sorted move texts, apply(state, move) -> state (play: the
  same without checking that the move is legal, for moves just taken from legal()),
  to_move(state) -> 0 | 1, result(state) -> None | (winner or None, score or None),
  score(state) -> [player 0, player 1] for games that count points, else None.
"""
