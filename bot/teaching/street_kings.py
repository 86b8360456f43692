"""Street Kings' teaching table: the lessons, in the order they come up, and its deal."""

from __future__ import annotations

from bot.ai import EASY
from bot.i18n import N_
from bot.teaching import Course, Lesson, always, offered

COURSE = Course(
    game="street-kings",
    seed="learn-street-kings-0",
    within=26,
    ai_seats=1,
    level=EASY,
    lessons=(
        Lesson(
            "goal",
            N_(
                "The goal: gold trophies, won in races. The first to win a seventh gold "
                "brings on a final championship; the most gold then wins."
            ),
            always,
        ),
        Lesson(
            "turn",
            N_(
                "A round: each player takes one action in turn until everyone has qualified "
                "or passed, then the qualified cars race."
            ),
            always,
        ),
        Lesson(
            "qualify",
            N_(
                "Qualify to race: take a free lane (lane 1 moves first). You still take "
                "actions later in the round."
            ),
            offered("qualify"),
        ),
        Lesson(
            "show",
            N_(
                "The car show: park a car to earn its beauty in credits now; it cannot race "
                "this round."
            ),
            offered("show"),
        ),
        Lesson(
            "shop",
            N_(
                "The shop: sell upgrades for half their price, then buy one upgrade for a "
                "car, one of each colour per car."
            ),
            offered("shop"),
        ),
        Lesson(
            "location",
            N_(
                "A location card adds two stats of road. Prizes are paid from the card on "
                "spot 2 only."
            ),
            offered("place"),
        ),
        Lesson(
            "race",
            N_(
                "Race a car of the race class or one below: it moves its stars in each "
                "stat of the road, lap after lap."
            ),
            offered("race"),
        ),
        Lesson(
            "dealer",
            N_(
                "The dealership sells cars one class above one you own; sell a car there "
                "for half its price."
            ),
            offered("dealer"),
        ),
    ),
)
