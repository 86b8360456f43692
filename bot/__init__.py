"""The application: settings, store, service, AI and demo. It speaks in ids, records and views;
the Discord bot that drives it lives in the Discord layer (``cogs.app``)."""
