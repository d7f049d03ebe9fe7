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


BOT_LEVEL_NAMES = {
    "easy": pgettext_lazy("bot level", "easy"),
    "normal": pgettext_lazy("bot level", "normal"),
    "strong": pgettext_lazy("bot level", "strong"),
}


def bot_label(seat_number: int, level: str | None = None) -> str:
    """The table's name of the bot in a seat with its level, "Kaveh (easy)" (issue 34:
    one name everywhere: the table, the review and the lists of a match's players)."""
    name = bot_name(seat_number)
    label = BOT_LEVEL_NAMES.get(level or "")
    if label is None:
        return name
    return str(pgettext_lazy("a bot's name and level", "%(name)s (%(level)s)")) % {
        "name": name,
        "level": label,
    }
