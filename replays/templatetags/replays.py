"""{% load replays %}: links to review hands (R-10) from other pages."""

from django import template

from replays.services import REVIEWABLE, is_participant

register = template.Library()


@register.filter
def reviewable_by(match, user) -> bool:
    """True when ``user`` took part in ``match`` and it is over: he may review it."""
    return bool(match) and match.status in REVIEWABLE and is_participant(match, user)
