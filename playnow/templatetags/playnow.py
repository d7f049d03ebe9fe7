from django import template

from playnow import presets

register = template.Library()


@register.simple_tag
def play_presets(game: str | None = None) -> list:
    """M-1: the Play now buttons, one per common rule preset (of ``game``, or all)."""
    return presets.for_game(game) if game else list(presets.PRESETS.values())
