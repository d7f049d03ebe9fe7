from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayNowConfig(AppConfig):
    name = "playnow"
    verbose_name = _("Play now")

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from games.signals import match_ended
        from rooms.models import Room
        from rooms.signals import room_changed

        from . import live

        # M-5: what the lobby shows changed (never a move at a table).
        room_changed.connect(live.on_room_changed, dispatch_uid="playnow.lobby.room_changed")
        post_save.connect(live.on_room_saved, sender=Room, dispatch_uid="playnow.lobby.room_saved")
        post_delete.connect(live.on_room_saved, sender=Room, dispatch_uid="playnow.lobby.room_deleted")
        match_ended.connect(live.on_match_ended, dispatch_uid="playnow.lobby.match_ended")
