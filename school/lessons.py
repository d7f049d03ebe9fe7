"""The school («مکتب‌خانه»): nine Hokm lessons for someone who never held cards.

Each lesson is a few steps; each step shows a tiny table (``scene``) and asks
the learner to do one thing. ``check(answer)`` decides with the real engine
(``games.engine.get("hokm4")``: ``legal_actions``, ``apply``, and the trick
core's winner) and explains a mistake with the rule's id from RULES.md.
The browser only draws scenes and sends answers; it knows no rule.

The lessons live by topic (issue 35): ``lessons_table`` (1-4), ``lessons_tricks``
(5-7), ``lessons_rounds`` (8-9) and ``lessons_more`` (Shelem and Bridge); this
module gathers them into ``LESSONS`` and keeps ``check``.
"""

from __future__ import annotations

from .lessons_more import MORE
from .lessons_rounds import L8, L9
from .lessons_table import L1, L2, L3, L4
from .lessons_tricks import L5, L6, L7
from .steps import (  # noqa: F401 - the building blocks, also read from here
    RANK_TEXT,
    SUIT_SYMBOL,
    BadAnswer,
    Lesson,
    Step,
    Verdict,
    _card,
    _scene,
    _seat,
    _suit,
    card_text,
    seat_name,
    suit_name,
)

LESSONS: dict[int, Lesson] = {lesson.number: lesson for lesson in (L1, L2, L3, L4, L5, L6, L7, L8, L9, *MORE)}


def check(number: int, step: int, answer) -> Verdict:
    """The lesson's verdict on ``answer`` at ``step`` (raises BadAnswer, KeyError, IndexError)."""
    return LESSONS[number].steps[step].check(answer)
