from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games import decks, signals

        from . import arena, challenge

        decks.register(challenge.given_decks)
        signals.match_ended.connect(challenge.match_ended, dispatch_uid="events.challenge_ended")
        signals.match_ended.connect(arena.match_ended, dispatch_uid="events.arena_ended")
