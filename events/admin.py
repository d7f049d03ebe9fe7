from django.contrib import admin

from .models import Arena, ArenaPlayer, ChallengeDay


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    """E-3: moderators schedule arenas here (game, rules, start, length)."""

    list_display = ("name", "game", "starts_at", "minutes", "status")
    list_filter = ("game", "status")
    fields = ("name", "game", "rules", "starts_at", "minutes", "status", "podium")
    readonly_fields = ("podium",)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "game":
            from django import forms

            from games.models import GAME_CHOICES

            return forms.ChoiceField(choices=GAME_CHOICES, label=db_field.verbose_name)
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        from games import engine

        obj.rules = engine.get(obj.game).validate_rules(obj.rules or {})
        super().save_model(request, obj, form, change)


@admin.register(ArenaPlayer)
class ArenaPlayerAdmin(admin.ModelAdmin):
    list_display = ("arena", "user", "score", "streak", "played", "present", "withdrawn")


@admin.register(ChallengeDay)
class ChallengeDayAdmin(admin.ModelAdmin):
    list_display = ("date", "game", "fingerprint", "closed_at")
    readonly_fields = ("seed", "fingerprint", "ranking")
