from django.contrib import admin

from .models import PushSubscription


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "language", "created_at", "last_sent_at")
    search_fields = ("user__username",)
    readonly_fields = ("user", "endpoint", "p256dh", "auth", "created_at", "last_sent_at")
