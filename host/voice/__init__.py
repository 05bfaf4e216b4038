"""The board's voice: its sentences said aloud through espeak-ng, for a player who looks at the board."""
