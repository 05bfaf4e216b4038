"""GTP engines (GnuGo, Pachi, any Go Text Protocol program) as opponents: ``protocol`` reads and writes
the protocol's text, ``engine`` runs the process, ``game`` tells it a game and asks its moves, ``opponent``
and ``player`` put it at the board and in a match."""
