"""The game store: every game played, kept in one SQLite database.

Every committed move is one transaction (WAL, synchronous=FULL) written before
the LEDs change, so a power cut or a full disk never loses a committed move;
one process owns a game at a time; past games can be listed, shown, exported
as text records and imported.  Old journal files are imported once.
"""
