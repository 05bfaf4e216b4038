"""What the program can do at a board it can reach into (a simulated one), and the hands' script.

Nothing here simulates anything: the protocols a simulated board's hands and reach meet
(capabilities.py), the script of a person's actions (script.py), and the actions that turn one
board into another (diff.py).  The page, the play command and the doctor use these, so that a real
board's path loads nothing of host/sim.
"""
