"""A damaged database found while the bot runs: told once, counted, and no write taken after it.

A damaged file is refused at start-up (``bot.store.startup``), but a page can go bad in the
middle of a file the start-up never reads, or later (a disk fault). Whoever finds it (a read or
a write that SQLite answers "database disk image is malformed", PostgreSQL's ``data_corrupted``,
the background check) hands it to the store's ``Damage``: from then on the store takes no
write (a write on a damaged b-tree can spread the damage), every player who reaches it is
answered with one sentence instead of an apology for a crash, ``/readyz`` says not ready, the
``tabletop_store_damaged`` counter counts it, and the log says once which file and how to
restore it (README, Backups).
"""

from __future__ import annotations

import logging

from bot import metrics
from bot.errors import ServiceError
from bot.i18n import N_, _
from bot.store.base import DamagedDatabase

log = logging.getLogger(__name__)

#: What every player who reaches a damaged store is told.
DAMAGED = N_("The game store is damaged; an admin has been told.")
#: What the admin does about it: README, Backups.
RESTORE = (
    "stop the bot, move the damaged file and its -wal and -shm files aside, copy the newest "
    "backup to its path, run `python -m bot check`, and start the bot again (README, Backups)"
)


class DamagedStore(DamagedDatabase, ServiceError):
    """The store is damaged: to the operator (``str``) which database and why; to the player
    (``message``, as every ``ServiceError``) one sentence in their language."""

    def __init__(self, detail: str) -> None:
        DamagedDatabase.__init__(self, detail)
        self.message = _(DAMAGED)


class Damage:
    """What one store knows of its own damage: nothing until ``found``, then the first
    finding, for good (a damaged file is repaired by a restore, which restarts the bot)."""

    def __init__(self, where: str) -> None:
        #: The database, as the log names it (a path, or a PostgreSQL server and database).
        self.where = where
        #: Why the store is damaged (None: it is not known to be).
        self.detail: str | None = None

    def found(self, detail: str) -> DamagedStore:
        """The store is damaged (``detail``: what said so): the error to raise. The first
        finding is logged with the file and the restore steps, and counted."""
        if self.detail is None:
            self.detail = " ".join(detail.split())[:300]
            metrics.STORE_DAMAGED.inc()
            log.error(
                "the database %s is damaged (%s): it takes no more writes; %s",
                self.where,
                self.detail,
                RESTORE,
            )
        return DamagedStore(f"the database {self.where} is damaged ({self.detail})")

    def heal(self) -> None:
        """The whole file checks out again (a damaged index met at run time, rebuilt since):
        the store takes writes again."""
        log.warning(
            "the database %s checks out again (%s was a damaged index, rebuilt): it takes "
            "writes again",
            self.where,
            self.detail,
        )
        self.detail = None

    def refuse_writes(self) -> None:
        """Raise the damage, if any, before a write."""
        if self.detail is not None:
            raise self.found(self.detail)
