"""The web table (issue 26): a second front door over the same service as ``cogs/``.

Cogs turn Discord interactions into service calls; this package turns HTTP requests into the
same calls. It knows no discord.py, and ``bot/`` knows neither of them (tests/test_layers.py).
"""
