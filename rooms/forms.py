"""The "create room" form: the game and every table rule of that game (R-1)."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.templatetags.persian import localise_digits
from games import engine
from games.models import GAME_CHOICES

RULE_LABELS = {
    "target": _("Rounds to win the match"),
    "kot": _("Kot: a 7–0 round counts 2 (3 against the hakem)"),
    "middle_card": _("Partner's middle card may name trump"),
    "early_play": _("Early play (lay a card before your turn)"),
    "lead_run": _("Leading a run (A-K-Q together)"),
    "ace_partners": _("Partners by ace draw"),
    "tea": _("Tea with the narrator (once per match each)"),
    "throwing": _("Throwing things (at most 3 per trick)"),
    "jokers": _("Jokers (54 cards, widow of 6)"),
    "cap": _("Match ends at"),
    "lead": _("…or when a side leads by"),
    "turn_seconds": _("Seconds per turn"),
    "rubbers": _("Rubbers"),
}


def choice_label(name: str, value, jokers: bool | None = None) -> str:
    """How one value of a table rule reads in the form and on the table
    (``jokers``: the room's own choice, when known)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(_("on") if value else _("off"))
    if name == "lead":
        # SH-11: a multiple of the round's points, 165 (200 with jokers).
        if not value:
            return "—"
        if jokers is not None:
            return localise_digits(value * (200 if jokers else 165))
        return str(
            _("%(plain)s (%(jokers)s with jokers)")
            % {"plain": localise_digits(value * 165), "jokers": localise_digits(value * 200)}
        )
    if name == "turn_seconds":
        return ngettext("%(n)s second", "%(n)s seconds", value) % {"n": localise_digits(value)}
    return localise_digits(value)


def rule_items(game: str, rules: dict | None) -> list[dict]:
    """A room's table rules as label and value, for the lobby and the table (R-1)."""
    try:
        definition = engine.get(game)
    except Exception:  # noqa: BLE001 - a game whose engine is not built yet
        return []
    rules = rules or {}
    items = []
    for name, spec in definition.RULE_OPTIONS.items():
        value = rules.get(name, spec["default"])
        items.append(
            {
                "name": name,
                "label": RULE_LABELS.get(name, name.replace("_", " ")),
                "value": value,
                "text": choice_label(name, value, rules.get("jokers")),
                "boolean": isinstance(value, bool),
            }
        )
    return items


def rule_field(name: str, spec: dict) -> forms.Field:
    choices = spec["choices"]
    label = RULE_LABELS.get(name, name.replace("_", " "))
    if all(isinstance(c, bool) for c in choices):
        return forms.BooleanField(label=label, required=False, initial=spec["default"])
    return forms.TypedChoiceField(
        label=label,
        choices=[(json.dumps(c), choice_label(name, c)) for c in choices],
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
