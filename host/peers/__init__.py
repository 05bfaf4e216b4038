"""Other programs as players: OpenSpiel's bot as a baseline and cross-check, and GTP engines (``gtp``) as
opponents at the board and in matches."""
