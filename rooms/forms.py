"""The "create room" form: the game and every table rule of that game (R-1)."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import GAME_CHOICES

RULE_LABELS = {
    "target": _("Rounds to win the match"),
    "kot": _("Kot: a 7–0 round counts 2 (3 against the hakem)"),
    "middle_card": _("Partner's middle card may name trump"),
    "early_play": _("Early play (lay a card before your turn)"),
    "lead_run": _("Leading a run (A-K-Q together)"),
    "ace_partners": _("Partners by ace draw"),
    "jokers": _("Jokers (54 cards, widow of 6)"),
    "cap": _("Match ends at"),
    "lead": _("…or when a side leads by"),
    "turn_seconds": _("Seconds per turn"),
    "rubbers": _("Rubbers"),
}


def rule_field(name: str, spec: dict) -> forms.Field:
    choices = spec["choices"]
    label = RULE_LABELS.get(name, name.replace("_", " "))
    if all(isinstance(c, bool) for c in choices):
        return forms.BooleanField(label=label, required=False, initial=spec["default"])
    return forms.TypedChoiceField(
        label=label,
        choices=[(json.dumps(c), "—" if c is None else str(c)) for c in choices],
        coerce=json.loads,
        initial=json.dumps(spec["default"]),
    )


class CreateRoomForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=GAME_CHOICES)
    is_private = forms.BooleanField(label=_("Private (only people with the link)"), required=False)

    def __init__(self, *args, game: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game_name = (self.data.get("game") if self.is_bound else None) or game or "hokm4"
        self.fields["game"].initial = self.game_name
        try:
            definition = engine.get(self.game_name)
        except Exception:  # noqa: BLE001 - an unknown game shows as a form error
            return
        for name, spec in definition.RULE_OPTIONS.items():
            self.fields[f"rule_{name}"] = rule_field(name, spec)

    def rules(self) -> dict:
        return {k[5:]: v for k, v in self.cleaned_data.items() if k.startswith("rule_")}


def rule_forms() -> dict:
    """One form per game, for the lobby's "create room" panel."""
    return {name: CreateRoomForm(game=name) for name in engine.GAMES}
