"""Every game's teaching course, by game id (a game without one cannot be learned)."""

from __future__ import annotations

from bot.teaching import Course, artsee, mural, street_art, street_kings

COURSES: dict[str, Course] = {
    course.game: course
    for course in (street_art.COURSE, artsee.COURSE, mural.COURSE, street_kings.COURSE)
}
