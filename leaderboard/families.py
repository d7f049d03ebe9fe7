"""Game families: the leaderboards group the two- and four-player variants (L-6)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Family(models.TextChoices):
    HOKM = "hokm", _("Hokm")
    SHELEM = "shelem", _("Shelem")
    BRIDGE = "bridge", _("Rubber bridge")


FAMILY_OF_GAME = {
    "hokm4": Family.HOKM,
    "hokm2": Family.HOKM,
    "shelem4": Family.SHELEM,
    "shelem2": Family.SHELEM,
    "bridge": Family.BRIDGE,
}

DEFAULT_FAMILY = Family.HOKM


def family_of(game: str) -> str:
    return FAMILY_OF_GAME[game]
