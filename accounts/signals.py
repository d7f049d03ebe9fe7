import logging

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from .models import Profile, User
from .sockets import close_user_sockets

log = logging.getLogger(__name__)


def close_sockets(user_id: int, reason: str) -> None:
    """Like close_user_sockets, but a channel layer that is down does not turn
    the sign-out into an error page (the socket's own session check on its
    next action is then the only guard)."""
    try:
        close_user_sockets(user_id, reason=reason)
    except Exception:  # noqa: BLE001 - logged; signing out must still work
        log.exception("could not close the sockets of user %s", user_id)


@receiver(post_save, sender=User)
def create_profile(sender, instance, created, **kwargs):
    if created:
        Profile.objects.get_or_create(user=instance)


# Issue 14, item 4: a socket opened while signed in keeps the user it was
# opened with; signing out or being deactivated closes every one of them.


@receiver(user_logged_out)
def close_sockets_on_sign_out(sender, request, user, **kwargs):
    if user is not None and user.pk is not None:
        close_sockets(user.pk, reason="signed_out")


@receiver(pre_save, sender=User)
def remember_active(sender, instance, raw=False, **kwargs):
    if raw or instance.pk is None:
        instance._was_active = None
        return
    instance._was_active = User.objects.filter(pk=instance.pk).values_list("is_active", flat=True).first()


@receiver(post_save, sender=User)
def close_sockets_on_deactivation(sender, instance, created, raw=False, **kwargs):
    if raw or created:
        return
    if getattr(instance, "_was_active", None) and not instance.is_active:
        close_sockets_after_commit([instance.pk])


def close_sockets_after_commit(user_ids) -> None:
    """Close the users' sockets once the deactivation is committed (a socket
    opened in between finds the account inactive and is anonymous)."""
    ids = [int(pk) for pk in user_ids]
    transaction.on_commit(lambda: [close_sockets(pk, reason="deactivated") for pk in ids])
