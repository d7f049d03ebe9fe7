from django.contrib import admin

from infra.admin import ReadOnlyAdmin

from .models import Match, Move, Round


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    readonly_fields = ("number", "first_seq", "last_seq", "result", "started_at", "ended_at")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "room", "status", "practice", "version", "started_at", "finished_at")
    list_filter = ("game", "status", "practice")
    search_fields = ("room__code",)
    readonly_fields = (
        "room",
        "game",
        "rules",
        "state",
        "version",
        "players",
        "deadlines",
        "next_deadline",
        "result",
        "leaver_seat",
        "practice",
        "started_at",
        "finished_at",
    )
    exclude = ()
    inlines = [RoundInline]

    def has_add_permission(self, request):
        return False


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "seat", "actor", "created_at")
    list_filter = ("actor",)
    readonly_fields = [f.name for f in Move._meta.fields]
