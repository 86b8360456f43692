"""Tournaments (issue 38): pairings, standings, and the service that runs them."""
