"""Titles (issue 38, item 3): a few achievements for good play, not for volume, and the titles
players give each other at the end of a game."""
