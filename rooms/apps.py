from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = _("Rooms")

    def ready(self):
        from games import signals

        from . import broadcast, listeners, story

        signals.match_ended.connect(listeners.match_ended, dispatch_uid="rooms.match_ended")
        signals.seats_swapped.connect(listeners.seats_swapped, dispatch_uid="rooms.seats_swapped")
        signals.version_committed.connect(broadcast.version_committed, dispatch_uid="rooms.broadcast")
        signals.fair_changed.connect(broadcast.fair_changed, dispatch_uid="rooms.fair_changed")
        signals.tea_poured.connect(story.told, dispatch_uid="rooms.tea_poured")  # H4-X4
