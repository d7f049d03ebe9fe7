from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FriendsConfig(AppConfig):
    name = "friends"
    verbose_name = _("Friends")

    def ready(self):
        from rooms import services as room_services

        from .moderation import reactions_muted

        if reactions_muted not in room_services.REACTION_GUARDS:
            room_services.REACTION_GUARDS.append(reactions_muted)
