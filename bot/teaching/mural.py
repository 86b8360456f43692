"""Mural's teaching table: the lessons, in the order they come up, and its deal."""

from __future__ import annotations

from bot.ai import EASY
from bot.i18n import N_
from bot.teaching import Course, Lesson, always, offered

COURSE = Course(
    game="street-art-mural",
    seed="learn-street-art-mural-5",
    within=26,
    ai_seats=1,
    level=EASY,
    lessons=(
        Lesson(
            "goal",
            N_(
                "The goal: the most points after 2 rounds. Paint graffiti cards onto the "
                "mural; half-discs joined into whole discs score 3 more."
            ),
            always,
        ),
        Lesson(
            "turn",
            N_(
                "A turn: exactly one main action (rotate a disc, paint a card, or pass), any "
                "free actions (mix, some techniques), then end your turn."
            ),
            always,
        ),
        Lesson(
            "collect",
            N_(
                "Your rotation brought same-colour segments together: take one paint from "
                "such a pair."
            ),
            offered("collect"),
        ),
        Lesson(
            "paint",
            N_(
                "You can pay for a display card: its paints go to the queue's end and the "
                "card to a free cell of the mural, marked with your spray."
            ),
            offered("paint"),
        ),
        Lesson(
            "cell",
            N_(
                "Place it so its half-discs meet half-discs or border tokens of another "
                "element: each whole disc scores 3."
            ),
            offered("cell"),
        ),
        Lesson(
            "mix",
            N_("Mixing two basic paints makes one advanced paint (A in a cost), a free action."),
            offered("mix"),
        ),
        Lesson(
            "technique",
            N_(
                "A Basquiat technique costs a grafiteiro, once per tile a round; most are "
                "free actions."
            ),
            offered("technique"),
        ),
        Lesson(
            "pass",
            N_(
                "Passing takes you out until the next round; the round ends when everyone "
                "has passed. Paint left in your backpack scores at the end."
            ),
            offered("pass"),
        ),
    ),
)
