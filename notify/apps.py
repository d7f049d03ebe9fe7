from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """Issue 40: the installable site (manifest, service worker, offline page)
    and notifications (the page's own while its tab is hidden, Web Push for a
    closed one)."""

    name = "notify"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import receivers

        receivers.connect()
