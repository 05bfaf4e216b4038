"""Board descriptions kept as data files, so that a new layout is a new file, not new rules code."""
