"""Three in a Row: noughts and crosses with stones on a 3x3 board, a game from outside magboard."""
