from celery import shared_task

from .moderation import lift_expired


@shared_task(name="friends.lift_suspensions")
def lift_suspensions() -> int:
    """Periodic: reactivate players whose timed deactivation ended."""
    return lift_expired()
