from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self):
        from games.signals import match_ended

        from .services import on_match_ended

        # M-2: games imports nothing of this app; it listens to the play service's signal.
        match_ended.connect(on_match_ended, dispatch_uid="ratings.on_match_ended")
