"""The common rule presets of "Play now" (M-1): one button each."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Preset:
    key: str
    game: str
    rules: dict
    label: object


PRESETS: dict[str, Preset] = {
    p.key: p
    for p in (
        Preset("hokm4", "hokm4", {"target": 7}, _("Hokm, to 7 rounds")),
        Preset("hokm2", "hokm2", {"target": 7}, _("Hokm for two")),
        Preset("shelem4", "shelem4", {"jokers": False, "cap": 600}, _("Shelem, no jokers, cap 600")),
        Preset("shelem4j", "shelem4", {"jokers": True, "cap": 600}, _("Shelem with jokers, cap 600")),
        Preset("shelem2", "shelem2", {"cap": 600}, _("Shelem for two")),
        Preset("bridge", "bridge", {"rubbers": 1}, _("Bridge, one rubber")),
    )
}


def get(key: str) -> Preset | None:
    return PRESETS.get(key)


def for_game(game: str) -> list[Preset]:
    return [p for p in PRESETS.values() if p.game == game]
