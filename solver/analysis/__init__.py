"""The solver's view of a game a person plays: the position in words and the options of each
decision (`position`), an interactive game with undo and hints (`session`), and the analysis of
a whole game turn by turn, several positions solved at once (`review`).

This room sits above the solve driver (`solver.solve`), which it calls; it reads no files:
it takes positions (`GameState`) and lines, and the command line (`cli.interactive`,
`cli.analyse`) reads and writes the files.
"""
