"""Game families: the leaderboards group the two- and four-player variants (L-6)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine.base import FAMILIES

Family = models.TextChoices("Family", [(key.upper(), (key, _(label))) for key, label in FAMILIES.items()])
"""The leaderboards' families, from the engines' one contract (``base.FAMILIES``)."""

FAMILY_OF_GAME = {game.name: Family(game.family) for game in engine.catalogue()}

DEFAULT_FAMILY = Family.HOKM


def family_of(game: str) -> str:
    return FAMILY_OF_GAME[game]
