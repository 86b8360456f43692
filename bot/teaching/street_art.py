"""Street Art's teaching table: the lessons, in the order they come up, and its deal."""

from __future__ import annotations

from bot.ai import EASY
from bot.i18n import N_
from bot.teaching import Course, Lesson, Moment, always, offered


def can_steal(moment: Moment) -> bool:
    """A Street Star in hand that another player shows on top: playing it steals."""
    takes = moment.view.get("takes", {})
    return any(take.get("from") not in (None, "middle") for take in takes.values())


COURSE = Course(
    game="street-art",
    seed="learn-street-art-13",
    within=9,
    ai_seats=2,
    level=EASY,
    lessons=(
        Lesson(
            "goal",
            N_(
                "The goal: most hearts when the middle runs out. Every card you play draws "
                "a crowd, counted in hearts."
            ),
            always,
        ),
        Lesson(
            "turn",
            N_(
                "A turn: play one card onto your pile, collect its hearts, and draw back to "
                "5 cards. A Street Star gives the hearts in its corner."
            ),
            always,
        ),
        Lesson(
            "steal",
            N_(
                "A Street Star that another player shows on top of their pile takes its "
                "hearts from them instead of the middle."
            ),
            can_steal,
        ),
        # Whose hearts Fireworks take is told with the card, where the learner decides to play
        # it: a lesson kept for the victim's menu came only to a learner who played Fireworks,
        # so one who followed other hints never heard it.
        Lesson(
            "fireworks",
            N_("Fireworks take 2 hearts from a player of your choice: the richest is often best."),
            offered("play", card="fireworks"),
        ),
        Lesson(
            "beatboxer",
            N_(
                "A Beatboxer takes one heart from the middle for every Beatboxer showing on "
                "top of a pile, yours included."
            ),
            offered("play", card="beatboxer"),
        ),
        Lesson(
            "brass-band",
            N_(
                "Brass Bands: play as many as you like in one turn (and nothing else), one "
                "heart from the middle each."
            ),
            offered("play", card="brass-band"),
        ),
        Lesson(
            "rain",
            N_(
                "Rain sends the crowd home: every other player loses hearts for their top "
                "card, then every pile is shuffled under the draw pile."
            ),
            offered("play", card="rain"),
        ),
    ),
)
