from django import template
from django.utils import translation

from ratings import queries

register = template.Library()


@register.simple_tag
def player_ratings(user) -> list:
    """M-4: the profile's ratings per game (with the chart and the matches behind it)."""
    return queries.profile(user)


@register.simple_tag
def provisional_mark() -> str:
    """The mark after a provisional rating (M-2): the page's question mark."""
    return "\u061f" if (translation.get_language() or "fa").startswith("fa") else "?"
