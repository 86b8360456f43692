"""The bot's version: one place, read by pyproject.toml (setuptools' ``attr:``), ``python -m
bot --version``, every JSON log line and the ``tabletop_build_info`` metric. CHANGELOG.md says
what each version changed."""

__version__ = "0.3.0"
