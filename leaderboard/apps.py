from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaderboardConfig(AppConfig):
    name = "leaderboard"
    verbose_name = _("Leaderboard")

    def ready(self):
        from games.signals import match_ended

        from .ledger import record_match

        match_ended.connect(record_match, dispatch_uid="leaderboard.record_match")
