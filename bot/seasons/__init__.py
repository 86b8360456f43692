"""Seasons (issue 38): a server's table per game over a window of weeks, run by the scheduler."""
