from celery import shared_task

from . import lobby


@shared_task(name="playnow.sweep", ignore_result=True)
def sweep() -> dict:
    """M-1, M-5: bots for play-now tables whose wait is over; tables nobody is at closed. Safe to run twice."""
    return lobby.sweep()
