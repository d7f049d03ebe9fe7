from django.apps import AppConfig


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = "Operations"

    def ready(self):
        from . import metrics, sentry, wire

        metrics.install()
        sentry.init()
        wire.install()
