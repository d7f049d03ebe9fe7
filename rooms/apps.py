from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = _("Rooms")

    def ready(self):
        from games import signals

        from . import broadcast, listeners, story

        signals.match_ended.connect(listeners.match_ended, dispatch_uid="rooms.match_ended")
        # Before the broadcast: the room it sends shows the seats as they now are.
        signals.version_committed.connect(listeners.seats_follow, dispatch_uid="rooms.seats_follow")  # H4-X6
        signals.version_committed.connect(story.poured, dispatch_uid="rooms.story")  # H4-X4
        signals.version_committed.connect(broadcast.version_committed, dispatch_uid="rooms.broadcast")
        signals.fair_changed.connect(broadcast.fair_changed, dispatch_uid="rooms.fair_changed")
