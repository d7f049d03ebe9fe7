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

        from django.db.models.signals import post_save, pre_save

        from accounts.models import Profile

        from . import signals

        pre_save.connect(signals.remember_show_online, sender=Profile, dispatch_uid="friends.show_online.pre")
        post_save.connect(
            signals.tell_friends_show_online, sender=Profile, dispatch_uid="friends.show_online"
        )
        from rooms.models import Room, Seat

        post_save.connect(signals.room_or_seat_saved, sender=Seat, dispatch_uid="friends.invites.seat")
        post_save.connect(signals.room_or_seat_saved, sender=Room, dispatch_uid="friends.invites.room")
