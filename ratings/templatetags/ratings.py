from django import template

from ratings import queries

register = template.Library()


@register.simple_tag
def player_ratings(user) -> list:
    """M-4: the profile's ratings per game (with the chart and the matches behind it)."""
    return queries.profile(user)
