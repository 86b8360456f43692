"""ArtSee's teaching table: the lessons, in the order they come up, and its deal."""

from __future__ import annotations

from bot.ai import EASY
from bot.i18n import N_
from bot.teaching import Course, Lesson, Moment, always, offered


def visitors_waiting(moment: Moment) -> bool:
    """Some of the learner's visitors sit on their front cards: covering one scores them."""
    return moment.offers("card") and any(moment.me().get("visitors", []))


COURSE = Course(
    game="artsee",
    seed="learn-artsee-7",
    within=45,
    ai_seats=1,
    level=EASY,
    lessons=(
        Lesson(
            "goal",
            N_(
                "The goal: the most prestige at the end. Hang exhibits so their arrows point "
                "at art pieces of their category, and claim masterpieces."
            ),
            always,
        ),
        Lesson(
            "turn",
            N_(
                "A turn: play a card from your hand onto a column or a new column at either "
                "end, maybe claim a masterpiece, then draw a card."
            ),
            always,
        ),
        Lesson(
            "arrow",
            N_(
                "The card's arrow looks at the next column that way: each art piece there of "
                "the card's category scores 1. At an end it looks at your neighbour's gallery."
            ),
            offered("place"),
        ),
        Lesson(
            "draw",
            N_("Draw the top card of either pile: their backs show its category."),
            offered("draw"),
        ),
        Lesson(
            "visitors",
            N_(
                "When others play a category, your visitors sit on your front cards of it. "
                "Cover such a card with your own play: 1 point per visitor there."
            ),
            visitors_waiting,
        ),
        Lesson(
            "claim",
            N_(
                "This turn's prestige reaches a masterpiece of the played card's category: "
                "claim it for a free slot, one per category. It counts as an art piece."
            ),
            offered("claim"),
        ),
    ),
)
