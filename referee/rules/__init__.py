"""The game rules: tiles, house rules and their presets, deals, scoring, rulings, and the team
and draw games.

Pure functions and immutable values only: nothing here imports Flask, a database or the
rest of the package, and nothing reads or writes a file, so every rule can be checked by
calling it. Sentences for people come back as `text.Message` (an English msgid and its
parameters) for the web layer to translate.
"""
