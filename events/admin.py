from django import forms
from django.contrib import admin

from games import engine
from games.engine import IllegalAction

from .models import Arena, ArenaPlayer, ChallengeDay


class ArenaForm(forms.ModelForm):
    class Meta:
        model = Arena
        fields = ("name", "game", "rules", "starts_at", "minutes", "status")

    def clean(self):
        data = super().clean()
        game = data.get("game")
        if game:
            try:
                data["rules"] = engine.get(game).validate_rules(data.get("rules") or {})
            except (IllegalAction, KeyError, ValueError) as exc:
                raise forms.ValidationError({"rules": str(getattr(exc, "message", exc))}) from None
        return data


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    """E-3: moderators schedule arenas here (game, rules, start, length)."""

    form = ArenaForm

    list_display = ("name", "game", "starts_at", "minutes", "status")
    list_filter = ("game", "status")
    fields = ("name", "game", "rules", "starts_at", "minutes", "status", "podium")
    readonly_fields = ("podium",)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "game":
            from games.models import GAME_CHOICES

            return forms.ChoiceField(choices=GAME_CHOICES, label=db_field.verbose_name)
        return super().formfield_for_dbfield(db_field, request, **kwargs)


@admin.register(ArenaPlayer)
class ArenaPlayerAdmin(admin.ModelAdmin):
    list_display = ("arena", "user", "score", "streak", "played", "present", "withdrawn")


@admin.register(ChallengeDay)
class ChallengeDayAdmin(admin.ModelAdmin):
    list_display = ("date", "game", "fingerprint", "closed_at")
    readonly_fields = ("seed", "fingerprint", "ranking")
