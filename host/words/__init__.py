"""The board's words as a person meets them: spoken aloud, and every sentence of a game as a table."""
