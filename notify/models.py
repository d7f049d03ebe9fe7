from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One device's (one browser's) Web Push subscription: the push service's
    endpoint and the keys its messages are encrypted with (RFC 8291). A player
    has one per device where he turned notifications on; the push service's
    404 or 410 (the subscription expired or was revoked) deletes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    language = models.CharField(max_length=2, default="fa")
    session_key = models.CharField(max_length=40, blank=True, default="")
    """The session that subscribed: signing out of it forgets this device's subscription."""
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self):
        return f"push subscription {self.pk} of {self.user_id}"

    def info(self) -> dict:
        """The subscription as the browser gave it (pywebpush's ``subscription_info``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
