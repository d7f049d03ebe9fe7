"""Bots' names (issue 15): each bot seat has a short, distinct name in both
languages, so that "Dara bid 110" tells whether it was a partner. The names
depend on the seat number only: the same in the top bar, the bubbles, the
results and for spectators."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import pgettext_lazy

BOT_NAMES = {
    1: pgettext_lazy("bot name", "Dara"),
    2: pgettext_lazy("bot name", "Sima"),
    3: pgettext_lazy("bot name", "Kaveh"),
    4: pgettext_lazy("bot name", "Nika"),
}


def bot_name(seat_number: int, language: str | None = None) -> str:
    """The bot's name for a seat (1..4) in ``language`` (the active one by default)."""
    name = BOT_NAMES.get(seat_number)
    if name is None:
        return str(pgettext_lazy("bot name", "Bot"))
    if language is None:
        return str(name)
    with translation.override(language):
        return str(name)


def bot_names(players: int = 4, language: str | None = None) -> dict[str, str]:
    """{"1": name, ...} for every seat of a table: what the room page hands to its script."""
    return {str(n): bot_name(n, language) for n in range(1, players + 1)}
