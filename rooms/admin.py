from django.contrib import admin

from .models import Room, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("code", "game", "creator", "status", "is_private", "created_at")
    list_filter = ("game", "status", "is_private")
    search_fields = ("code", "creator__username")
    inlines = [SeatInline]
